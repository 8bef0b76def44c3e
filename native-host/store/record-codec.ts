import { HTTP_PROTOCOLS } from '../../src/core/http-protocol';
import { createHash } from 'node:crypto';
import { MAX_RECORDABLE_MS } from '../../src/stats/histogram';
import type { PageSummary, StoredHandshake } from './store-types';

/*
 * Key layout (all keys and values are UTF-8; values are JSON):
 *
 *   h!<ts>!<seq>              a StoredHandshake, ts = floor(startedAt)
 *   o!<origin>!<ts>!<seq>     index by connection origin   → value: the h! key
 *   g!<page origin>!<ts>!<seq> index by the page's origin   → value: the h! key (so forget(origin) finds
 *                             the CDN connections a page on that origin opened)
 *   p!<ts>!<seq>              a PageSummary, ts = floor(at)
 *   f!<origin>                the OriginFacts learned about an origin (src/origins/origin-facts.ts)
 *   l!<sha256 of page URL>    the PageOrigins of a page: the origins its last load used (the URL is
 *                             hashed to fit LMDB's key limit; the value holds it)
 *   m!version, m!seq          meta: layout version, next sequence number
 *
 * <ts> is 15 zero-padded decimal digits of epoch ms and <seq> 16 of a store-wide counter, so the
 * byte order of keys is time order, and a time range is one contiguous key range under any prefix.
 * Origins in keys are escaped so that `!` only ever separates fields.
 */

export const LAYOUT_VERSION = 1;
export const META_VERSION = 'm!version';
export const META_SEQ = 'm!seq';

const TS_DIGITS = 15;
const SEQ_DIGITS = 16;
/** Largest timestamp a key can hold (year 33658). */
export const MAX_KEY_TS = 10 ** TS_DIGITS - 1;
const MAX_FIELD_CHARS = 4096;

export type RecordKind = 'h' | 'p';

const pad = (n: number, digits: number) => String(n).padStart(digits, '0');
const escapeOrigin = (o: string) => o.replace(/%/g, '%25').replace(/!/g, '%21');

export function recordKey(kind: RecordKind, ts: number, seq: number): string {
  return `${kind}!${pad(Math.floor(ts), TS_DIGITS)}!${pad(seq, SEQ_DIGITS)}`;
}

export function indexKey(index: 'o' | 'g', origin: string, ts: number, seq: number): string {
  return `${index}!${escapeOrigin(origin)}!${pad(Math.floor(ts), TS_DIGITS)}!${pad(seq, SEQ_DIGITS)}`;
}

/** Index keys of a handshake: its origin, and its page's origin when that is another one. */
export function indexKeysOf(r: StoredHandshake, seq: number): string[] {
  const keys = [indexKey('o', r.origin, r.startedAt, seq)];
  const page = pageOriginOf(r.pageUrl);
  if (page !== undefined && page !== r.origin) keys.push(indexKey('g', page, r.startedAt, seq));
  return keys;
}

/** The `seq` field of a record or index key (its last field). */
export function seqOfKey(key: string): number {
  return Number(key.slice(key.lastIndexOf('!') + 1));
}

/**
 * Key bounds of the records under `prefix` (e.g. `h!` or `o!<origin>!`) whose timestamp may lie
 * in [since, until). Keys hold floor(ts), so the bounds are widened to whole ms and callers
 * filter on the exact value.
 */
export function timeRange(prefix: string, since?: number, until?: number): { start: string; end: string } {
  return {
    start: prefix + pad(Math.max(0, Math.floor(since ?? 0)), TS_DIGITS),
    // ':' sorts right after '9': the end of every all-digit timestamp under the prefix.
    end: until === undefined ? `${prefix}:` : prefix + pad(Math.min(MAX_KEY_TS, Math.max(0, Math.ceil(until))), TS_DIGITS),
  };
}

export function originPrefix(index: 'o' | 'g', origin: string): string {
  return `${index}!${escapeOrigin(origin)}!`;
}

/** Key of an origin's facts. */
export function factsKey(origin: string): string {
  return `f!${escapeOrigin(origin)}`;
}

/** Key of a page's origin list. */
export function pageOriginsKey(url: string): string {
  return `l!${createHash('sha256').update(url).digest('hex')}`;
}

/** Every key of one kind: `f!`, `h!`, `o!`… up to (not including) the next prefix character. */
export function prefixRange(prefix: string): { start: string; end: string } {
  return { start: prefix, end: `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}` };
}

