import type { Discovery } from './page-record';
import { pageBytes } from './page-bytes';
import * as r from './page-reducer';
import { requestHeadersSent, responseHeadersReceived } from './request-headers';

const nav = (tabId: number, url: string, timeStamp: number, frameId = 0) => ({ tabId, frameId, url, timeStamp });
const request = (tabId: number, requestId: string, url: string, type = 'image', timeStamp = 10, frameId = 0) => ({ tabId, requestId, url, type, timeStamp, frameId, method: 'GET' });

function loadPage(s: r.PageState, tabId: number, url: string, t: number) {
  r.navigationStarted(s, nav(tabId, url, t));
  r.requestStarted(s, request(tabId, `doc-${t}`, url, 'main_frame', t + 1));
  r.navigationCommitted(s, nav(tabId, url, t + 2));
}

describe('page reducer', () => {
  test("a report from a document that loaded before the record's commit (the tab's previous page, at pagehide) is dropped", () => {
    const s = r.createPageState();
    r.documentCommitted(s, { tabId: 1, frameId: 0, url: 'https://a.test/next', timeStamp: 5000 });
    const item = { url: 'https://a.test/old.png', kind: 'image' as const, priority: 'image' as const, atMs: 10, inViewport: false, tag: 'img', late: true };
    expect(r.discoveriesReported(s, 1, 'https://a.test/prev', [item], 4000)).toBeUndefined();
    expect(r.timingsReported(s, 1, 'https://a.test/prev', [], undefined, undefined, 4000)).toBeUndefined();
    expect(r.discoveriesReported(s, 1, 'https://a.test/next', [item], 5200)?.discoveries).toHaveLength(1);
    // A report that does not say when its document loaded (an older content script) is taken as before.
    expect(r.timingsReported(s, 1, 'https://a.test/next', [])).toBeDefined();
  });

  test('a top-level navigation starts a record; commit, DOMContentLoaded and load fill it; sub-frame navigations do not', () => {
    const s = r.createPageState();
    const page = r.navigationStarted(s, nav(7, 'https://a.test/', 1000.6));
    expect(page?.pageId).toBe('7:1000');
    expect(r.navigationStarted(s, nav(7, 'https://frame.test/', 1001, 3))).toBeUndefined();
    r.navigationCommitted(s, nav(7, 'https://a.test/home', 1100));
    r.domContentLoaded(s, nav(7, '', 1200));
    r.navigationCompleted(s, nav(7, '', 1300));
    expect(s.pages.get(7)).toMatchObject({ url: 'https://a.test/home', committedAt: 1100, domContentLoadedAt: 1200, loadAt: 1300 });
  });

  test('requests attach to the current record with their frame; redirects keep the chain; responses and errors fill the entry', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    r.requestStarted(s, request(1, '9', 'http://a.test/i.png'));
    r.requestRedirected(s, { tabId: 1, requestId: '9', redirectUrl: 'https://a.test/i.png', timeStamp: 11, statusCode: 301 });
    r.requestStarted(s, request(1, '9', 'https://a.test/i.png')); // the redirect target repeats onBeforeRequest
    r.responseStarted(s, { tabId: 1, requestId: '9', timeStamp: 12, statusCode: 200, ip: '10.0.0.1', fromCache: false });
    r.requestCompleted(s, { tabId: 1, requestId: '9', timeStamp: 13, statusCode: 200 });
    r.requestStarted(s, request(1, '10', 'https://ads.test/f', 'sub_frame', 14, 5));
    r.requestFailed(s, { tabId: 1, requestId: '10', timeStamp: 15, error: 'net::ERR_BLOCKED_BY_CLIENT' });
    expect(r.requestStarted(s, request(-1, '11', 'https://a.test/sw'))).toBeUndefined();
    const page = s.pages.get(1)!;
    expect(page.requests.slice(1)).toEqual([
      { requestId: '9', url: 'https://a.test/i.png', method: 'GET', type: 'image', frameId: 0, startedAt: 10, redirects: [{ url: 'http://a.test/i.png', statusCode: 301, startedAt: 10, endedAt: 11, redirectURL: 'https://a.test/i.png' }], statusCode: 200, ip: '10.0.0.1', fromCache: false, endedAt: 13 },
      { requestId: '10', url: 'https://ads.test/f', method: 'GET', type: 'sub_frame', frameId: 5, startedAt: 14, error: 'net::ERR_BLOCKED_BY_CLIENT', endedAt: 15 },
    ]);
  });

  test('a redirect closes a hop: its status, headers and times move into it; a responseSize of 0 is no size', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    r.requestStarted(s, request(1, '9', 'http://a.test/i.png', 'image', 10));
    requestHeadersSent(s, { tabId: 1, requestId: '9', timeStamp: 11, headers: [{ name: 'Accept', value: 'image/*' }] });
    responseHeadersReceived(s, { tabId: 1, requestId: '9', timeStamp: 15, statusCode: 307, statusLine: 'HTTP/1.1 307 Temporary Redirect', headers: [{ name: 'Location', value: 'https://a.test/i.png' }] });
    // Firefox ESR 153 reported 0 for a redirect the server wrote 232 B of (e2e), and 0 for the final response.
    r.requestRedirected(s, { tabId: 1, requestId: '9', timeStamp: 16, redirectUrl: 'https://a.test/i.png', statusCode: 307, responseSize: 0 });
    r.requestCompleted(s, { tabId: 1, requestId: '9', timeStamp: 30, statusCode: 200, responseSize: 0 });
    const image = s.pages.get(1)?.requests[1];
    expect(image).toEqual({
      requestId: '9', url: 'https://a.test/i.png', method: 'GET', type: 'image', frameId: 0, startedAt: 10, statusCode: 200, endedAt: 30,
      redirects: [{ url: 'http://a.test/i.png', statusCode: 307, statusLine: 'HTTP/1.1 307 Temporary Redirect', startedAt: 10, endedAt: 15, redirectURL: 'https://a.test/i.png', requestHeaders: [{ name: 'Accept', value: 'image/*' }], responseHeaders: [{ name: 'Location', value: 'https://a.test/i.png' }] }],
    });
    expect(pageBytes({ timings: [], requests: [image!] })).toMatchObject({ redirectBytes: 0, redirectsNotExposed: 1 });
    // A 3xx the browser did not follow (fetch with redirect: 'manual') is the response itself.
    r.requestStarted(s, request(1, '10', 'https://a.test/m', 'xmlhttprequest', 40));
    responseHeadersReceived(s, { tabId: 1, requestId: '10', timeStamp: 45, statusCode: 302, headers: [{ name: 'Location', value: '/n' }] });
    r.requestCompleted(s, { tabId: 1, requestId: '10', timeStamp: 46, statusCode: 302 });
    expect(s.pages.get(1)?.requests[2]).toMatchObject({ statusCode: 302, responseHeaders: [{ name: 'Location', value: '/n' }], headersAt: 45 });
    expect(s.pages.get(1)?.requests[2]).not.toHaveProperty('redirects');
  });

  test('a main_frame request of a new navigation starts the new record, whichever event comes first', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    // request first, then onBeforeNavigate for the same URL: one record
    r.requestStarted(s, request(1, 'd2', 'https://b.test/', 'main_frame', 500));
    const first = s.pages.get(1);
    expect(first?.url).toBe('https://b.test/');
    r.navigationStarted(s, nav(1, 'https://b.test/', 501));
    expect(s.pages.get(1)).toBe(first);
    // onBeforeNavigate first, then the request: the request joins it
    r.navigationStarted(s, nav(1, 'https://c.test/', 900));
    r.requestStarted(s, request(1, 'd3', 'https://c.test/', 'main_frame', 901));
    expect(s.pages.get(1)?.requests.map((q) => q.requestId)).toEqual(['d3']);
  });

  test("a document request reported after its navigation committed (Firefox under load) joins that navigation's record; a later one starts a new record", () => {
    const s = r.createPageState();
    r.navigationStarted(s, nav(3, 'https://a.test/late.css', 100));
    r.navigationCommitted(s, nav(3, 'https://a.test/late.css', 130));
    r.navigationCompleted(s, nav(3, 'https://a.test/late.css', 160));
    const page = s.pages.get(3);
    // The favicon, then the document's own onBeforeRequest (started at 101), arrive after the load.
    r.requestStarted(s, request(3, 'fav', 'https://a.test/favicon.ico', 'image', 170));
    expect(r.requestStarted(s, request(3, 'doc', 'https://a.test/late.css', 'main_frame', 101))).toBe(page);
    expect(s.pages.get(3)).toBe(page);
    expect(page).toMatchObject({ loadAt: 160, committedAt: 130, capture: 'detailed' });
    expect(page?.requests.map((q) => q.requestId)).toEqual(['doc', 'fav']);
    // A reload: its document request started after the commit, so it is a new navigation.
    r.requestStarted(s, request(3, 'doc2', 'https://a.test/late.css', 'main_frame', 400));
    expect(s.pages.get(3)).not.toBe(page);
    expect(s.pages.get(3)?.requests.map((q) => q.requestId)).toEqual(['doc2']);
  });

  test('an SPA route change (history state update) moves the record to the new URL without starting a new one', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    r.requestStarted(s, request(1, 'img', 'https://a.test/i.png'));
    const page = s.pages.get(1);
    expect(r.historyStateUpdated(s, nav(1, 'https://a.test/inbox?folder=2', 50))).toBe(page);
    expect(s.pages.get(1)).toBe(page);
    expect(page).toMatchObject({ pageId: '1:0', url: 'https://a.test/inbox?folder=2', committedAt: 2 });
    expect(page?.requests).toHaveLength(2);
    // Sub-frames, repeats of the same URL, unknown tabs and non-http(s) URLs change nothing.
    expect(r.historyStateUpdated(s, nav(1, 'https://a.test/frame-route', 51, 4))).toBeUndefined();
    expect(r.historyStateUpdated(s, nav(1, 'https://a.test/inbox?folder=2', 52))).toBeUndefined();
    expect(r.historyStateUpdated(s, nav(2, 'https://a.test/', 53))).toBeUndefined();
    expect(r.historyStateUpdated(s, nav(1, 'about:blank', 54))).toBeUndefined();
    expect(page?.url).toBe('https://a.test/inbox?folder=2');
  });

  test('a history state update of the previous document does not rename the next navigation’s record', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    r.navigationStarted(s, nav(1, 'https://b.test/', 100));
    expect(r.historyStateUpdated(s, nav(1, 'https://a.test/late-route', 101))).toBeUndefined();
    r.navigationCommitted(s, nav(1, 'https://b.test/', 120));
    expect(r.historyStateUpdated(s, nav(1, 'https://a.test/older', 110))).toBeUndefined();
    expect(s.pages.get(1)?.url).toBe('https://b.test/');
  });

  test('site access granted: the records that saw no request are forgotten, the others kept', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    r.navigationStarted(s, nav(2, 'https://unseen.test/', 10));
    r.navigationCommitted(s, nav(2, 'https://unseen.test/', 12));
    expect(r.siteAccessGranted(s)).toBe(true);
    expect([...s.pages.keys()]).toEqual([1]);
    expect(r.siteAccessGranted(s)).toBe(false);
  });

  test('a navigation to a non-http(s) URL forgets the tab', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    r.navigationStarted(s, nav(1, 'chrome://settings/', 10));
    expect(s.pages.has(1)).toBe(false);
  });

  test('lean capture: each top-level commit starts a record; the page timing gives its start and DOMContentLoaded; a non-http commit forgets the tab', () => {
    const s = r.createPageState();
    const first = r.documentCommitted(s, nav(4, 'https://a.test/', 2000.4));
    expect(first).toMatchObject({ pageId: '4:2000', url: 'https://a.test/', startedAt: 2000.4, committedAt: 2000.4, capture: 'lean' });
    expect(r.documentCommitted(s, nav(4, 'https://ad.test/frame', 2001, 2))).toBeUndefined();
    r.navigationCompleted(s, nav(4, 'https://a.test/', 2090));
    // Navigation Timing (page clock): the navigation started 12 ms before its commit; DOMContentLoaded ended at 61 ms.
    const navTiming = { timeOrigin: 1988, responseStart: 9, domContentLoadedEventStart: 60, domContentLoadedEventEnd: 61, loadEventEnd: 95, nextHopProtocol: 'http/1.1', fetchStart: 1 };
    r.timingsReported(s, 4, 'https://a.test/', [], navTiming);
    expect(s.pages.get(4)).toMatchObject({ pageId: '4:2000', startedAt: 1988, domContentLoadedAt: 2049, committedAt: 2000.4, loadAt: 2090 });
    expect(s.pages.get(4)?.requests[0]).toMatchObject({ type: 'main_frame', startedAt: 1989 });
    // A timing without its origin (an older content script) leaves the commit's times.
    r.documentCommitted(s, nav(4, 'https://a.test/next', 3000));
    r.timingsReported(s, 4, 'https://a.test/next', [], { ...navTiming, timeOrigin: undefined });
    expect(s.pages.get(4)).toMatchObject({ pageId: '4:3000', url: 'https://a.test/next', startedAt: 3000 });
    expect(s.pages.get(4)?.domContentLoadedAt).toBeUndefined();
    // A reload of the same URL is a new document, so a new record.
    expect(r.documentCommitted(s, nav(4, 'https://a.test/next', 3500))?.pageId).toBe('4:3500');
    r.documentCommitted(s, nav(4, 'about:blank', 4000));
    expect(s.pages.has(4)).toBe(false);
  });

  test('a Detailed record keeps the browser-clock times webNavigation gave it, whatever the page timing says', () => {
    const s = r.createPageState();
    loadPage(s, 2, 'https://a.test/', 500);
    r.timingsReported(s, 2, 'https://a.test/', [], { timeOrigin: 480, responseStart: 9, domContentLoadedEventEnd: 61, loadEventEnd: 95, nextHopProtocol: 'h2' });
    expect(s.pages.get(2)).toMatchObject({ capture: 'detailed', startedAt: 500 });
    expect(s.pages.get(2)?.domContentLoadedAt).toBeUndefined();
  });

  test('bounds: tabs (oldest dropped), requests and discoveries', () => {
    const s = r.createPageState({ maxTabs: 3, maxRequests: 4, maxDiscoveries: 2 });
    for (let tab = 1; tab <= 5; tab++) loadPage(s, tab, 'https://a.test/', tab * 100);
    expect([...s.pages.keys()]).toEqual([3, 4, 5]);
    for (let i = 0; i < 10; i++) r.requestStarted(s, request(5, `q${i}`, `https://a.test/${i}`));
    expect(s.pages.get(5)?.requests).toHaveLength(4);
    const d: Discovery = { url: 'https://a.test/x', kind: 'image', priority: 'image', atMs: 1, inViewport: false, tag: 'img', late: false };
    r.discoveriesReported(s, 5, 'https://a.test/', [d, d, d]);
    expect(s.pages.get(5)?.discoveries).toHaveLength(2);
  });

  test('content reports from a document of another origin are dropped; timings are de-duplicated', () => {
    const s = r.createPageState();
    loadPage(s, 1, 'https://a.test/', 0);
    const d: Discovery = { url: 'https://a.test/x', kind: 'image', priority: 'image', atMs: 1, inViewport: false, tag: 'img', late: false };
    expect(r.discoveriesReported(s, 1, 'https://old.test/', [d])).toBeUndefined();
    expect(r.discoveriesReported(s, 1, 'https://a.test/spa/route', [d])).toBeDefined();
    const t = { name: 'https://a.test/x', initiatorType: 'img', startTime: 5, domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, responseEnd: 9, transferSize: 0, encodedBodySize: 0, nextHopProtocol: 'h2', restricted: false };
    r.timingsReported(s, 1, 'https://a.test/', [t, t]);
    r.timingsReported(s, 1, 'https://a.test/', [t], { responseStart: 1, domContentLoadedEventEnd: 2, loadEventEnd: 3, nextHopProtocol: 'h2' });
    expect(s.pages.get(1)?.timings).toHaveLength(1);
    expect(s.pages.get(1)?.navigation?.loadEventEnd).toBe(3);
    expect(s.pages.get(1)?.timingsBufferFull).toBeUndefined();
    // A full buffer, once said, stays said (later reports carry only new entries).
    r.timingsReported(s, 1, 'https://a.test/', [], undefined, true);
    r.timingsReported(s, 1, 'https://a.test/', [], undefined, false);
    expect(s.pages.get(1)?.timingsBufferFull).toBe(true);
  });

  test('snapshot → restore keeps records and their order and drops junk', () => {
    const s = r.createPageState();
    loadPage(s, 2, 'https://a.test/', 0);
    loadPage(s, 1, 'https://b.test/', 10);
    const back = r.restore(JSON.parse(JSON.stringify([...r.snapshot(s), { nope: true }, null])));
    expect([...back.pages.keys()]).toEqual([2, 1]);
    expect(back.pages.get(1)).toEqual(s.pages.get(1));
    expect(r.restore('garbage').pages.size).toBe(0);
  });
});
