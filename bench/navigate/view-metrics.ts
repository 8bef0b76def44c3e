/**
 * Evaluated in a page the user has just arrived at, once it has loaded and settled: what the
 * navigation cost as the page's own timelines tell it. Times run from the navigation's start as the
 * user saw it: the click for a normal or prefetched navigation, the activation for a prerendered
 * page (`activationStart`; Navigation Timing level 2 and the prerendering spec), so a page the
 * browser had already rendered counts from the moment it was shown.
 *
 * - `lcpMs`: the last `largest-contentful-paint` entry (Chromium, and Firefox where it implements
 *   the entry); `heroEndMs`: the LCP image's response end from Resource Timing, the substitute
 *   stated for a browser without the entry.
 * - `fcpMs`, `domInteractiveMs`: the first contentful paint and the document's `domInteractive`,
 *   where the step's time went between its first byte and its LCP;
 * - `deliveryType`: `navigational-prefetch` when a speculation served the document (Chromium),
 *   `cache` from the HTTP cache, '' from the network; null where the browser has no such field.
 */
export const VIEW_METRICS = `new Promise((resolve) => {
  const nav = performance.getEntriesByType('navigation')[0] || {};
  const activation = nav.activationStart || 0;
  const since = (t) => (typeof t === 'number' && t > 0 ? Math.max(0, t - activation) : null);
  let lcp = null;
  let lcpElement = null;
  const supported = typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes || []).includes('largest-contentful-paint');
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        lcp = e.startTime;
        lcpElement = e.url || (e.element ? e.element.tagName.toLowerCase() : null);
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  } catch {}
  const hero = performance.getEntriesByType('resource').find((r) => /-hero\\.gif$/.test(r.name));
  setTimeout(() => resolve({
    url: location.href,
    lcpSupported: supported,
    lcpMs: lcp === null ? null : Math.max(0, lcp - activation),
    lcpElement,
    heroEndMs: hero ? since(hero.responseEnd) : null,
    ttfbMs: since(nav.responseStart),
    fcpMs: since((performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime),
    domInteractiveMs: since(nav.domInteractive),
    deliveryType: typeof nav.deliveryType === 'string' ? nav.deliveryType : null,
    activationStart: activation,
    transferSize: typeof nav.transferSize === 'number' ? nav.transferSize : null,
    navigationType: nav.type || null,
  }), 300);
})`;

export interface ViewMetrics {
  url: string;
  lcpSupported: boolean;
  lcpMs: number | null;
  lcpElement: string | null;
  heroEndMs: number | null;
  ttfbMs: number | null;
  /** Absent from results files written before they were read. */
  fcpMs?: number | null;
  domInteractiveMs?: number | null;
  deliveryType: string | null;
  /** > 0: the page was prerendered and activated by the click. */
  activationStart: number;
  transferSize: number | null;
  navigationType: string | null;
}
