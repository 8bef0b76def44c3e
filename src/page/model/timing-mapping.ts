import type { NavigationTiming, TimingEntry } from './page-record';

/**
 * The fields of a `PerformanceResourceTiming` the extension keeps, as a plain object (the content
 * script passes the browser's entries straight in; tests pass literals).
 */
export type RawResourceTiming = Omit<TimingEntry, 'restricted'>;

/** The fields of a `PerformanceNavigationTiming` the extension keeps. */
export type RawNavigationTiming = NavigationTiming;

/**
 * Maps a resource entry, deciding whether it is restricted: a cross-origin response without
 * `Timing-Allow-Origin` has its detailed phases zeroed (Resource Timing §4.5, "timing allow check"),
 * which shows as `requestStart === 0 && responseStart === 0`. Same-origin entries are never
 * restricted, even from the cache (their zeros are real).
 *
 * @param documentOrigin the page's origin (`location.origin`)
 */
export function toTimingEntry(raw: RawResourceTiming, documentOrigin: string): TimingEntry {
  return {
    name: raw.name,
    initiatorType: raw.initiatorType,
    startTime: round(raw.startTime),
    domainLookupStart: round(raw.domainLookupStart),
    domainLookupEnd: round(raw.domainLookupEnd),
    connectStart: round(raw.connectStart),
    secureConnectionStart: round(raw.secureConnectionStart),
    connectEnd: round(raw.connectEnd),
    requestStart: round(raw.requestStart),
    responseStart: round(raw.responseStart),
    responseEnd: round(raw.responseEnd),
    transferSize: raw.transferSize,
    encodedBodySize: raw.encodedBodySize,
    nextHopProtocol: raw.nextHopProtocol,
    restricted: isRestricted(raw, documentOrigin),
  };
}

export function isRestricted(raw: Pick<RawResourceTiming, 'name' | 'requestStart' | 'responseStart'>, documentOrigin: string): boolean {
  return originOf(raw.name) !== documentOrigin && raw.requestStart === 0 && raw.responseStart === 0;
}

export function toNavigationTiming(raw: RawNavigationTiming): NavigationTiming {
  return {
    responseStart: round(raw.responseStart),
    domContentLoadedEventEnd: round(raw.domContentLoadedEventEnd),
    loadEventEnd: round(raw.loadEventEnd),
    nextHopProtocol: raw.nextHopProtocol,
  };
}

/** Only http(s) entries describe network fetches worth reporting (`data:`, `blob:` do not). */
export function isHttpEntry(name: string): boolean {
  return name.startsWith('http://') || name.startsWith('https://');
}

/** The origin of an absolute URL, or '' when it does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** Microsecond precision is more than any browser exposes (they coarsen to ≥ 5 µs). */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
