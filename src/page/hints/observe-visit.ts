import type { Discovery, ObservedRequest, PageRecord, TimingEntry } from '../model/page-record';
import type { HintAs, LearnedOrigin, LearnedResource, Visit } from './hint-types';
import { withoutFragment } from '../model/site-rules';
import { pathSampleOf, UNKNOWN_SIZE_BYTES } from './path-sample';
import { originOf, pathOf } from '../../core/url-parts';

/**
 * What one page load teaches, read off its `PageRecord`: the top frame's successful GET
 * subresources in the form a preload must take to be matched, and the origins they came from.
 *
 * "Late" means found after the preload scanner would have: the Resource Timing initiator is `css`
 * (background images, `@import` — named only inside a style sheet), or the content script's style
 * scan found it as a CSS background (Chromium gives what a cross-origin sheet fetches no entry), a font the page does not
 * preload itself (initiator other than `link`), or the content script
 * saw the element inserted by script or after DOMContentLoaded and its request started after
 * DOMContentLoaded. A request merely starting after DOMContentLoaded is not enough: Chromium holds back parser-found images (its resource
 * scheduler), and hinting those measured slower on pages with nothing late (bench/hints/main.ts). A resource the load itself was hinted (so it started early) keeps the
 * lateness that got it hinted.
 */

/** webRequest `type` → preload `as`. Other types (xhr, fetch, media, ping…) are never preloaded. */
export const AS_BY_TYPE: Readonly<Record<string, HintAs>> = { font: 'font', stylesheet: 'style', image: 'image', imageset: 'image', script: 'script' };
const FONT_TYPES: Readonly<Record<string, string>> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf' };

export interface ObserveOptions {
  /** URLs the load was hinted to preload. */
  hinted?: ReadonlySet<string>;
  /** A font was among them: the load's paint may have been held for it, fetched or not (its paint is no baseline, paint-slack.ts). */
  fontHinted?: boolean;
  resourcesPerVisit: number;
  originsPerVisit: number;
}

