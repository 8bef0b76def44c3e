/**
 * What a load gives the browser-handshake bench: the page's Navigation and Resource Timing, its
 * `timeOrigin`, and how the page's clock relates to the wall clock the packet trace uses.
 */
import type { RawNavigationTiming, RawResourceTiming } from '../../src/page/model/timing-mapping';

export interface PageTiming {
  timeOrigin: number;
  /**
   * Wall clock (`Date.now()`) minus `timeOrigin + performance.now()`, in ms: a page time `t` happened
   * at `timeOrigin + t + clockOffsetMs` on the machine's real-time clock. Read at the instant
   * `Date.now()` ticks, so its millisecond steps do not blur it (median of several reads).
   */
  clockOffsetMs: number;
  nav: RawNavigationTiming;
  resources: RawResourceTiming[];
}

/**
 * The page-side expression. A string, not a function: the page's DOM types are not in this
 * tsconfig. Both browsers evaluate it in the loaded page.
 */
export const PAGE_TIMING = `(() => {
  const offsets = [];
  for (let i = 0; i < 7; i++) {
    const d0 = Date.now();
    let d = d0;
    while ((d = Date.now()) === d0);
    offsets.push(d - (performance.timeOrigin + performance.now()));
  }
  offsets.sort((a, b) => a - b);
  return {
    timeOrigin: performance.timeOrigin,
    clockOffsetMs: offsets[3],
    nav: performance.getEntriesByType('navigation')[0].toJSON(),
    resources: performance.getEntriesByType('resource').map((e) => e.toJSON()),
  };
})()`;
