import { originOf } from '../../core/url-parts';
import type { NavigationTiming, TimingEntry } from './page-record';

/**
 * The fields of a `PerformanceResourceTiming` the extension keeps, as a plain object (the content
 * script passes the browser's entries straight in; tests pass literals).
 */
export type RawResourceTiming = Omit<TimingEntry, 'restricted'>;

/** The fields of a `PerformanceNavigationTiming` the extension keeps. */
export type RawNavigationTiming = Omit<NavigationTiming, 'firstContentfulPaint'>;

/**
 * The Resource Timing buffer's size unless the page changes it (`setResourceTimingBufferSize`):
 * 250 in the spec, Chromium and Firefox. A buffer holding exactly this many when an observer that
 * started after `load` reads it has, in all likelihood, dropped what came after (PageRecord.timingsBufferFull).
 */
export const DEFAULT_RESOURCE_TIMING_BUFFER = 250;

const NAVIGATION_PHASES = ['fetchStart', 'domainLookupStart', 'domainLookupEnd', 'connectStart', 'secureConnectionStart', 'connectEnd', 'requestStart', 'responseEnd', 'domContentLoadedEventStart'] as const;

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
    ...(typeof raw.fetchStart === 'number' ? { fetchStart: round(raw.fetchStart) } : {}),
    ...(typeof raw.responseStatus === 'number' ? { responseStatus: raw.responseStatus } : {}),
    restricted: isRestricted(raw, documentOrigin),
  };
}

export function isRestricted(raw: Pick<RawResourceTiming, 'name' | 'requestStart' | 'responseStart'>, documentOrigin: string): boolean {
  return originOf(raw.name) !== documentOrigin && raw.requestStart === 0 && raw.responseStart === 0;
}

export function toNavigationTiming(raw: RawNavigationTiming): NavigationTiming {
  const nav: NavigationTiming = {
    responseStart: round(raw.responseStart),
    domContentLoadedEventEnd: round(raw.domContentLoadedEventEnd),
    loadEventEnd: round(raw.loadEventEnd),
    nextHopProtocol: raw.nextHopProtocol,
  };
  if (typeof raw.timeOrigin === 'number') nav.timeOrigin = Math.round(raw.timeOrigin);
  for (const key of NAVIGATION_PHASES) if (typeof raw[key] === 'number') nav[key] = round(raw[key]);
  if (typeof raw.transferSize === 'number') nav.transferSize = raw.transferSize;
  if (typeof raw.encodedBodySize === 'number') nav.encodedBodySize = raw.encodedBodySize;
  if (typeof raw.responseStatus === 'number') nav.responseStatus = raw.responseStatus;
  if (typeof raw.contentType === 'string') nav.contentType = raw.contentType;
  if (typeof raw.redirectCount === 'number') nav.redirectCount = raw.redirectCount;
  return nav;
}

/**
 * The document's response end, or undefined where the browser did not report it: Firefox ESR 153's
 * navigation entry gives `responseEnd` = `responseStart` while its resources' ends are real
 * (docs/extension.md, "Hints that never cost on a slow link"). A document with a body cannot
 * arrive in no time, so such an end is unknown, not the first byte — for the lean record's document
 * row and for the path's delivery rate (src/page/hints/path-sample.ts) alike.
 */
export function documentResponseEnd(nav: Pick<NavigationTiming, 'responseStart' | 'responseEnd' | 'encodedBodySize'>): number | undefined {
  if (nav.responseEnd === undefined || nav.responseEnd <= 0) return undefined;
  if (nav.responseEnd <= nav.responseStart && (nav.encodedBodySize ?? 0) > 0) return undefined;
  return nav.responseEnd;
}

/** Only http(s) entries describe network fetches worth reporting (`data:`, `blob:` do not). */
export function isHttpEntry(name: string): boolean {
  return name.startsWith('http://') || name.startsWith('https://');
}


/** Microsecond precision is more than any browser exposes (they coarsen to ≥ 5 µs). */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
