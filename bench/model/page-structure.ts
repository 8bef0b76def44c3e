/**
 * A page's dependency structure, as the lower-bound model needs it (see MODEL.md): every request
 * with its origin, size, discovery level and what must arrive before a client can know of it.
 *
 * Levels: the document is 1; a resource named in markup or in a stylesheet is one level below the
 * resource naming it (document → stylesheet → CSS background image = 3); a script-inserted resource
 * is one level below the deepest render-blocking script (it exists only once the document and those
 * scripts have run).
 */
import { getBenchPage, type BenchPage, type OriginPath } from '../corpus/bench-corpus';

/**
 * When a client can first know of a request:
 * - `first-byte`: as soon as the first byte of each parent arrives (a streaming parser may find
 *   the reference at the very start of the parent's body);
 * - `complete`: only once every parent has arrived in full (script-inserted resources: the inline
 *   script runs at DOMContentLoaded, after the document and the render-blocking scripts).
 */
export type DiscoveryRule = 'first-byte' | 'complete';

export interface ModelRequest {
  /** `origin` + `path`, unique within the page. */
  readonly key: string;
  readonly origin: string;
  readonly size: number;
  /** 1 for the document. */
  readonly level: number;
  /** Indexes into {@link PageStructure.requests} of the requests this one waits on; [] for the document. */
  readonly parents: readonly number[];
  readonly discovery: DiscoveryRule;
}

export interface LevelSummary {
  readonly level: number;
  readonly requests: number;
  readonly bytes: number;
  /** Origins with a request at this level, and those first seen at this level. */
  readonly origins: readonly string[];
  readonly newOrigins: readonly string[];
  readonly largestRequest: number;
}

export interface PageStructure {
  readonly name: string;
  /** The document first; every request after all of its parents. */
  readonly requests: readonly ModelRequest[];
  readonly levels: readonly LevelSummary[];
  readonly totalBytes: number;
  readonly origins: number;
  /** The deepest level (1 = the document alone). */
  readonly depth: number;
}

const keyOf = (p: OriginPath): string => `${p.origin}${p.path}`;

export interface StructureOptions {
  /**
   * Keep script-inserted resources. A client with no script engine (every `getlist load` strategy)
   * never requests them, so its bound is that of the page without them. @default true
   */
  scriptInserted?: boolean;
}

/** {@link pageStructureOf} for a corpus page by name (throws the corpus's `E_BENCH_UNKNOWN_PAGE`). */
export function pageStructure(name: string, options: StructureOptions = {}): PageStructure {
  return pageStructureOf(getBenchPage(name), options);
}

export function pageStructureOf(page: BenchPage, options: StructureOptions = {}): PageStructure {
  const docKey = keyOf(page.document);
  const requests: ModelRequest[] = [{ key: docKey, origin: page.document.origin, size: page.document.size, level: 1, parents: [], discovery: 'first-byte' }];
  const index = new Map<string, number>([[docKey, 0]]);
  const blockingScripts = page.resources.filter((r) => r.kind === 'script' && r.renderBlocking && r.discoveredBy !== 'script');
  // Markup and stylesheet references first, in passes, so a resource follows the one naming it.
  let pending = page.resources.filter((r) => r.discoveredBy !== 'script');
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (const r of pending) {
      const parent = index.get(keyOf(r.referencedFrom));
      if (parent === undefined) {
        next.push(r);
        continue;
      }
      index.set(keyOf(r), requests.length);
      requests.push({ key: keyOf(r), origin: r.origin, size: r.size, level: (requests[parent] as ModelRequest).level + 1, parents: [parent], discovery: 'first-byte' });
    }
    if (next.length === pending.length) throw new RangeError(`page ${page.name}: ${next.map(keyOf).join(', ')} name a referrer that is not in the page`);
    pending = next;
  }
  const dclParents = [0, ...blockingScripts.map((s) => index.get(keyOf(s)) as number)];
  const dclLevel = Math.max(...dclParents.map((i) => (requests[i] as ModelRequest).level)) + 1;
  const inserted = options.scriptInserted === false ? [] : page.resources.filter((x) => x.discoveredBy === 'script');
  for (const r of inserted) {
    requests.push({ key: keyOf(r), origin: r.origin, size: r.size, level: dclLevel, parents: dclParents, discovery: 'complete' });
  }
  return summarise(page.name, requests);
}

function summarise(name: string, requests: readonly ModelRequest[]): PageStructure {
  const depth = Math.max(...requests.map((r) => r.level));
  const seen = new Set<string>();
  const levels: LevelSummary[] = [];
  for (let level = 1; level <= depth; level++) {
    const at = requests.filter((r) => r.level === level);
    const origins = [...new Set(at.map((r) => r.origin))];
    const newOrigins = origins.filter((o) => !seen.has(o));
    for (const o of origins) seen.add(o);
    levels.push({
      level, requests: at.length, bytes: at.reduce((s, r) => s + r.size, 0), origins, newOrigins,
      largestRequest: Math.max(0, ...at.map((r) => r.size)),
    });
  }
  return { name, requests, levels, totalBytes: requests.reduce((s, r) => s + r.size, 0), origins: seen.size, depth };
}
