import type { Hint, HintLimits, HintList, LearnedEntry, LearnedResource, PathVerdict, PreconnectHint, PreloadHint } from './hint-types';
import { rankedOrigins } from './origin-rank';
import { fontsBeforePaint, measuredPaint } from './paint-slack';
import { pathVerdict, UNKNOWN_SIZE_BYTES } from './path-sample';
import { pageKey, templateKey } from './site-template';
import { originOf } from '../../core/url-parts';

/**
 * The hints a navigation to `url` gets from what was learned. Only what recurs is hinted: an
 * item must appear in at least `minRecurrence` of an entry's kept visits (Auto Inline Download
 * sends the inline list a page always needs; one visit's accident is not a list). Preloads are
 * limited to late-found fonts, style sheets and images — what the preload scanner cannot find —
 * in the exact form the consuming request takes; scripts are never preloaded (a classic/module
 * or credentials mismatch would fetch them twice). Ranking: fonts, style sheets, images in the
 * first viewport (largest first), then other images in the order the page asked for them.
 * Preconnects: the origins a warm connection saves most (origin-rank.ts). What the latest visit that
 * saw it got from the browser's HTTP cache is not hinted, nor an origin that only the cache served:
 * the cache answers as soon as the page asks, and a preload or a connection then only adds work to
 * the page's first frames (bench/README.md, "Hints for what the cache serves"); once it crosses the
 * network again (evicted, expired, the cache off), the next visit is hinted.
 *
 * Where visits measured the path (path-sample.ts; the page's own visits judge, else its
 * template's), a preload the first paint does not wait for may only take the bytes the link would
 * carry idle before first paint (`budgetBytes`), in rank order, a resource of unknown size counted
 * as UNKNOWN_SIZE_BYTES; what the paint waits for — late style sheets (`@import`, a late `<link>`,
 * render-blocking themselves) and the one LCP image candidate (the largest late image in the first
 * viewport) — is always preloaded. On a bandwidth-bound path (no idle bytes) preconnects go only
 * to origins that served style sheets or parser-blocking scripts before DOMContentLoaded (a connection opened
 * early to an image origin lets its bytes in sooner, ahead of the render-blocking ones); Firefox
 * gets no hint at all there (`boundPathHints: 'none'`, FIREFOX_HINT_LIMITS). Fonts are dropped there: what the extension sees cannot
 * tell a font the first viewport uses, nor `font-display` — with `swap` (the pages measured) text
 * paints in a fallback and the font is not on the paint's path. Everything else is dropped, not
 * sent at low priority: origins are separate connections on one link, so no stream priority
 * keeps a low preload out of a render-blocking sheet's way. At most `maxFontPreloads` fonts on any
 * path; in Chromium, which holds the first paint for a font preloaded before the document has a
 * body, either each font's `<link>` waits for the body (`fontPreloads: 'after-body'`) or, in a
 * `Link` header, only the fonts earlier visits say arrive before the page paints are preloaded
 * (`before-paint`, paint-slack.ts).
 */
export function hintsFor(entries: ReadonlyMap<string, LearnedEntry>, url: string, limits: HintLimits): HintList {
  const keys = [pageKey(url), templateKey(url)].filter((k, i, all): k is string => k !== undefined && all.indexOf(k) === i);
  const used = keys.map((k) => entries.get(k)).filter((e): e is LearnedEntry => e !== undefined && e.visits.length >= limits.minRecurrence);
  const documentOrigin = originOf(url);
  const preloads: PreloadHint[] = [];
  const preconnects: PreconnectHint[] = [];
  const seenPreload = new Set<string>();
  const seenPreconnect = new Set<string>();
  // A URL fetched twice when hinted under any of the keys is never hinted again.
  const blocked = new Set(used.flatMap((e) => e.blocked));
  const path = used.map((e) => pathVerdict(e.visits)).find((v): v is PathVerdict => v !== undefined);
  if (path?.bandwidthBound && limits.boundPathHints === 'none') return { url, keys: used.map((e) => e.key), preconnects, preloads, path };
  // Each key's recurring late resources, in preload rank order: worked out once.
  const ranked = new Map(used.map((e) => [e, rankResources(recurring(e, limits.minRecurrence))]));
  const lcpCandidate = path ? largestViewportImage([...ranked.values()].flat()) : undefined;
  const paintNeeds = (r: LearnedResource) => r.as === 'style' || r.url === lcpCandidate;
  // Chromium: only the fonts earlier visits say arrive before the page paints (paint-slack.ts),
  // judged by the first key whose visits measured it, as the path verdict is.
  const fontsOk = limits.fontPreloads === 'before-paint' ? beforePaint(ranked, blocked, limits, url) : undefined;
  // Bytes the other preloads may take: what the link carries in the idle time before first paint.
  let budget = path ? path.budgetBytes : Infinity;
  let fonts = 0;
  for (const entry of used) {
    for (const r of ranked.get(entry) ?? []) {
      if (preloads.length >= limits.maxPreloads || blocked.has(r.url) || seenPreload.has(r.url) || r.url === url || r.cached) continue;
      if (r.as === 'font' && (fonts >= limits.maxFontPreloads || (fontsOk !== undefined && !fontsOk.has(r.url)))) continue;
      if (!paintNeeds(r)) {
        const bytes = r.size > 0 ? r.size : UNKNOWN_SIZE_BYTES;
        if (bytes > budget) continue;
        budget -= bytes;
      }
      seenPreload.add(r.url);
      if (r.as === 'font') fonts++;
      preloads.push(toPreload(r, limits));
    }
    for (const o of rankedOrigins(entry, limits.minRecurrence)) {
      const id = `${o.crossorigin ?? ''} ${o.origin}`;
      if (preconnects.length >= limits.maxPreconnects || o.origin === documentOrigin || seenPreconnect.has(id) || o.cached) continue;
      if (path?.bandwidthBound && !o.critical) continue;
      seenPreconnect.add(id);
      preconnects.push({ rel: 'preconnect', href: o.origin, ...(o.crossorigin ? { crossorigin: o.crossorigin } : {}) });
    }
  }
  return { url, keys: used.map((e) => e.key), preconnects, preloads, ...(path ? { path } : {}) };
}