export function pageOriginOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Validation: the same checks guard writes (a caller's bug) and reads (a corrupt or foreign value).

/** A field's check, and what it expects as an error names it. */
type Field = readonly [check: (v: unknown) => boolean, expected: string];
const DURATION: Field = [(v) => typeof v === 'number' && v >= 0 && v <= MAX_RECORDABLE_MS, 'a duration in ms ≥ 0'];
const TIMESTAMP: Field = [(v) => typeof v === 'number' && v >= 0 && v <= MAX_KEY_TS, `epoch ms in [0, ${MAX_KEY_TS}]`];
const TEXT: Field = [(v) => typeof v === 'string' && v.length > 0 && v.length <= MAX_FIELD_CHARS, 'a non-empty string'];
const COUNT: Field = [(v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0, 'an integer ≥ 0'];
const PORT: Field = [(v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535, 'a port number'];
const BOOL: Field = [(v) => typeof v === 'boolean', 'a boolean'];
const NUMBER: Field = [(v) => typeof v === 'number' && v >= 0 && v < Infinity, 'a number ≥ 0'];
const optional = ([check, expected]: Field): Field => [(v) => v === undefined || v === null || check(v), `${expected} or nothing`];
const oneOf = (...xs: readonly string[]): Field => [
  (v) => typeof v === 'string' && xs.includes(v),
  xs.map((x) => JSON.stringify(x)).join(', ').replace(/, ([^,]*)$/, ' or $1'),
];

const HANDSHAKE_FIELDS: Record<keyof StoredHandshake, Field> = {
  connectionId: COUNT,
  origin: TEXT,
  startedAt: TIMESTAMP,
  dnsMs: DURATION,
  tcpMs: DURATION,
  tlsMs: DURATION,
  totalMs: DURATION,
  remoteAddress: optional(TEXT),
  remotePort: optional(PORT),
  localPort: optional(PORT),
  protocol: oneOf(...HTTP_PROTOCOLS),
  tlsVersion: optional(TEXT),
  // Absent on the browser's own records: Resource Timing does not expose TLS resumption.
  resumed: optional(BOOL),
  loopDelayMs: optional(DURATION),
  connect: optional(oneOf('unended')),
  source: oneOf('measure', 'replay', 'cli', 'browser'),
  pageUrl: optional(TEXT),
};

const PAGE_FIELDS: Record<keyof PageSummary, Field> = {
  pageId: TEXT,
  url: TEXT,
  strategy: TEXT,
  mode: oneOf('measure', 'replay'),
  at: TIMESTAMP,
  totalMs: NUMBER,
  meanTtfbMs: NUMBER,
  connectionsOpened: COUNT,
  requestsPerConnection: NUMBER,
  requests: COUNT,
  bytes: COUNT,
  errors: COUNT,
  handshakeP50Ms: optional(NUMBER),
  handshakeP90Ms: optional(NUMBER),
};

/**
 * A clean copy of `x` holding only the known fields (absent optionals stay absent; JSON `null`
 * reads as absent), or a description of the first bad field.
 */
function checkFields<T>(x: unknown, fields: Record<string, Field>): { value: T } | { problem: string } {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: 'expected an object' };
  const o = x as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, [check, expected]] of Object.entries(fields)) {
    const v = o[name];
    if (!check(v)) return { problem: `${name}: expected ${expected}, got ${describe(v)}` };
    if (v !== undefined && v !== null) out[name] = v;
  }
  return { value: out as T };
}

export function checkHandshake(x: unknown): { value: StoredHandshake } | { problem: string } {
  return checkFields<StoredHandshake>(x, HANDSHAKE_FIELDS);
}

export function checkPageSummary(x: unknown): { value: PageSummary } | { problem: string } {
  const r = checkFields<PageSummary>(x, PAGE_FIELDS);
  if ('problem' in r) return r;
  // A summary spells "no handshake" as null (src/run); records stored before that left it out.
  return { value: { ...r.value, handshakeP50Ms: r.value.handshakeP50Ms ?? null, handshakeP90Ms: r.value.handshakeP90Ms ?? null } };
}

/** Parses a stored JSON value; undefined when it is not valid JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === undefined || v === null) return String(v);
  return Array.isArray(v) ? 'an array' : typeof v;
}
