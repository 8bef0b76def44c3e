/**
 * Evaluated in the measured page (Chromium's and Firefox's runs alike): its first contentful paint
 * and its largest contentful paint — the last candidate's time, and what it was (an image's URL,
 * else the element's tag name), so a table's LCP says which paint it is — read 200 ms after the
 * load settled, from the buffered entries.
 */
export const PAINT_ENTRIES = `new Promise((resolve) => {
  let lcp = null;
  let lcpElement = null;
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        lcp = e.startTime;
        lcpElement = e.url || (e.element ? e.element.tagName.toLowerCase() : null);
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  } catch {}
  setTimeout(() => resolve({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null, lcp, lcpElement }), 200);
})`;

export interface PaintEntries {
  fcp: number | null;
  lcp: number | null;
  lcpElement: string | null;
}