export function observeVisit(page: PageRecord, o: ObserveOptions): Visit {
  const hinted = o.hinted ?? new Set<string>();
  const timings = new Map<string, TimingEntry>();
  for (const t of page.timings) if (!timings.has(t.name)) timings.set(t.name, t);
  const discoveries = new Map<string, Discovery>();
  for (const d of page.discoveries) if (!discoveries.has(d.url)) discoveries.set(d.url, d);
  const documentOrigin = originOf(page.url);

  const resources = new Map<string, LearnedResource>();
  const origins = new Map<string, LearnedOrigin>();
  for (const r of page.requests) {
    if (!usable(r)) continue;
    const atMs = Math.max(0, r.startedAt - page.startedAt);
    const origin = originOf(r.url);
    const as = AS_BY_TYPE[r.type];
    const crossorigin = as === 'font' ? 'anonymous' : undefined;
    const d = discoveries.get(r.url);
    const critical = blocksRendering(r.type, d) && page.domContentLoadedAt !== undefined && r.startedAt < page.domContentLoadedAt;
    const t = timings.get(r.url);
    if (origin && origin !== documentOrigin) addOrigin(origins, origin, crossorigin, atMs, critical, t);
    if (!as || resources.has(r.url)) continue;
    // Icons are fetched by the browser when it wants (headless Chromium sometimes never does):
    // a preload of one can be a request the page would not have made.
    if (d?.kind === 'icon' || /\/favicon\.ico$/i.test(pathOf(r.url))) continue;
    // A font is only ever found through CSS (or script) unless the page preloads it itself; Firefox
    // gives @font-face fetches the initiator `other`, not `css`.
    // The content script's `late` alone is not enough: when it starts after parsing (a fast
    // load), it sees every element as late. A script-inserted element is also requested after
    // DOMContentLoaded; a parser-found one the scanner fetched early is not.
    // Compared on one clock where the page gives both: its Resource Timing start against its own
    // DOMContentLoaded (Navigation Timing). webNavigation's DOMContentLoaded reaches the background
    // after the handlers ran, so an image a DOMContentLoaded handler inserts has a request (webRequest's
    // or rebuilt from Resource Timing) that starts *before* it, and would be learned early
    // (docs/extension.md, "What is learned").
    const dclStart = page.navigation?.domContentLoadedEventStart;
    const afterDcl = t && dclStart !== undefined && dclStart > 0 ? t.startTime >= dclStart : page.domContentLoadedAt !== undefined && r.startedAt >= page.domContentLoadedAt;
    // A CSS background named by a cross-origin style sheet has no Resource Timing entry at all in
    // Chromium (resources a no-cors cross-origin sheet fetches are not exposed: a CDN's backgrounds
    // named by an @import from another origin would never be learned late):
    // the style scan's discovery (tag `css`, read off the elements' computed style) says it was
    // found through CSS, however early its request started.
    const late = (as === 'font' ? t?.initiatorType !== 'link' : t?.initiatorType === 'css' || d?.tag === 'css' || (d?.late === true && afterDcl)) || hinted.has(r.url);
    const type = typeOf(as, r.url);
    resources.set(r.url, {
      url: r.url,
      as,
      ...(crossorigin ? { crossorigin } : {}),
      ...(type ? { type } : {}),
      late,
      atMs: Math.round(t?.startTime ?? atMs),
      inViewport: d?.inViewport === true,
      size: t ? t.encodedBodySize || t.transferSize : 0,
      ...(fromCache(t) ? { cached: true as const } : {}),
    });
  }
  if (page.capture === 'lean') learnUnrecorded(page, discoveries, resources, origins, documentOrigin);
  // Late ones first: they are what hints are for; then in request order.
  const kept = [...resources.values()].sort((a, b) => Number(b.late) - Number(a.late) || a.atMs - b.atMs).slice(0, o.resourcesPerVisit);
  const completeMs = completeOf(page);
  const path = pathSampleOf(page);
  const documentMs = page.navigation && page.navigation.responseStart > 0 ? Math.round(page.navigation.responseStart) : undefined;
  // A paint a preloaded font may have held is no baseline for the font rule (paint-slack.ts).
  const fcp = page.navigation?.firstContentfulPaint;
  const paintMs = o.fontHinted !== true && fcp !== undefined && fcp > 0 ? Math.round(fcp) : undefined;
  return {
    at: page.startedAt,
    url: page.url,
    hinted: hinted.size > 0,
    ...(completeMs !== undefined ? { completeMs } : {}),
    ...(path ? { path } : {}),
    ...(documentMs !== undefined ? { documentMs } : {}),
    ...(paintMs !== undefined ? { paintMs } : {}),
    resources: kept,
    origins: [...origins.values()].sort((a, b) => a.atMs - b.atMs).slice(0, o.originsPerVisit),
  };
}

/**
 * Lean capture only (records rebuilt from Resource Timing, lean-requests.ts): a CSS background the
 * style scan found (tag `css`, read off an element's computed style) with no record at all. Chromium
 * gives what a cross-origin style sheet fetches no Resource Timing entry, so in a lean record such a
 * background has no request though the browser fetched it, and would never be learned
 * (docs/extension.md, "What is learned"). It is learned as the Detailed build learns it from
 * webRequest: late, size unknown (0), its origin a no-cors one.
 *
 * Only when some style sheet of the page is cross-origin: with same-origin sheets only, every
 * background the browser fetched has an entry, so a missing one was never fetched (an element not
 * rendered), and a preload of it would be a request the page does not make. Detailed records are
 * never completed so: webRequest sees every fetch, and a discovery without a request was not one.
 */
function learnUnrecorded(page: PageRecord, discoveries: ReadonlyMap<string, Discovery>, resources: Map<string, LearnedResource>, origins: Map<string, LearnedOrigin>, documentOrigin: string): void {
  const hidingSheet = page.requests.some((r) => r.type === 'stylesheet' && originOf(r.url) !== documentOrigin);
  if (!hidingSheet) return;
  const recorded = new Set(page.requests.map((r) => withoutFragment(r.url)));
  for (const d of discoveries.values()) {
    const url = withoutFragment(d.url);
    if (d.tag !== 'css' || d.kind !== 'image' || recorded.has(url) || resources.has(url) || !/^https?:/.test(url)) continue;
    const origin = originOf(url);
    if (!origin) continue;
    if (origin !== documentOrigin) addOrigin(origins, origin, undefined, Math.max(0, Math.round(d.atMs)), false);
    resources.set(url, { url, as: 'image', late: true, atMs: Math.max(0, Math.round(d.atMs)), inViewport: d.inViewport, size: 0 });
  }
}

