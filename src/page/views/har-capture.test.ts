// The HAR says how its page was captured: a lean page (Resource Timing only) has no headers and no
// server addresses, and its comment must say those are not exposed rather than leave them to read as "none".
import * as harValidator from 'har-validator';
import { leanRequests } from '../model/lean-requests';
import type { PageRecord, TimingEntry } from '../model/page-record';
import { buildHar, HAR_CAPTURE_COMMENT } from './har';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 0);
const timing = (name: string, startTime: number): TimingEntry => ({
  name, initiatorType: 'img', startTime, domainLookupStart: startTime, domainLookupEnd: startTime, connectStart: startTime, secureConnectionStart: 0, connectEnd: startTime,
  requestStart: startTime + 2, responseStart: startTime + 10, responseEnd: startTime + 15, transferSize: 900, encodedBodySize: 600, nextHopProtocol: 'http/1.1', restricted: false, responseStatus: 200,
});

/** A lean page as the reducer builds it: the requests rebuilt from the page's own timings. */
function leanPage(): PageRecord {
  const base = {
    pageId: '3:1', tabId: 3, url: 'http://a.test/', startedAt: T0, discoveries: [],
    timings: [timing('http://a.test/1.png', 40), timing('http://a.test/2.png', 41)],
    navigation: { fetchStart: 1, responseStart: 8, responseEnd: 12, domContentLoadedEventEnd: 30, loadEventEnd: 70, nextHopProtocol: 'http/1.1', responseStatus: 200, contentType: 'text/html', timeOrigin: T0 },
  };
  return { ...base, requests: leanRequests(base), capture: 'lean' };
}

describe('HAR capture comment', () => {
  test('lean: log and page say lean capture, and name every field the entries leave empty as not exposed', async () => {
    const har = buildHar(leanPage());
    expect(har.log.entries).toHaveLength(3);
    expect(har.log.comment).toBe(HAR_CAPTURE_COMMENT.lean);
    expect(har.log.pages[0]?.comment).toBe(HAR_CAPTURE_COMMENT.lean);
    // What is actually missing in the entries, and that the comment names each such field.
    const noHeaders = har.log.entries.every((e) => e.request.headers.length === 0 && e.response.headers.length === 0);
    const noAddress = har.log.entries.every((e) => e.serverIPAddress === undefined);
    expect({ noHeaders, noAddress }).toEqual({ noHeaders: true, noAddress: true });
    expect(har.log.comment).toMatch(/lean capture/);
    expect(har.log.comment).toMatch(/Not exposed: request and response headers, server IP addresses/);
    await expect(harValidator.har(JSON.parse(JSON.stringify(har)))).resolves.toBeTruthy();
  });

  test('detailed, and records from before lean capture existed (no capture field), say detailed capture', () => {
    const detailed = { ...leanPage(), capture: 'detailed' as const };
    expect(buildHar(detailed).log.comment).toBe(HAR_CAPTURE_COMMENT.detailed);
    const { capture: _gone, ...old } = leanPage();
    expect(buildHar(old).log.comment).toBe(HAR_CAPTURE_COMMENT.detailed);
    expect(HAR_CAPTURE_COMMENT.detailed).not.toMatch(/not exposed/i);
  });
});

describe('HAR connection ids, lean capture', () => {
  /** 14 images on one HTTP/1.1 origin, queued at once; six connections carry them, seven and seven. */
  function queuedPage(sendTime: (i: number, start: number) => number): PageRecord {
    const timings = Array.from({ length: 14 }, (_, i) => {
      const t = timing(`http://a.test/q/${i}.png`, 40 + i * 0.1);
      const sent = sendTime(i, t.startTime);
      return { ...t, requestStart: sent, responseStart: sent + 150, responseEnd: sent + 155 };
    });
    const base = { ...leanPage(), timings };
    return { ...base, requests: leanRequests(base) };
  }
  const ids = (page: PageRecord) => buildHar(page).log.entries.filter((e) => e.request.url.includes('/q/')).map((e) => e.connection);

  test('queued requests share the connections that were free when each was sent: never more than they needed', () => {
    const got = ids(queuedPage((i) => (i < 6 ? 50 + i * 0.1 : i < 12 ? 210 + i * 0.1 : 370 + i * 0.1)));
    expect(got.every((id) => id !== undefined)).toBe(true);
    expect(new Set(got).size).toBe(6);
  });

  test('no send time exposed (requestStart equal to the start): no connection id, rather than one per queued request', () => {
    expect(ids(queuedPage((_, start) => start))).toEqual(Array.from({ length: 14 }, () => undefined));
  });
});
