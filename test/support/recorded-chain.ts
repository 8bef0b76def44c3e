import type { NavigationTiming, PageRecord, TimingEntry } from '../../src/page/model/page-record';

/**
 * Constructed loads on a 50 ms path with no rate cap (every response below the size a rate is read
 * from), so each bound is worked by hand: 1 RTT per request, 1 RTT per new connection.
 */
export const RTT = 50;
export const DOC = 'http://a.test/index.html';

export function nav(over: Partial<NavigationTiming> = {}): NavigationTiming {
  // Connection 1–51, request 51, first byte 101 (one round trip), last byte 102.
  return {
    timeOrigin: 0, fetchStart: 1, domainLookupStart: 1, connectStart: 1, connectEnd: 51, requestStart: 51,
    responseStart: 101, responseEnd: 102, domContentLoadedEventEnd: 220, loadEventEnd: 400,
    nextHopProtocol: 'http/1.1', transferSize: 1300, encodedBodySize: 1000, ...over,
  };
}

/** A response sent at `sent` on a connection already up, its first byte one RTT later. */
export function entry(url: string, initiatorType: string, sent: number, over: Partial<TimingEntry> = {}): TimingEntry {
  return {
    name: url, initiatorType, startTime: sent, domainLookupStart: sent, domainLookupEnd: sent, connectStart: sent,
    secureConnectionStart: 0, connectEnd: sent, requestStart: sent, responseStart: sent + RTT, responseEnd: sent + RTT + 1,
    transferSize: 800, encodedBodySize: 500, nextHopProtocol: 'http/1.1', restricted: false, ...over,
  };
}

export function record(timings: TimingEntry[], over: Partial<PageRecord> = {}): PageRecord {
  return { pageId: '1:0', tabId: 1, url: DOC, startedAt: 0, requests: [], discoveries: [], timings, navigation: nav(), capture: 'lean', ...over };
}

/** document → a.css (markup) → b.css (@import) → font (@font-face in b.css), and an image from the markup. */
export const CHAIN = [
  entry('http://a.test/a.css', 'link', 103),
  entry('http://a.test/hero.png', 'img', 104),
  entry('http://a.test/b.css', 'css', 156),
  entry('http://a.test/f.woff2', 'css', 300),
];
