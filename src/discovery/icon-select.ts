import { isSupportedImageType } from './image-types';
import { resolveHttpUrl } from './resolve-url';

/** A `<link rel=icon>` as declared (`shortcut icon` included; `apple-touch-icon`, `mask-icon` are not tab icons). */
export interface IconLink {
  /** `href` as written. */
  href: string;
  /** Base URL in effect at the link. */
  base: string;
  sizes: string | undefined;
  type: string | undefined;
}

/** The tab icon's size at 1× and 2× (desktop browsers keep both), CSS px. */
const FAVICON_PX = 16;

/**
 * The one favicon a desktop browser fetches, as Chromium 156 picks it (checked in test/fidelity):
 * the page's `rel=icon` links, scored by their `sizes` against a 16 px tab icon at 1× and 2×
 * device pixels — a size of at least 2× fits best (the smallest such), a smaller one less;
 * no `sizes` or `sizes=any` counts as a perfect fit, as `.ico` files hold several sizes and SVG
 * scales — and of equal scores the one declared last. Chromium downloads further candidates only
 * while the ones it has do not fit: a real raster icon does, an SVG one does not (it goes on to the
 * next), so the list runs up to the first non-SVG candidate. With no icon link at all,
 * `/favicon.ico` of the document's origin. An icon that is not http(s) (`data:`) means nothing is
 * fetched. Unsupported `type`s are skipped.
 *
 * @returns absolute URLs in download order (empty when nothing is fetched, e.g. a `data:` icon)
 */
export function pickFavicons(icons: readonly IconLink[], documentUrl: string, dpr = 1): string[] {
  const usable = icons.filter((i) => isSupportedImageType(i.type));
  if (usable.length === 0) {
    if (icons.length > 0) return [];
    const doc = new URL(documentUrl);
    return doc.protocol === 'http:' || doc.protocol === 'https:' ? [new URL('/favicon.ico', doc).href] : [];
  }
  const large = Math.round(FAVICON_PX * 2 * dpr);
  // Later declarations first, then a stable sort by score: ties go to the one declared last.
  const ranked = usable
    .map((icon, i) => ({ icon, i, score: sizeScore(icon.sizes, large) }))
    .sort((a, b) => b.score - a.score || b.i - a.i);
  const out: string[] = [];
  for (const { icon } of ranked) {
    const url = resolveHttpUrl(icon.href, icon.base);
    if (url === undefined) return out; // a data: icon fits: nothing more is fetched
    out.push(url);
    if (!isSvg(icon, url)) break;
  }
  return out;
}

function isSvg(icon: IconLink, url: string): boolean {
  return (icon.type ?? '').toLowerCase().includes('svg') || /\.svgz?$/i.test(new URL(url).pathname);
}

/** 1 for a perfect fit: at least `large` device px (smaller excess is better); below it, worse. */
function sizeScore(sizes: string | undefined, large: number): number {
  if (sizes === undefined || sizes.trim() === '') return 1;
  let best = 0;
  for (const token of sizes.toLowerCase().trim().split(/\s+/)) {
    if (token === 'any') return 1;
    const m = /^(\d+)x(\d+)$/.exec(token);
    if (!m) continue;
    const side = Math.max(Number(m[1]), Number(m[2]));
    const s = side >= large ? 0.5 + 0.5 * (large / side) : 0.4 * (side / large);
    best = Math.max(best, s);
  }
  return best;
}
