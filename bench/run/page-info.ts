import { pageBytes, requestCount, type BenchPage, type OriginPath } from '../corpus/bench-corpus';
import type { PageInfo } from './results-schema';

const key = (p: OriginPath): string => `${p.origin}${p.path}`;

/**
 * Discovery depth: the document is 1, whatever it names 2, whatever those name 3, … (a resource
 * whose referrer is not in the page counts as named by the document).
 */
export function dependencyDepth(page: BenchPage): number {
  const byKey = new Map(page.resources.map((r) => [key(r), r]));
  const memo = new Map<string, number>([[key(page.document), 1]]);
  const depth = (k: string, seen: Set<string>): number => {
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const r = byKey.get(k);
    if (r === undefined || seen.has(k)) return 1;
    seen.add(k);
    const d = depth(key(r.referencedFrom), seen) + 1;
    memo.set(k, d);
    return d;
  };
  return page.resources.reduce((max, r) => Math.max(max, depth(key(r), new Set())), 1);
}

export function pageInfo(page: BenchPage): PageInfo {
  return { requests: requestCount(page), bytes: pageBytes(page), origins: page.origins.length, dependencyDepth: dependencyDepth(page) };
}