/**
 * A style sheet, or a script without `async`, `defer` or `type=module` (the content script classed
 * it `blocking`: src/discovery/classify-script.ts): what the first paint waits for. A script whose
 * element says async, deferred or module does not hold the paint, so its origin is not critical
 * and gets no preconnect on a bandwidth-bound path (docs/extension.md, "Hints that never cost on a
 * slow link"). A script the content script never saw (no discovery) counts as blocking, and so
 * does a blocking-looking one it reports inserted late (a content script that
 * started after a fast parse reports parser-found elements late too): without evidence, the
 * cautious side.
 */
function blocksRendering(type: string, d: Discovery | undefined): boolean {
  if (type === 'stylesheet') return true;
  if (type !== 'script') return false;
  return d === undefined || d.priority === 'blocking';
}

/** Navigation start → the last response end the page's Resource Timing shows (the document included). */
export function completeOf(page: PageRecord): number | undefined {
  const ends = page.timings.map((t) => t.responseEnd).filter((e) => e > 0);
  if (page.navigation) ends.push(page.navigation.responseStart);
  return ends.length === 0 ? undefined : Math.round(Math.max(...ends));
}

function usable(r: ObservedRequest): boolean {
  return r.frameId === 0 && r.type !== 'main_frame' && r.method === 'GET' && r.error === undefined && (r.statusCode === undefined || (r.statusCode >= 200 && r.statusCode < 300)) && /^https?:/.test(r.url);
}

/**
 * One request to `origin` joins what the visit knows of it: first asked, critical, and from its
 * Resource Timing entry its bytes (a response whose size is not exposed — no Timing-Allow-Origin,
 * no entry — counted as UNKNOWN_SIZE_BYTES, as a preload of it is) and its last response end
 * (exposed either way) — what origin-rank.ts ranks preconnects by — and, where its phases are
 * exposed, how long the first request the page asked of it waited between being asked for and
 * sent, less its own DNS and connection time: what the browser held it for with its socket open,
 * what origin-rank.ts leaves deferred origins out by.
 */
function addOrigin(origins: Map<string, LearnedOrigin>, origin: string, crossorigin: 'anonymous' | undefined, atMs: number, critical: boolean, t?: TimingEntry): void {
  const key = `${crossorigin ?? ''} ${origin}`;
  const seen = origins.get(key);
  const isCritical = critical || seen?.critical === true;
  const bytes = (seen?.bytes ?? 0) + (t && !t.restricted ? t.encodedBodySize || t.transferSize : UNKNOWN_SIZE_BYTES);
  const endMs = t && t.responseEnd > 0 ? Math.max(Math.round(t.responseEnd), seen?.endMs ?? 0) : seen?.endMs;
  const setupMs = t && t.domainLookupStart > 0 && t.connectEnd > t.domainLookupStart ? t.connectEnd - t.domainLookupStart : 0;
  const held = t && !t.restricted && t.requestStart > 0 ? Math.max(0, Math.round(t.requestStart - setupMs - t.startTime)) : undefined;
  const heldMs = seen === undefined || atMs < seen.atMs ? held : seen.heldMs;
  const cached = fromCache(t) && (seen === undefined || seen.cached === true);
  origins.set(key, {
    origin,
    ...(crossorigin ? { crossorigin } : {}),
    atMs: Math.min(atMs, seen?.atMs ?? atMs),
    ...(isCritical ? { critical: true as const } : {}),
    ...(bytes > 0 ? { bytes } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
    ...(heldMs !== undefined ? { heldMs } : {}),
    ...(cached ? { cached: true as const } : {}),
  });
}

/**
 * Served from the browser's HTTP cache: an exposed entry (same-origin, or Timing-Allow-Origin) with
 * a body and nothing transferred (Resource Timing's `transferSize`; a revalidation's 304 transfers
 * its headers). A restricted entry reads 0 either way and says nothing.
 */
function fromCache(t: TimingEntry | undefined): boolean {
  return t !== undefined && !t.restricted && t.transferSize === 0 && t.encodedBodySize > 0;
}

/** The `type` a preload of `url` as `as` carries: style sheets and fonts whose URL names their format. */
export function typeOf(as: HintAs, url: string): string | undefined {
  if (as === 'style') return 'text/css';
  if (as !== 'font') return undefined;
  const ext = /\.([a-z0-9]+)$/i.exec(pathOf(url))?.[1]?.toLowerCase() ?? '';
  return FONT_TYPES[ext];
}


