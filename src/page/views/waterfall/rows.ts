import type { ObservedRequest, PageRecord, TimingEntry } from '../../model/page-record';
import type { ReplayResultMessage } from '../../../protocol';
import type { RequestRecord } from '../../../run/request-record';
import type { HandshakeRecord } from '../../../stats/handshake';
import { sendTimeExposed } from '../../model/connection-count';
import { firstUrl } from '../../model/redirect-hops';
import { phasesFromRecord, phasesFromTiming, type Phase } from './phases';

/** The colour classes of the waterfall (DevTools' and WebPageTest's groups). */
export type TypeClass = 'document' | 'stylesheet' | 'script' | 'font' | 'image' | 'media' | 'xhr' | 'other';

export const TYPE_CLASSES: readonly TypeClass[] = ['document', 'stylesheet', 'script', 'font', 'image', 'media', 'xhr', 'other'];

/** Which connection a row went on, and who says so. */
export interface ConnectionRef {
  /** Unique within one source of rows (one page load, one replayed strategy). */
  key: string;
  /** `host`: the replaying host's own connection id. `resource-timing`: inferred from the browser's
   * connectStart/connectEnd and request order. `not-exposed`: the browser hides it (packed into
   * lanes only so that bars do not overlap). `cache`: served from the HTTP cache, no connection. */
  source: 'host' | 'resource-timing' | 'not-exposed' | 'cache';
  /** 1-based number within its origin, for labels. */
  n: number;
}

/** One named row of the request view. Times are ms from the navigation's (or replay run's) start. */
export interface WaterfallRow {
  key: string;
  url: string;
  /** Path and query (the host when the path is `/`). */
  name: string;
  /** `scheme://host[:port]` when it differs from the page's origin, else null. */
  origin: string | null;
  type: TypeClass;
  startMs: number;
  /** null while still loading. */
  endMs: number | null;
  phases: Phase[];
  /** When the URL was first found in the DOM; null when the content script did not report it. */
  discoveredMs: number | null;
  status: number | null;
  error: string | null;
  protocol: string | null;
  /** Bytes on the wire as the source exposes them (transferSize, or the host's body bytes). */
  bytes: number | null;
  /**
   * Opened a new connection: true/false as Resource Timing or the host says; null when hidden, and
   * for a reused one whose send time (`requestStart`) is not exposed: which connection it was on,
   * its start (its time in the browser's queue) does not tell.
   */
  opensConnection: boolean | null;
  connection: ConnectionRef | null;
  fromCache: boolean;
  /** The browser hides this request's phases (cross-origin without Timing-Allow-Origin). */
  restricted: boolean;
  ip: string | null;
}

/** A replay result as the host sends it; `startedAt` and `handshakes` are absent from older hosts. */
export type ReplayResultLike = Pick<ReplayResultMessage, 'strategy' | 'requests'> & { startedAt?: number; handshakes?: readonly HandshakeRecord[] };

/**
 * One row per request the page made (webRequest), in start order, each joined to its Resource
 * Timing entry by URL (each entry used once, in order; Resource Timing names a redirected request
 * by the URL first requested, so that is the key). The document's phases come from Navigation
 * Timing. With no webRequest events (no site access yet), the Resource Timing entries alone.
 */
export function observedRows(page: PageRecord): WaterfallRow[] {
  const pageOrigin = originOrNull(page.url);
  const discovered = firstDiscoveries(page);
  const byUrl = new Map<string, TimingEntry[]>();
  for (const t of page.timings) {
    const list = byUrl.get(t.name);
    if (list) list.push(t);
    else byUrl.set(t.name, [t]);
  }
  const rows =
    page.requests.length > 0
      ? page.requests.map((r, i) => requestRow(r, r.type === 'main_frame' ? undefined : byUrl.get(firstUrl(r))?.shift(), page, `o${i}`, pageOrigin))
      : page.timings.map((t, i) => timingRow(t, `t${i}`, pageOrigin));
  for (const row of rows) row.discoveredMs = discovered.get(row.url) ?? null;
  return sortByStart(rows);
}