/** The late fonts, in the order they would be preloaded, that arrive before the first paint of the judging key's visits. */
function beforePaint(ranked: ReadonlyMap<LearnedEntry, readonly LearnedResource[]>, blocked: ReadonlySet<string>, limits: HintLimits, url: string): Set<string> {
  const judge = [...ranked.keys()].find((e) => e.visits.some(measuredPaint));
  if (!judge) return new Set();
  const fonts = (ranked.get(judge) ?? []).filter((r) => r.as === 'font' && !blocked.has(r.url) && r.url !== url);
  return fontsBeforePaint(judge.visits, fonts.slice(0, limits.maxFontPreloads), url);
}

/** The LCP image candidate: the largest late image seen in the first viewport. */
function largestViewportImage(resources: readonly LearnedResource[]): string | undefined {
  let best: LearnedResource | undefined;
  for (const r of resources) if (r.as === 'image' && r.inViewport && (!best || r.size > best.size)) best = r;
  return best?.url;
}

/** The hints as one `Link` header value (RFC 8288), preconnects first; a preload meant for after the body is not one of them. */
export function linkHeaderValue(list: Pick<HintList, 'preconnects' | 'preloads'>): string {
  const links = [...list.preconnects, ...list.preloads.filter((p) => !p.afterBody)].map((h) => {
    const params = [`rel=${h.rel}`];
    if (h.rel === 'preload') {
      params.push(`as=${h.as}`);
      if (h.type) params.push(`type="${h.type}"`);
      if (h.fetchpriority) params.push(`fetchpriority=${h.fetchpriority}`);
    }
    if (h.crossorigin) params.push('crossorigin=anonymous');
    return `<${h.href.replace(/[<>\s]/g, encodeURIComponent)}>; ${params.join('; ')}`;
  });
  return links.join(', ');
}

/** The entry's late, preloadable resources seen in at least `min` visits, with their latest form. */
function recurring(entry: LearnedEntry, min: number): LearnedResource[] {
  const counts = new Map<string, { r: LearnedResource; n: number; late: number }>();
  for (const v of entry.visits) {
    const once = new Set<string>();
    for (const r of v.resources) {
      // Identity is what a preload must match: URL, destination and CORS mode.
      const id = `${r.as} ${r.crossorigin ?? ''} ${r.url}`;
      if (once.has(id)) continue;
      once.add(id);
      const c = counts.get(id);
      counts.set(id, { r, n: (c?.n ?? 0) + 1, late: (c?.late ?? 0) + Number(r.late) });
    }
  }
  return [...counts.values()].filter((c) => c.n >= min && c.late >= min && c.r.as !== 'script').map((c) => c.r);
}

function rankResources(resources: LearnedResource[]): LearnedResource[] {
  const rank = (r: LearnedResource) => (r.as === 'font' ? 0 : r.as === 'style' ? 1 : r.inViewport ? 2 : 3);
  return [...resources].sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? b.size - a.size : a.atMs - b.atMs));
}

function toPreload(r: LearnedResource, limits: HintLimits): PreloadHint {
  return {
    rel: 'preload',
    href: r.url,
    as: r.as,
    ...(r.crossorigin ? { crossorigin: r.crossorigin } : {}),
    ...(r.type ? { type: r.type } : {}),
    ...(r.as === 'image' && !r.inViewport ? { fetchpriority: 'low' as const } : {}),
    ...(r.as === 'font' && limits.fontPreloads === 'after-body' ? { afterBody: true as const } : {}),
  };
}

/** The list with the user's applied hints added, after the learned ones, each href once. */
export function withAppliedHints(list: HintList, applied: readonly Hint[]): HintList {
  const has = new Set([...list.preconnects, ...list.preloads].map((h) => `${h.rel} ${h.href}`));
  const fresh = applied.filter((h) => !has.has(`${h.rel} ${h.href}`));
  return {
    ...list,
    preconnects: [...list.preconnects, ...fresh.filter((h): h is PreconnectHint => h.rel === 'preconnect')],
    preloads: [...list.preloads, ...fresh.filter((h): h is PreloadHint => h.rel === 'preload')],
  };
}
