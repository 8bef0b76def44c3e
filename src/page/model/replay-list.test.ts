import type { Discovery, ObservedRequest, PageRecord } from './page-record';
import { buildReplayList, unrequestedDiscoveries } from './replay-list';

const T0 = 1_700_000_000_000;
const page = (over: Partial<PageRecord> = {}): PageRecord => ({ pageId: '1:1', tabId: 1, url: 'https://a.test/page#top', startedAt: T0, requests: [], discoveries: [], timings: [], ...over });
const disc = (url: string, priority: Discovery['priority'], atMs: number, over: Partial<Discovery> = {}): Discovery => ({ url, kind: 'other', priority, atMs, inViewport: false, tag: 'x', late: false, ...over });
const req = (url: string, type: string, at: number, over: Partial<ObservedRequest> = {}): ObservedRequest => ({ requestId: url, url, method: 'GET', type, frameId: 0, startedAt: T0 + at, ...over });

describe('buildReplayList: what the browser requested, in the order it found it', () => {
  const p = page({
    discoveries: [
      disc('https://a.test/img.png', 'image', 5, { inViewport: true }),
      disc('https://a.test/a.css', 'blocking', 20),
      disc('https://a.test/srcset-2x.png', 'image', 6), // a claim the browser never acted on
      disc('https://a.test/late.js#x', 'script', 40),
    ],
    requests: [
      req('https://a.test/page', 'main_frame', 0),
      req('https://a.test/a.css', 'stylesheet', 22),
      req('https://a.test/img.png', 'image', 30),
      req('https://a.test/late.js', 'script', 41),
      req('https://a.test/bg.png', 'image', 35), // found by the browser only (CSS)
      req('https://a.test/in-frame.png', 'image', 36, { frameId: 3 }),
    ],
  });

  it('lists requested URLs only, by discovery time, with the discovery\'s class', () => {
    expect(buildReplayList(p).map((i) => [i.url, i.priority, i.discoveredAt])).toEqual([
      ['https://a.test/page', 'document', 0],
      ['https://a.test/img.png', 'visible-image', 5],
      ['https://a.test/a.css', 'blocking', 20],
      ['https://a.test/bg.png', 'image', 35],
      ['https://a.test/late.js', 'script', 40],
    ]);
  });

  it('keeps the claims nobody requested aside, for the popup', () => {
    expect(unrequestedDiscoveries(p).map((d) => d.url)).toEqual(['https://a.test/srcset-2x.png']);
  });

  it('a request reported with a frame id other than 0 is the top frame\'s when the top document\'s own timeline holds its URL (Chromium\'s first sub-resources of a new document), not otherwise', () => {
    const timing = (name: string) => ({ name, initiatorType: 'link', startTime: 22, domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, responseEnd: 30, transferSize: 0, encodedBodySize: 0, nextHopProtocol: '', restricted: true });
    const q = page({
      requests: [req('https://a.test/page', 'main_frame', 0), req('https://a.test/a.css', 'stylesheet', 22, { frameId: 8 }), req('https://a.test/in-frame.png', 'image', 36, { frameId: 3 })],
      timings: [timing('https://a.test/a.css')],
    });
    expect(buildReplayList(q).map((i) => i.url)).toEqual(['https://a.test/page', 'https://a.test/a.css']);
  });

  it('caps the list, keeping the earliest found', () => {
    expect(buildReplayList(p, { maxRequests: 2 }).map((i) => i.url)).toEqual(['https://a.test/page', 'https://a.test/img.png']);
  });
});
