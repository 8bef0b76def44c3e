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

/** The tab icon's size at DPR 1, CSS px. */
const FAVICON_PX = 16;

/**
 * The one favicon a desktop browser fetches (Chromium: the page's `rel=icon` links, later ones
 * first, stably sorted by how well their `sizes` fit a 16 px tab icon — an icon without `sizes`
 * or with `sizes=any` is assumed to fit, as `.ico` files hold several sizes — and only the best is
 * downloaded). With no icon link at all, `/favicon.ico` of the document's origin. An icon that is
 * not http(s) (`data:`) means nothing is fetched. Unsupported `type`s are skipped.
 *
 * @returns an absolute URL, or `undefined` when nothing is fetched
 */
export function pickFavicon(icons: readonly IconLink[], documentUrl: string, dpr = 1): string | undefined {
  const usable = icons.filter((i) => isSupportedImageType(i.type));
  if (usable.length === 0) {
    if (icons.length > 0) return undefined;
    const doc = new URL(documentUrl);
    return doc.protocol === 'http:' || doc.protocol === 'https:' ? new URL('/favicon.ico', doc).href : undefined;
  }
  const wanted = Math.round(FAVICON_PX * dpr);
  let best: IconLink | undefined;
  let bestScore = -1;
  for (const icon of usable) {
    const score = sizeScore(icon.sizes, wanted);
    // `>=`: of equally good icons the one declared last wins.
    if (score >= bestScore) {
      best = icon;
      bestScore = score;
    }
  }
  return best === undefined ? undefined : resolveHttpUrl(best.href, best.base);
}

/** 1 for a perfect fit; downscaling a larger icon beats upscaling a smaller one. */
function sizeScore(sizes: string | undefined, wanted: number): number {
  if (sizes === undefined || sizes.trim() === '') return 1;
  let best = 0;
  for (const token of sizes.toLowerCase().trim().split(/\s+/)) {
    if (token === 'any') return 1;
    const m = /^(\d+)x(\d+)$/.exec(token);
    if (!m) continue;
    const side = Math.max(Number(m[1]), Number(m[2]));
    const s = side === wanted ? 1 : side > wanted ? 0.5 + 0.5 * (wanted / side) : 0.2 * (side / wanted);
    best = Math.max(best, s);
  }
  return best;
}
