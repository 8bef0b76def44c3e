import type { DiscoveredItem } from '../../protocol/replies';
import type { PageRecord } from '../model/page-record';
import { isHttpUrl } from '../model/site-rules';
import type { LearnedEntry, LearnedResource } from './hint-types';
import { typeOf } from './observe-visit';

/** Visits of a page before the host may fetch it to fill in what its own timeline hides. */
export const FILL_IN_MIN_VISITS = 2;

/**
 * Whether the host may fetch `page` for the fill-in, judged conservatively: a page the user visited
 * at least FILL_IN_MIN_VISITS times whose document read no cookie of its own (`document.cookie`
 * empty, reported by the content script; unknown counts as cookies) and none of whose requests
 * webRequest saw carry a Cookie or Authorization header (Detailed capture). The host sends no
 * cookie, so a page that needs one would answer the host with another page; and a page the user
 * reached signed in is the user's business, not the host's. `HttpOnly` cookies are invisible to
 * both checks in lean Chromium (no `extraHeaders`): docs/extension.md says what that leaves.
 */
export function mayFillIn(page: PageRecord, pageVisits: number): boolean {
  if (pageVisits < FILL_IN_MIN_VISITS || !isHttpUrl(page.url) || page.loadAt === undefined) return false;
  if (page.documentCookies !== false) return false;
  return !page.requests.some((r) => r.credentialed === true);
}

/**
 * What the host's discovery adds to a page's learned visits: what only a style sheet names and no
 * visit of the page recorded — a cross-origin sheet's fonts and `@import`s, which Chromium gives no
 * Resource Timing entry — as late resources of unknown size, marked `host`, in the form the
 * browser's request takes (fonts CORS, with their `type`). CSS images only where the page's own
 * style scan did not run to its end (`styleScanned`): where it did, it reported every background of
 * a rendered element, and one it did not report is not fetched by the browser (an element with
 * `display: none`), so preloading it would cost a request.
 */
export function hostResources(items: readonly DiscoveredItem[], page: Pick<PageRecord, 'styleScanned'>, entry: LearnedEntry | undefined): LearnedResource[] {
  const known = new Set(entry?.visits.flatMap((v) => v.resources.map((r) => r.url)) ?? []);
  const out: LearnedResource[] = [];
  for (const item of items) {
    if (item.via !== 'css' || known.has(item.url) || !isHttpUrl(item.url)) continue;
    if (item.as !== 'font' && item.as !== 'style' && !(item.as === 'image' && !page.styleScanned)) continue;
    known.add(item.url);
    const type = typeOf(item.as, item.url);
    out.push({ url: item.url, as: item.as, ...(item.as === 'font' ? { crossorigin: 'anonymous' as const } : {}), ...(type ? { type } : {}), late: true, atMs: 0, inViewport: false, size: 0, host: true });
  }
  return out;
}

/**
 * Adds `found` to every kept visit of the page's entry: the host saw the page as it is now, which
 * each of those visits loaded and could not see whole; so what it names recurs as the page's own
 * resources do, and the next visit is hinted with it. Returns how many were added.
 */
export function mergeHostResources(entry: LearnedEntry, found: readonly LearnedResource[], resourcesPerVisit: number): number {
  for (const v of entry.visits) {
    const has = new Set(v.resources.map((r) => r.url));
    v.resources.push(...found.filter((r) => !has.has(r.url)).slice(0, Math.max(0, resourcesPerVisit - v.resources.length)));
  }
  return found.length;
}
