import type { SrcsetCandidate } from './srcset';

/** A candidate with its effective pixel density, as a browser ranks them. */
interface Ranked {
  url: string;
  density: number;
}

/**
 * Picks the one image a browser fetches from a source set (HTML "select an image source"; the
 * final choice as Chromium makes it, `HTMLSrcsetParser`'s `SelectionLogic`):
 *
 * 1. `w` candidates get density `width / sourceSize`; no descriptor means `1x`;
 * 2. a fallback `src` counts as `1x` when no candidate is `1x` and none has a `w` descriptor;
 * 3. sorted by density, duplicates after the first dropped;
 * 4. the lowest density ≥ the device pixel ratio wins — unless the device ratio is above the
 *    geometric mean of that density and the next lower one (or the ratio is ≤ 1 and the lower one
 *    is below it), in which case the higher one wins; with none ≥ the ratio, the densest.
 *
 * @returns the URL as written, or `undefined` when there is nothing to fetch
 */
export function selectImageCandidate(candidates: readonly SrcsetCandidate[], sourceSize: number, dpr: number, src?: string): string | undefined {
  const ranked: Ranked[] = [];
  let hasWidth = false;
  for (const c of candidates) {
    if (c.width !== undefined) {
      hasWidth = true;
      ranked.push({ url: c.url, density: sourceSize > 0 ? c.width / sourceSize : Number.POSITIVE_INFINITY });
    } else {
      ranked.push({ url: c.url, density: c.density ?? 1 });
    }
  }
  if (src !== undefined && src.trim() !== '' && !hasWidth && !ranked.some((r) => r.density === 1)) ranked.push({ url: src, density: 1 });
  if (ranked.length === 0) return undefined;
  const sorted = stableSortByDensity(ranked);
  return sorted[selectionIndex(sorted.map((r) => r.density), dpr)]?.url;
}

/** Chromium's `SelectionLogic` over ascending densities. */
export function selectionIndex(densities: readonly number[], dpr: number): number {
  let i = 0;
  for (; i < densities.length - 1; i++) {
    const next = densities[i + 1] as number;
    if (next < dpr) continue;
    const current = densities[i] as number;
    const geometricMean = Math.sqrt(current * next);
    if ((dpr <= 1 && dpr > current) || dpr >= geometricMean) return i + 1;
    break;
  }
  return i;
}

function stableSortByDensity(list: Ranked[]): Ranked[] {
  const sorted = list.map((r, i) => ({ r, i })).sort((a, b) => a.r.density - b.r.density || a.i - b.i).map((x) => x.r);
  return sorted.filter((r, i) => i === 0 || (sorted[i - 1] as Ranked).density !== r.density);
}
