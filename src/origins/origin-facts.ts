import { isHttpProtocol, type HttpProtocol } from '../core/http-protocol';
import { checkPageList, LIST_WINDOW, type ListedResource } from './page-list';

/**
 * What the engine has learned about one origin, and about one page: the origins it used. One type,
 * one checker, one merge, for every holder of it: the scheduler's `OriginMemory`
 * (src/origins/origin-memory.ts), the native host's store (`f!` and `l!` keys), `getlist origins`
 * and `getlist load --memory FILE`.
 *
 * Every field but `origin` and `lastSeen` is optional: absent means "not learned yet", never
 * "false" or 0. Pure: no I/O.
 */
export interface OriginFacts {
  /** `scheme://host[:port]` exactly as `new URL(x).origin` prints it, http or https. */
  origin: string;
  /** When any fact was last written, epoch ms (the writing memory's clock). */
  lastSeen: number;
  /** Pipelining earned (`good`: full depth at once) or broken (`bad`, until `pipeliningBadUntil`). */
  pipelining?: 'good' | 'bad';
  /** Epoch ms until which a `bad` origin stays unpipelined. */
  pipeliningBadUntil?: number;
  /**
   * Clean pipelined responses of the pipelining probe seen on earlier loads, short of the count
   * that earns `good` (pipeline-health.ts): the next load's probe goes on from there, so an origin
   * whose pages give one revealing pair per load (an image-only origin, where only the document
   * may have an image pipelined behind it) still earns full depth. Dropped by `good` and `bad`.
   */
  pipeliningProofs?: number;
  /**
   * What ALPN chose last time: `h2` (one multiplexed connection) or `http/1.1`. Records written
   * before the one protocol vocabulary say `h1`: read as `http/1.1`, written back in the new form.
   */
  protocol?: HttpProtocol;
  /**
   * Requests the server answered on one connection before it closed it (a keep-alive limit such as
   * nginx's `keepalive_requests`); the engine opens the next connection before reaching it.
   */
  requestBudget?: number;
  /**
   * The server's SETTINGS_MAX_CONCURRENT_STREAMS on its last HTTP/2 connection: the streams a new
   * connection opens before its own SETTINGS arrive (RFC 9113 §6.5.2). SPDY let a server ask its
   * clients to keep this setting for the next connection (SETTINGS_FLAG_PERSIST_VALUE), for the
   * same reason: a burst past the limit is refused, or held by a server that defers it.
   */
  maxConcurrentStreams?: number;
  /** TCP handshake time: one round trip of the path, ms. */
  rttMs?: number;
  /** Bottleneck delivery rate from a response's first flight, bytes/ms; `null` = too fast to cap. */
  rateBytesPerMs?: number | null;
  /** HTTP/1.1 connections the path took at once (src/scheduler/path-estimate.ts). */
  connectionCap?: number;
  /**
   * The most the client received over one round trip, bytes/ms, in the last load that used this
   * origin (src/scheduler/peak-delivery.ts): at most its link's rate, which sizes a revisit's
   * HTTP/2 windows (src/scheduler/list-windows.ts).
   */
  peakBytesPerMs?: number;
  /**
   * That peak was the link's own rate: the load's responses waited in a queue on the path
   * (src/scheduler/queue-delay.ts), or, with no request to time, it held its peak for three windows
   * in a row. `false`: a load that asked less than its link carries, a floor under the
   * link's rate. Absent (facts written before it was kept): read as held.
   */
  peakHeld?: boolean;
}

/** One origin a page used, with how much it carried: enough to open its connections at t = 0. */
export interface PageOrigin {
  origin: string;
  requests: number;
}

/** The origins a load of the page at `url` used, busiest first. */
export interface PageOrigins {
  url: string;
  /** Epoch ms of the load that wrote it. */
  lastSeen: number;
  origins: PageOrigin[];
  /** Loads the request list has recorded, at most `LIST_WINDOW` (page-list.ts); absent before request lists. */
  loads?: number;
  /**
   * The page's learned request list (page-list.ts): what its last loads fetched beyond the
   * document. Absent in records written before request lists, and for a replayed list.
   */
  resources?: ListedResource[];
}

/** Largest epoch ms accepted (the store's key width, year 33658). */
const MAX_EPOCH_MS = 999_999_999_999_999;
const MAX_ORIGIN_CHARS = 2048;
const MAX_URL_CHARS = 8192;
/** Origins one page list keeps (the busiest). */
export const MAX_PAGE_ORIGINS = 256;

export type Checked<T> = { value: T } | { problem: string };

/** How records written before the ALPN ids named HTTP/1.1 (still in stores and `--memory` files). */
const LEGACY_HTTP1 = 'h1';

/**
 * A clean copy of `x` holding only the known fields, or the first problem found (`field: expected
 * …, got …`). JSON `null` reads as absent, except for `rateBytesPerMs` where it means "too fast to
 * cap". Used on writes (a caller's bug) and on reads (a corrupt or foreign stored value).
 */
