import type { PageRecord } from './page-record';
import type { RequestRecord } from '../../run';
import { browserLastByteMs, failureReason, replayVerdicts } from './replay-verdict';

const req = (url: string, error?: { code: string; message: string }): RequestRecord => ({
  url, method: 'GET', priority: 'image', resourceType: null, status: null, bytes: 0, decodedBytes: 0, connectionId: null, reused: false, pipelined: false, attempts: 1,
  protocol: null, discoveredMs: 0, sentMs: null, ttfbMs: null, doneMs: 5, error: error ?? null,
});

function page(results: Array<{ strategy: string; requests: RequestRecord[] }>, extra: Partial<PageRecord> = {}): PageRecord {
  return {
    pageId: 'p',
    tabId: 1,
    url: 'https://a.test/',
    startedAt: 1000,
    requests: [],
    discoveries: [],
    timings: [],
    replay: { status: 'done', startedAt: 0, strategies: results.map((r) => r.strategy), results: results.map((r) => ({ type: 'replay-result', id: 1, pageId: 'p', strategy: r.strategy as never, requests: r.requests })) },
    ...extra,
  };
}

describe('replayVerdicts', () => {
  test('18 of 19 requests failing on a certificate: invalid, grouped by code with the count and the fix', () => {
    const cert = { code: 'E_CONNECT_FAILED', message: 'connect failed: self-signed certificate' };
    const p = page([
      { strategy: 'getlist', requests: [req('https://a.test/'), ...Array.from({ length: 18 }, (_, i) => req(`https://b.test/${i}`, cert))] },
      { strategy: 'browser', requests: [req('https://a.test/'), req('https://a.test/x')] },
    ]);
    const [getlist, browser] = replayVerdicts(p);
    expect(getlist).toMatchObject({ strategy: 'getlist', valid: false, requests: 19, failed: 18 });
    expect(getlist?.failures).toEqual([{ code: 'E_CONNECT_FAILED', count: 18, reason: expect.stringContaining('--ca FILE'), example: 'https://b.test/0' }]);
    expect(browser).toMatchObject({ valid: true, failed: 0, failures: [] });
  });

  test('each code gets its own one-line reason', () => {
    expect(failureReason('DEPTH_ZERO_SELF_SIGNED_CERT')).toMatch(/not trusted/);
    expect(failureReason('ECONNREFUSED')).toMatch(/nothing accepted/);
    expect(failureReason('ENOTFOUND')).toMatch(/did not resolve/);
    expect(failureReason('UND_ERR_HEADERS_TIMEOUT')).toMatch(/time limit/);
    expect(failureReason('E_WEIRD', 'boom')).toBe('failed: boom');
  });
});

describe('browserLastByteMs', () => {
  test('the end of the last response, from requests and Resource Timing alike, not the load event', () => {
    const p = page([], {
      loadAt: 1900,
      requests: [{ requestId: '1', url: 'https://a.test/', method: 'GET', type: 'main_frame', frameId: 0, startedAt: 1000, endedAt: 1100 }],
      timings: [{ name: 'https://a.test/i.png', initiatorType: 'img', startTime: 120, domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, responseEnd: 640, transferSize: 0, encodedBodySize: 0, nextHopProtocol: 'h2', restricted: false }],
    });
    expect(browserLastByteMs(p)).toBe(640);
    expect(browserLastByteMs(page([]))).toBeUndefined();
  });
});
