/**
 * A page's dependency structure, as the lower-bound model needs it (bench/model/MODEL.md): every
 * request with its origin, size, discovery level and what must arrive before a client can know of
 * it. The bench corpus builds one from its manifest (bench/model/page-structure.ts).
 *
 * Levels: the document is 1; a resource named in markup or in a stylesheet is one level below the
 * resource naming it (document → stylesheet → CSS background image = 3); a script-inserted resource
 * is one level below the deepest render-blocking script (it exists only once the document and those
 * scripts have run).
 */

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

/** A structure from its requests (the document first, each after its parents): levels and totals. */
export function summarisePage(name: string, requests: readonly ModelRequest[]): PageStructure {
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
