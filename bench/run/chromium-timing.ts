/**
 * Page-load numbers from a page's Resource Timing (all origins send Timing-Allow-Origin: *, so
 * cross-origin entries carry real times). Pure: it takes plain entry objects as
 * `performance.getEntriesByType(...)` returns them after `toJSON()`.
 */

export interface TimingEntry {
  name: string;
  startTime: number;
  responseStart: number;
  responseEnd: number;
  nextHopProtocol?: string;
}

export interface ChromiumTiming {
  /** Navigation start (0) → the latest responseEnd of the document and every resource. */
  totalMs: number;
  /**
   * Mean over the document and every resource of responseStart − startTime. startTime is when
   * the fetch was queued (after the browser discovered the URL), unlike getlist's TTFB, which
   * counts from discovery; so Chromium's figure omits any wait between discovery and queueing.
   */
  meanTtfbMs: number;
  /** Entries counted (document + resources). */
  requests: number;
  protocols: string[];
  /** URLs of the entries counted, navigation first. */
  urls: string[];
}

/** undefined when there is no navigation entry or it never finished. */
export function chromiumTiming(navigation: TimingEntry | undefined, resources: readonly TimingEntry[]): ChromiumTiming | undefined {
  if (navigation === undefined || !(navigation.responseEnd > 0)) return undefined;
  const all = [navigation, ...resources];
  const ends = all.map((e) => e.responseEnd).filter((x) => Number.isFinite(x));
  const ttfbs = all.map((e) => e.responseStart - e.startTime).filter((x) => Number.isFinite(x) && x >= 0);
  const protocols = [...new Set(all.map((e) => e.nextHopProtocol ?? '').filter((p) => p !== ''))].sort();
  return {
    totalMs: Math.round((Math.max(...ends) - navigation.startTime) * 1000) / 1000,
    meanTtfbMs: ttfbs.length === 0 ? Number.NaN : Math.round((ttfbs.reduce((a, b) => a + b, 0) / ttfbs.length) * 1000) / 1000,
    requests: all.length,
    protocols,
    urls: all.map((e) => e.name),
  };
}
