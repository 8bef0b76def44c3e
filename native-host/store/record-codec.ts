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

type Check = (v: unknown) => boolean;
const isDuration: Check = (v) => typeof v === 'number' && v >= 0 && v <= MAX_RECORDABLE_MS;
const isTimestamp: Check = (v) => typeof v === 'number' && v >= 0 && v <= MAX_KEY_TS;
const isText: Check = (v) => typeof v === 'string' && v.length > 0 && v.length <= MAX_FIELD_CHARS;
const isCount: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPort: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535;
const optional = (c: Check): Check => (v) => v === undefined || v === null || c(v);
const oneOf = (...xs: readonly string[]): Check => (v) => typeof v === 'string' && xs.includes(v);
const isBool: Check = (v) => typeof v === 'boolean';
const isFiniteNonNeg: Check = (v) => typeof v === 'number' && v >= 0 && v < Infinity;

const HANDSHAKE_FIELDS: Record<keyof StoredHandshake, [Check, string]> = {
  connectionId: [isCount, 'an integer ≥ 0'],
  origin: [isText, 'a non-empty string'],
  startedAt: [isTimestamp, `epoch ms in [0, ${MAX_KEY_TS}]`],
  dnsMs: [isDuration, 'a duration in ms ≥ 0'],
  tcpMs: [isDuration, 'a duration in ms ≥ 0'],
  tlsMs: [isDuration, 'a duration in ms ≥ 0'],
  totalMs: [isDuration, 'a duration in ms ≥ 0'],
  remoteAddress: [optional(isText), 'a string or nothing'],
  remotePort: [optional(isPort), 'a port number or nothing'],
  localPort: [optional(isPort), 'a port number or nothing'],
  protocol: [oneOf('h2', 'http/1.1'), '"h2" or "http/1.1"'],
  tlsVersion: [optional(isText), 'a string or nothing'],
  resumed: [isBool, 'a boolean'],
  loopDelayMs: [optional(isDuration), 'a duration in ms ≥ 0 or nothing'],
  source: [oneOf('measure', 'replay', 'cli'), '"measure", "replay" or "cli"'],
  pageUrl: [optional(isText), 'a string or nothing'],
};

const PAGE_FIELDS: Record<keyof PageSummary, [Check, string]> = {
  pageId: [isText, 'a non-empty string'],
  url: [isText, 'a non-empty string'],
  strategy: [isText, 'a non-empty string'],
  mode: [oneOf('measure', 'replay'), '"measure" or "replay"'],
  at: [isTimestamp, `epoch ms in [0, ${MAX_KEY_TS}]`],
  totalMs: [isFiniteNonNeg, 'a number ≥ 0'],
  meanTtfbMs: [isFiniteNonNeg, 'a number ≥ 0'],
  connectionsOpened: [isCount, 'an integer ≥ 0'],
  requestsPerConnection: [isFiniteNonNeg, 'a number ≥ 0'],
  requests: [isCount, 'an integer ≥ 0'],
  bytes: [isCount, 'an integer ≥ 0'],
  errors: [isCount, 'an integer ≥ 0'],
  handshakeP50Ms: [optional(isFiniteNonNeg), 'a number ≥ 0 or nothing'],
  handshakeP90Ms: [optional(isFiniteNonNeg), 'a number ≥ 0 or nothing'],
};

/**
 * A clean copy of `x` holding only the known fields (absent optionals stay absent; JSON `null`
 * reads as absent), or a description of the first bad field.
 */
function checkFields<T>(x: unknown, fields: Record<string, [Check, string]>): { value: T } | { problem: string } {
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
