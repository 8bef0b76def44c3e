/**
 * A bench corpus page's dependency structure (src/bound/page-structure.ts, MODEL.md): its manifest's
 * references, each a level below the resource naming it, and script-inserted resources below the
 * render-blocking scripts.
 */
import { summarisePage, type ModelRequest, type PageStructure } from '../../src/bound/page-structure';
import { getBenchPage, type BenchPage, type OriginPath } from '../corpus/bench-corpus';

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
  return summarisePage(page.name, requests);
}
