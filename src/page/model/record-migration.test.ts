// A record the previous version stored (redirects as `redirectedFrom` + `redirectStatuses` +
// `redirectHopBytes`, beside the header listener's hops) must read back as the record the
// reducers now build from the same webRequest events: same popup bytes, document status and HAR.
import { buildHar } from '../views/har';
import { documentResponse, pageBytes } from './page-bytes';
import type { PageRecord } from './page-record';
import { createPageState, navigationCommitted, requestCompleted, requestRedirected, requestStarted, restore, snapshot } from './page-reducer';
import { requestHeadersSent, responseHeadersReceived } from './request-headers';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 0);
const HOP1 = { statusLine: 'HTTP/1.1 301 Moved Permanently', headers: [{ name: 'Location', value: 'https://a.test/' }] };
const HOP2 = { statusLine: 'HTTP/1.1 302 Found', headers: [{ name: 'Location', value: '/home' }] };
const ACCEPT = [{ name: 'Accept', value: 'text/html' }];

/**
 * A document redirected twice (Firefox: each hop's `responseSize` given), through the reducers.
 * `headers`: whether the HAR's header listener heard the hops.
 */
function live(headers: boolean): PageRecord {
  const s = createPageState();
  const id = { requestId: 'd', tabId: 3 };
  requestStarted(s, { ...id, frameId: 0, method: 'GET', url: 'http://a.test/old', type: 'main_frame', timeStamp: T0 });
  if (headers) {
    requestHeadersSent(s, { ...id, timeStamp: T0 + 1, headers: ACCEPT });
    responseHeadersReceived(s, { ...id, timeStamp: T0 + 20, statusCode: 301, statusLine: HOP1.statusLine, headers: HOP1.headers });
  }
  requestRedirected(s, { ...id, timeStamp: T0 + 21, redirectUrl: 'https://a.test/', statusCode: 301, responseSize: 200 });
  if (headers) {
    requestHeadersSent(s, { ...id, timeStamp: T0 + 22, headers: ACCEPT });
    responseHeadersReceived(s, { ...id, timeStamp: T0 + 40, statusCode: 302, statusLine: HOP2.statusLine, headers: HOP2.headers });
  }
  requestRedirected(s, { ...id, timeStamp: T0 + 41, redirectUrl: 'https://a.test/home', statusCode: 302, responseSize: 180 });
  requestCompleted(s, { ...id, timeStamp: T0 + 90, statusCode: 200, ip: '127.0.0.1', responseSize: 5000 });
  navigationCommitted(s, { tabId: 3, frameId: 0, url: 'https://a.test/home', timeStamp: T0 + 91 });
  return s.pages.get(3) as PageRecord;
}

/** The same load as the previous version stored it, written out by hand from its reducers. */
function stored(headers: boolean): unknown {
  const doc: Record<string, unknown> = {
    requestId: 'd', url: 'https://a.test/home', method: 'GET', type: 'main_frame', frameId: 0, startedAt: T0,
    redirectedFrom: ['http://a.test/old', 'https://a.test/'], redirectStatuses: [301, 302], redirectHopBytes: 380,
    statusCode: 200, ip: '127.0.0.1', responseSize: 5000, endedAt: T0 + 90,
  };
  if (headers) {
    doc.redirects = [
      { url: 'http://a.test/old', statusCode: 301, startedAt: T0, endedAt: T0 + 20, redirectURL: 'https://a.test/', statusLine: HOP1.statusLine, responseHeaders: HOP1.headers, requestHeaders: ACCEPT },
      { url: 'https://a.test/', statusCode: 302, startedAt: T0 + 20, endedAt: T0 + 40, redirectURL: 'https://a.test/home', statusLine: HOP2.statusLine, responseHeaders: HOP2.headers, requestHeaders: ACCEPT },
    ];
  }
  return [{ pageId: `3:${T0}`, tabId: 3, url: 'https://a.test/home', startedAt: T0, committedAt: T0 + 91, requests: [doc], discoveries: [], timings: [] }];
}

function restoredPage(data: unknown): PageRecord {
  const page = restore(JSON.parse(JSON.stringify(data))).pages.get(3);
  if (!page) throw new Error('the stored record was dropped');
  return page;
}

describe('stored records of the previous version', () => {
  test.each([true, false])('read back as one RedirectHop[] (header listener heard the hops: %s)', (headers) => {
    const old = restoredPage(stored(headers));
    const doc = old.requests[0]!;
    expect(doc).not.toHaveProperty('redirectedFrom');
    expect(doc).not.toHaveProperty('redirectStatuses');
    expect(doc).not.toHaveProperty('redirectHopBytes');
    expect(doc.redirects?.map((h) => [h.url, h.statusCode, h.redirectURL])).toEqual([
      ['http://a.test/old', 301, 'https://a.test/'],
      ['https://a.test/', 302, 'https://a.test/home'],
    ]);
    // Only the sum was stored; the popup's figures are what the reducers give for the same load.
    const now = live(headers);
    expect(pageBytes(old)).toEqual(pageBytes(now));
    expect(pageBytes(old)).toMatchObject({ documentBytes: 5000, redirectBytes: 380, bytes: 5380, redirectsNotExposed: 0 });
    expect(documentResponse(old)).toEqual(documentResponse(now));
    expect(documentResponse(old)?.redirects).toEqual([{ url: 'http://a.test/old', status: 301 }, { url: 'https://a.test/', status: 302 }]);
  });

  test('with the header listener\'s hops, the HAR is the one the reducers now build', () => {
    const old = buildHar(restoredPage(stored(true)));
    expect(old).toEqual(buildHar(live(true)));
    expect(old.log.entries.map((e) => [e.request.url, e.response.status, e.response.redirectURL, e.time])).toEqual([
      ['http://a.test/old', 301, 'https://a.test/', 20],
      ['https://a.test/', 302, 'https://a.test/home', 20],
      // The final response from the last hop's end (40) to the request's end (90), not the whole 90.
      ['https://a.test/home', 200, '', 50],
    ]);
    expect(old.log.entries.map((e) => Date.parse(e.startedDateTime) - T0)).toEqual([0, 20, 40]);
  });

  test('without them, the hops keep their order and statuses; their times, never stored, are zero-length', () => {
    const hops = restoredPage(stored(false)).requests[0]?.redirects ?? [];
    expect(hops.map((h) => [h.startedAt - T0, h.endedAt - T0])).toEqual([[0, 0], [0, 0]]);
    const entries = buildHar(restoredPage(stored(false))).log.entries;
    expect(entries.map((e) => [e.request.url, e.response.redirectURL])).toEqual([
      ['http://a.test/old', 'https://a.test/'],
      ['https://a.test/', 'https://a.test/home'],
      ['https://a.test/home', ''],
    ]);
  });

  test('a current record reads back unchanged', () => {
    const state = createPageState();
    const page = live(true);
    state.pages.set(page.tabId, page);
    const json = JSON.parse(JSON.stringify(snapshot(state))) as unknown;
    expect(restoredPage(json)).toEqual(JSON.parse(JSON.stringify(page)));
  });
});