export function checkOriginFacts(x: unknown): Checked<OriginFacts> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `expected an object, got ${describe(x)}` };
  const o = x as Record<string, unknown>;
  if (!isOrigin(o.origin)) return { problem: `origin: expected an http(s) origin like "https://example.com", got ${describe(o.origin)}` };
  if (!isEpoch(o.lastSeen)) return { problem: `lastSeen: expected epoch ms ≥ 0, got ${describe(o.lastSeen)}` };
  const out: OriginFacts = { origin: o.origin, lastSeen: o.lastSeen };
  if (present(o.pipelining)) {
    if (o.pipelining !== 'good' && o.pipelining !== 'bad') return { problem: `pipelining: expected "good" or "bad", got ${describe(o.pipelining)}` };
    out.pipelining = o.pipelining;
  }
  if (present(o.protocol)) {
    const protocol = o.protocol === LEGACY_HTTP1 ? 'http/1.1' : o.protocol;
    if (!isHttpProtocol(protocol)) return { problem: `protocol: expected "http/1.1" or "h2", got ${describe(o.protocol)}` };
    out.protocol = protocol;
  }
  const numbers: Array<['pipeliningBadUntil' | 'pipeliningProofs' | 'requestBudget' | 'maxConcurrentStreams' | 'rttMs' | 'connectionCap' | 'peakBytesPerMs', (v: unknown) => boolean, string]> = [
    ['pipeliningBadUntil', isEpoch, 'epoch ms ≥ 0'],
    ['pipeliningProofs', (v) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 1000, 'an integer in [1, 1000]'],
    ['requestBudget', (v) => Number.isSafeInteger(v) && (v as number) >= 1, 'an integer ≥ 1'],
    // A SETTINGS value is 32 bits (RFC 9113 §6.5.1).
    ['maxConcurrentStreams', (v) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 0xffff_ffff, 'an integer in [1, 2^32 - 1]'],
    ['rttMs', (v) => typeof v === 'number' && v >= 0 && v < 600_000, 'a number of ms in [0, 600000)'],
    ['connectionCap', (v) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 1000, 'an integer in [1, 1000]'],
    ['peakBytesPerMs', (v) => typeof v === 'number' && Number.isFinite(v) && v > 0, 'a number > 0'],
  ];
  for (const [name, ok, expected] of numbers) {
    if (!present(o[name])) continue;
    if (!ok(o[name])) return { problem: `${name}: expected ${expected}, got ${describe(o[name])}` };
    out[name] = o[name] as number;
  }
  if (present(o.peakHeld)) {
    if (typeof o.peakHeld !== 'boolean') return { problem: `peakHeld: expected true or false, got ${describe(o.peakHeld)}` };
    out.peakHeld = o.peakHeld;
  }
  if (o.rateBytesPerMs === null) out.rateBytesPerMs = null;
  else if (o.rateBytesPerMs !== undefined) {
    const r = o.rateBytesPerMs;
    if (typeof r !== 'number' || !Number.isFinite(r) || r <= 0) return { problem: `rateBytesPerMs: expected a number > 0 or null, got ${describe(r)}` };
    out.rateBytesPerMs = r;
  }
  return { value: out };
}

/** A clean copy of a page's origin list, or the first problem with the record itself. */
export function checkPageOrigins(x: unknown): Checked<PageOrigins> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `expected an object, got ${describe(x)}` };
  const o = x as Record<string, unknown>;
  if (!isHttpUrl(o.url)) return { problem: `url: expected an http(s) URL, got ${describe(o.url)}` };
  if (!isEpoch(o.lastSeen)) return { problem: `lastSeen: expected epoch ms ≥ 0, got ${describe(o.lastSeen)}` };
  if (!Array.isArray(o.origins) || o.origins.length > MAX_PAGE_ORIGINS) return { problem: `origins: expected an array of at most ${MAX_PAGE_ORIGINS}, got ${describe(o.origins)}` };
  // An entry that is not well formed is left out, not trusted: the rest of the list still helps.
  const origins: PageOrigin[] = [];
  for (const p of o.origins) {
    const e = p as Record<string, unknown> | null;
    if (typeof e === 'object' && e !== null && isOrigin(e.origin) && Number.isSafeInteger(e.requests) && (e.requests as number) >= 1) {
      origins.push({ origin: e.origin, requests: e.requests as number });
    }
  }
  const page: PageOrigins = { url: o.url, lastSeen: o.lastSeen, origins };
  // The request list is all or nothing (checkPageList): a bad one makes the record one to skip.
  if (present(o.resources)) {
    const list = checkPageList(o.resources);
    if ('problem' in list) return list;
    if (!Number.isSafeInteger(o.loads) || (o.loads as number) < 1 || (o.loads as number) > LIST_WINDOW) return { problem: `loads: expected an integer in [1, ${LIST_WINDOW}] beside resources, got ${describe(o.loads)}` };
    page.resources = list.value;
    page.loads = o.loads as number;
  }
  return { value: page };
}

/**
 * `next` learned on top of `prev` (same origin): fields `next` has win, fields it lacks are kept,
 * `lastSeen` never goes backwards, a `good` pipelining verdict ends an earlier demotion, and any
 * verdict ends the probe's count of proofs. The
 * one merge of the memory's `put` and the store's writes.
 */
export function mergeOriginFacts(prev: OriginFacts | undefined, next: OriginFacts): OriginFacts {
  if (!prev || prev.origin !== next.origin) return next;
  const merged: OriginFacts = { ...prev, ...withoutUndefined(next), lastSeen: Math.max(prev.lastSeen, next.lastSeen) };
  if (next.pipelining === 'good') delete merged.pipeliningBadUntil;
  // A verdict ends the probe: its proofs are spent (good) or void (bad).
  if (next.pipelining !== undefined && next.pipeliningProofs === undefined) delete merged.pipeliningProofs;
  return merged;
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const present = (v: unknown) => v !== undefined && v !== null;
const isEpoch = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_EPOCH_MS;

/** `scheme://host[:port]` exactly as `new URL(x).origin` prints it, http or https only. */
export function isOrigin(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_ORIGIN_CHARS) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_URL_CHARS) return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === undefined || v === null) return String(v);
  return Array.isArray(v) ? 'an array' : typeof v;
}