function requestRow(r: ObservedRequest, t: TimingEntry | undefined, page: PageRecord, key: string, pageOrigin: string | null): WaterfallRow {
  const startMs = Math.max(0, r.startedAt - page.startedAt);
  const endMs = r.endedAt === undefined ? null : Math.max(startMs, r.endedAt - page.startedAt);
  const isDocument = r.type === 'main_frame' && r.frameId === 0;
  let phases: Phase[];
  let restricted = false;
  if (t) {
    phases = phasesFromTiming(t);
    restricted = t.restricted;
  } else if (isDocument && page.navigation && page.navigation.responseStart > 0) {
    const firstByte = page.navigation.responseStart;
    phases = [{ kind: 'wait', startMs, endMs: Math.max(startMs, firstByte) }, { kind: 'download', startMs: Math.max(startMs, firstByte), endMs: Math.max(startMs, firstByte, endMs ?? firstByte) }];
  } else {
    // webRequest alone says when it started and ended, not what happened between.
    phases = endMs === null ? [] : [{ kind: 'opaque', startMs, endMs }];
    restricted = true;
  }
  const exposed = t && !t.restricted ? t : undefined;
  return {
    key,
    url: r.url,
    ...naming(r.url, pageOrigin),
    type: typeClass(r.type),
    startMs: t ? Math.min(t.startTime, startMs) : startMs,
    endMs: t && endMs !== null ? Math.max(t.responseEnd, phases.at(-1)?.endMs ?? 0) : endMs,
    phases,
    discoveredMs: null,
    status: r.statusCode ?? null,
    error: r.error ?? null,
    protocol: (isDocument ? page.navigation?.nextHopProtocol : exposed?.nextHopProtocol) || null,
    bytes: exposed ? exposed.transferSize : null,
    opensConnection: exposed ? opensConnection(exposed) : null,
    connection: null,
    fromCache: r.fromCache === true || (exposed !== undefined && exposed.transferSize === 0 && exposed.encodedBodySize > 0),
    restricted,
    ip: r.ip ?? null,
  };
}

function opensConnection(t: TimingEntry): boolean | null {
  if (t.connectEnd > t.connectStart) return true;
  return sendTimeExposed(t) ? false : null;
}

function timingRow(t: TimingEntry, key: string, pageOrigin: string | null): WaterfallRow {
  return {
    key,
    url: t.name,
    ...naming(t.name, pageOrigin),
    type: initiatorClass(t.initiatorType),
    startMs: t.startTime,
    endMs: t.responseEnd,
    phases: phasesFromTiming(t),
    discoveredMs: null,
    status: null,
    error: null,
    protocol: t.nextHopProtocol || null,
    bytes: t.restricted ? null : t.transferSize,
    opensConnection: t.restricted ? null : opensConnection(t),
    connection: null,
    fromCache: !t.restricted && t.transferSize === 0 && t.encodedBodySize > 0,
    restricted: t.restricted,
    ip: null,
  };
}

/**
 * One row per replayed request (ms from that strategy's run start), on the host's own connection
 * ids. The request that opened a connection carries the connection's DNS, connect and TLS, placed
 * by the handshake's start when the host sent `startedAt` and its handshakes.
 */
