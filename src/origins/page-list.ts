import { isPriorityClass, priorityRank, rankInClass, type PriorityClass } from '../core/priority';

/**
 * A page's learned request list: the sub-resources its last loads fetched, so that a returning
 * visit can ask for them at once (Padmanabhan & Mogul's GETLIST: "the client asks for the
 * resources it knows the page needs, from what it learned before"; Chandranmenon & Varghese's
 * Auto Inline Download: the inline list sent early). Kept inside the page's `PageOrigins` record,
 * so it expires, is forgotten and is stored with it. Pure: no I/O.
 */
export interface ListedResource {
  /** Absolute http(s) URL without fragment, as the scheduler requested it. */
  url: string;
  /** What discovery called it (`stylesheet`, `script`, `image`, `font`, …), as `RequestResult.resourceType`. */
  resourceType: string;
  /** The class the page's discovery gave it on the last load that fetched it. */
  priority: PriorityClass;
  /** Body bytes of that load's response. */
  bytes: number;
  /** Its place in discovery order on that load (0 = the first sub-resource found). */
  order: number;
  /**
   * Which of the last `LIST_WINDOW` loads fetched it: bit i is set when the i-th last load did (bit
   * 0 = the last). Its population count is how many of those loads had it.
   */
  seen: number;
}

/** One sub-resource a finished load fetched, as the page loader hands it to the memory. */
export type VisitResource = Omit<ListedResource, 'seen'>;

/** Loads a list remembers (the width of `seen`). */
export const LIST_WINDOW = 8;
/**
 * Resources one page's list keeps at most. The HTTP Archive's 90th-percentile page makes about 200
 * requests; what is past 256 is a page's tail, which parsing finds anyway.
 */
export const MAX_LIST_RESOURCES = 256;
/**
 * URL characters one list keeps at most: the record stays far below the store's value size (one
 * LMDB page is 4 KiB; a record of 64 KiB is read in one go at the start of a load) and below the
 * 1 MiB native-message limit if it is ever sent to the browser.
 */
export const MAX_LIST_URL_CHARS = 64 * 1024;
const MAX_URL_CHARS = 8192;
const MAX_TYPE_CHARS = 64;

/** Bits of `seen` set: how many of the last loads fetched it. */
export function seenCount(seen: number): number {
  let n = 0;
  for (let s = seen; s > 0; s >>>= 1) n += s & 1;
  return n;
}

/**
 * The list after one more load: every earlier entry's `seen` moves one load back (and is dropped
 * once no load of the window had it), what this load fetched is set on bit 0 and takes this
 * load's type, class, size and place. Then ordered (this load's entries in its discovery order,
 * then older ones by their old order) and cut to `MAX_LIST_RESOURCES` entries and
 * `MAX_LIST_URL_CHARS` characters of URLs, from the end: what the last load did not fetch goes
 * first, then what it found last.
 */
export function mergePageList(prev: readonly ListedResource[] | undefined, visit: readonly VisitResource[]): ListedResource[] {
  const mask = (1 << LIST_WINDOW) - 1;
  const byUrl = new Map<string, ListedResource>();
  for (const p of prev ?? []) {
    const seen = (p.seen << 1) & mask;
    if (seen !== 0) byUrl.set(p.url, { ...p, seen });
  }
  for (const v of visit) {
    if (v.url.length > MAX_URL_CHARS) continue;
    const had = byUrl.get(v.url);
    // A URL fetched twice in one load keeps its first place.
    if (had && (had.seen & 1) === 1) continue;
    byUrl.set(v.url, { url: v.url, resourceType: v.resourceType.slice(0, MAX_TYPE_CHARS), priority: v.priority, bytes: v.bytes, order: v.order, seen: ((had?.seen ?? 0) | 1) & mask });
  }
  const sorted = [...byUrl.values()].sort((a, b) => (b.seen & 1) - (a.seen & 1) || a.order - b.order);
  const out: ListedResource[] = [];
  let chars = 0;
  for (const r of sorted) {
    if (out.length >= MAX_LIST_RESOURCES || chars + r.url.length > MAX_LIST_URL_CHARS) break;
    chars += r.url.length;
    out.push(r);
  }
  return out;
}