export function replayRows(result: ReplayResultLike, pageUrl: string): WaterfallRow[] {
  const pageOrigin = originOrNull(pageUrl);
  const handshakes = new Map((result.handshakes ?? []).map((h) => [h.connectionId, h]));
  const opener = new Map<number, RequestRecord>();
  for (const r of result.requests) {
    if (r.connectionId === null || r.sentMs === null) continue;
    const first = opener.get(r.connectionId);
    if (!first || (first.sentMs ?? Infinity) > r.sentMs) opener.set(r.connectionId, r);
  }
  const numbers = connectionNumbers(result.requests);
  const rows = result.requests.map((r, i): WaterfallRow => {
    const hs = r.connectionId === null ? undefined : handshakes.get(r.connectionId);
    const opens = r.connectionId !== null && opener.get(r.connectionId) === r;
    const handshake = opens && hs && result.startedAt !== undefined ? { startMs: hs.startedAt - result.startedAt, record: hs } : undefined;
    const phases = phasesFromRecord(r, handshake);
    return {
      key: `${result.strategy}:${i}`,
      url: r.url,
      ...naming(r.url, pageOrigin),
      type: typeClass(r.resourceType ?? 'other'),
      startMs: Math.min(r.discoveredMs, phases[0]?.startMs ?? r.discoveredMs),
      endMs: r.doneMs,
      phases,
      discoveredMs: r.discoveredMs,
      status: r.status,
      error: r.error ? r.error.code : null,
      protocol: r.protocol,
      bytes: r.bytes,
      opensConnection: r.connectionId === null ? null : opens && !r.reused,
      connection: r.connectionId === null ? null : { key: `${result.strategy}#${r.connectionId}`, source: 'host', n: numbers.get(r.connectionId) ?? 0 },
      fromCache: false,
      restricted: false,
      ip: hs?.remoteAddress ?? null,
    };
  });
  return sortByStart(rows);
}

/** Connection ids numbered 1… per origin in order of first use. */
function connectionNumbers(requests: readonly RequestRecord[]): Map<number, number> {
  const perOrigin = new Map<string, number>();
  const out = new Map<number, number>();
  for (const r of [...requests].sort((a, b) => (a.sentMs ?? Infinity) - (b.sentMs ?? Infinity))) {
    if (r.connectionId === null || out.has(r.connectionId)) continue;
    const origin = originOrNull(r.url) ?? '';
    const n = (perOrigin.get(origin) ?? 0) + 1;
    perOrigin.set(origin, n);
    out.set(r.connectionId, n);
  }
  return out;
}

/** Stable sort by start; ties keep the source's order. */
function sortByStart(rows: WaterfallRow[]): WaterfallRow[] {
  return rows.map((r, i) => [r, i] as const).sort((a, b) => a[0].startMs - b[0].startMs || a[1] - b[1]).map(([r]) => r);
}

function firstDiscoveries(page: PageRecord): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of page.discoveries) {
    const prev = out.get(d.url);
    if (Number.isFinite(d.atMs) && (prev === undefined || d.atMs < prev)) out.set(d.url, d.atMs);
  }
  return out;
}

/** The row's name (path and query, as DevTools shows it) and its origin when not the page's. */
export function naming(url: string, pageOrigin: string | null): { name: string; origin: string | null } {
  try {
    const u = new URL(url);
    const path = `${u.pathname}${u.search}`;
    const name = path === '/' ? u.host : path.length > 1 ? decodeSafe(path) : u.host;
    return { name, origin: u.origin === pageOrigin ? null : u.origin };
  } catch {
    return { name: url, origin: null };
  }
}

function decodeSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

function originOrNull(url: string): string | null {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/** webRequest ResourceType (or a schedule's `resourceType`) → colour class. */
export function typeClass(type: string): TypeClass {
  switch (type) {
    case 'main_frame':
    case 'sub_frame':
    case 'document':
      return 'document';
    case 'stylesheet':
      return 'stylesheet';
    case 'script':
      return 'script';
    case 'font':
      return 'font';
    case 'image':
    case 'imageset':
      return 'image';
    case 'media':
      return 'media';
    case 'xmlhttprequest':
    case 'fetch':
    case 'xhr':
      return 'xhr';
    default:
      return 'other';
  }
}

/** Resource Timing initiatorType → colour class (a guess: `link` is usually a stylesheet). */
export function initiatorClass(initiator: string): TypeClass {
  switch (initiator) {
    case 'script':
      return 'script';
    case 'link':
    case 'css':
      return initiator === 'link' ? 'stylesheet' : 'image';
    case 'img':
    case 'image':
      return 'image';
    case 'iframe':
    case 'navigation':
      return 'document';
    case 'xmlhttprequest':
    case 'fetch':
      return 'xhr';
    case 'video':
    case 'audio':
      return 'media';
    default:
      return 'other';
  }
}