export interface SpeculativeRules {
  /** Loads the page's list has recorded (`PageOrigins.loads`). */
  loads: number;
  /** Sum of learned sizes sent speculatively at most. */
  maxBytes: number;
  /** A URL refused before it is asked for (a bad port, a target the load may not reach). */
  refuse?: (url: string) => boolean;
}

/**
 * What a returning visit asks for before parsing finds it, in the order the scheduler ranks it
 * (class, then a stylesheet ahead of the rest of its class, then learned discovery order), so
 * stylesheets and synchronous scripts go ahead of images.
 *
 * Only what every one of the last two loads fetched once two are recorded (one load's list
 * is trusted until a second exists: a URL seen once, e.g. a rotating ad or a cache-busting query,
 * is not asked for again until it repeats); never the prefetch class (lazy content the page
 * fetches last or never); and no more than `maxBytes` of learned sizes, smallest-rank first (an
 * entry that would pass the cap is left to parsing, later smaller ones may still fit).
 */
export function speculativeList(list: readonly ListedResource[], rules: SpeculativeRules): ListedResource[] {
  const need = rules.loads >= 2 ? 0b11 : 0b1;
  const eligible = list.filter((r) => (r.seen & need) === need && r.priority !== 'prefetch' && !(rules.refuse?.(r.url) ?? false));
  const ranked = eligible.sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority) || rankInClass(a.resourceType) - rankInClass(b.resourceType) || a.order - b.order);
  const out: ListedResource[] = [];
  let bytes = 0;
  for (const r of ranked) {
    if (bytes + r.bytes > rules.maxBytes) continue;
    bytes += r.bytes;
    out.push(r);
  }
  return out;
}

type Checked<T> = { value: T } | { problem: string };

/**
 * A clean copy of a stored list, or its first problem. The list is all or nothing: a stored list
 * with one bad entry is corrupt or foreign, and a returning visit must not ask for URLs it cannot
 * trust, so the caller skips the whole record and counts it.
 */
export function checkPageList(x: unknown): Checked<ListedResource[]> {
  if (!Array.isArray(x) || x.length > MAX_LIST_RESOURCES) return { problem: `resources: expected an array of at most ${MAX_LIST_RESOURCES}, got ${Array.isArray(x) ? `${x.length} entries` : typeof x}` };
  const out: ListedResource[] = [];
  let chars = 0;
  for (const [i, e] of x.entries()) {
    const r = checkEntry(e);
    if (typeof r === 'string') return { problem: `resources[${i}].${r}` };
    chars += r.url.length;
    if (chars > MAX_LIST_URL_CHARS) return { problem: `resources: more than ${MAX_LIST_URL_CHARS} characters of URLs` };
    out.push(r);
  }
  return { value: out };
}

function checkEntry(e: unknown): ListedResource | string {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'entry: expected an object';
  const o = e as Record<string, unknown>;
  if (!isHttpUrl(o.url)) return 'url: expected an http(s) URL';
  if (typeof o.resourceType !== 'string' || o.resourceType.length > MAX_TYPE_CHARS) return `resourceType: expected a string of at most ${MAX_TYPE_CHARS} characters`;
  if (!isPriorityClass(o.priority)) return 'priority: expected a priority class';
  if (!isCount(o.bytes)) return 'bytes: expected an integer ≥ 0';
  if (!isCount(o.order)) return 'order: expected an integer ≥ 0';
  if (!Number.isSafeInteger(o.seen) || (o.seen as number) < 1 || (o.seen as number) >= 1 << LIST_WINDOW) return `seen: expected an integer in [1, ${(1 << LIST_WINDOW) - 1}]`;
  return { url: o.url, resourceType: o.resourceType, priority: o.priority, bytes: o.bytes as number, order: o.order as number, seen: o.seen as number };
}

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_URL_CHARS) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hash === '';
  } catch {
    return false;
  }
}
