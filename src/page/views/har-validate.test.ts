// The HAR export checked twice: by har-validator (the HAR 1.2 JSON schema, har-schema) and by a
// strict structural check of what the schema cannot say (times add up, -1 only where allowed,
// every pageref names a page, redirect chains continue, no cookie or credential anywhere).
import * as harValidator from 'har-validator';
import type { PageRecord, TimingEntry } from '../model/page-record';
import { requestHeadersSent, responseHeadersReceived } from '../model/request-headers';
import { createPageState, requestRedirected, requestStarted, requestCompleted } from '../model/page-reducer';
import type { RequestRecord } from '../../run';
import { buildHar, statusText, type Har, type HarEntry } from './har';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 0);

const timing = (over: Partial<TimingEntry>): TimingEntry => ({
  name: 'https://a.test/x.png', initiatorType: 'img', startTime: 100, domainLookupStart: 100, domainLookupEnd: 100, connectStart: 100, secureConnectionStart: 0, connectEnd: 100,
  requestStart: 110, responseStart: 150, responseEnd: 170, transferSize: 1300, encodedBodySize: 1000, nextHopProtocol: 'http/1.1', restricted: false, ...over,
});

const record = (over: Partial<RequestRecord>): RequestRecord => ({
  url: 'https://a.test/x.png', method: 'GET', priority: 'image', resourceType: 'image', status: 200, bytes: 1000, decodedBytes: 1000, connectionId: 1, reused: false, pipelined: false, attempts: 1,
  protocol: 'http/1.1', discoveredMs: 0, sentMs: 5, ttfbMs: 9, doneMs: 12, error: null, ...over,
});

/** A page built through the reducers: a document redirected once, with headers (and cookies to drop). */
function page(): PageRecord {
  const s = createPageState();
  const ev = { tabId: 3, frameId: 0, method: 'GET' };
  requestStarted(s, { ...ev, requestId: 'd', url: 'http://a.test/', type: 'main_frame', timeStamp: T0 });
  requestHeadersSent(s, { requestId: 'd', tabId: 3, timeStamp: T0 + 1, headers: [{ name: 'Accept', value: 'text/html' }, { name: 'Cookie', value: 'session=secret' }] });
  responseHeadersReceived(s, { requestId: 'd', tabId: 3, timeStamp: T0 + 20, statusCode: 301, statusLine: 'HTTP/1.1 301 Moved Permanently', headers: [{ name: 'Location', value: 'https://a.test/' }, { name: 'Set-Cookie', value: 'x=1' }] });
  requestRedirected(s, { requestId: 'd', tabId: 3, timeStamp: T0 + 21, redirectUrl: 'https://a.test/', statusCode: 301 });
  requestHeadersSent(s, { requestId: 'd', tabId: 3, timeStamp: T0 + 22, headers: [{ name: 'Accept', value: 'text/html' }, { name: 'authorization', value: 'Basic x' }] });
  responseHeadersReceived(s, { requestId: 'd', tabId: 3, timeStamp: T0 + 60, statusCode: 200, statusLine: 'HTTP/1.1 200 OK', headers: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }] });
  requestCompleted(s, { requestId: 'd', tabId: 3, timeStamp: T0 + 90, statusCode: 200, ip: '127.0.0.1' });
  requestStarted(s, { ...ev, requestId: 'i', url: 'https://a.test/x.png', type: 'image', timeStamp: T0 + 100 });
  requestCompleted(s, { requestId: 'i', tabId: 3, timeStamp: T0 + 171, statusCode: 200, ip: '127.0.0.1' });
  const p = s.pages.get(3) as PageRecord;
  p.timings = [timing({ connectStart: 101, connectEnd: 105 })];
  p.navigation = { responseStart: 60, domContentLoadedEventEnd: 120, loadEventEnd: 200, nextHopProtocol: 'http/1.1' };
  p.replay = {
    status: 'done', startedAt: T0 + 1000, strategies: ['getlist'],
    results: [{ type: 'replay-result', id: 1, pageId: p.pageId, strategy: 'getlist', startedAt: T0 + 1000,
      handshakes: [{ connectionId: 1, origin: 'https://a.test', startedAt: T0 + 1001, dnsMs: 0.5, tcpMs: 1, tlsMs: 2, totalMs: 3.5, remoteAddress: '127.0.0.1', remotePort: 443, localPort: 5555, protocol: 'http/1.1', tlsVersion: 'TLSv1.3', resumed: false }],
      requests: [record({ url: 'https://a.test/', resourceType: 'main_frame' }), record({ sentMs: 12, ttfbMs: 15, doneMs: 20, reused: true }), record({ url: 'https://b.test/y', connectionId: null, sentMs: null, ttfbMs: null, status: null, bytes: 0, error: { code: 'E_CONNECT_FAILED', message: 'refused' } })] }],
  };
  return p;
}

/**
 * A document redirected twice (http → https → /home) and an image redirected once, through the
 * reducers, the image with its Resource Timing entry (named by its first URL; `fetchStart` after
 * the redirect).
 */
function redirectChain(): PageRecord {
  const s = createPageState();
  const ev = { tabId: 4, frameId: 0, method: 'GET' };
  const hop = (id: string, at: number, status: number, location: string) => {
    responseHeadersReceived(s, { requestId: id, tabId: 4, timeStamp: T0 + at, statusCode: status, statusLine: `HTTP/1.1 ${status} Moved`, headers: [{ name: 'Location', value: location }] });
    requestRedirected(s, { requestId: id, tabId: 4, timeStamp: T0 + at + 1, redirectUrl: location, statusCode: status });
  };
  requestStarted(s, { ...ev, requestId: 'd', url: 'http://a.test/', type: 'main_frame', timeStamp: T0 });
  hop('d', 30, 301, 'https://a.test/');
  hop('d', 75, 302, 'https://a.test/home');
  responseHeadersReceived(s, { requestId: 'd', tabId: 4, timeStamp: T0 + 110, statusCode: 200, statusLine: 'HTTP/1.1 200 OK', headers: [{ name: 'Content-Type', value: 'text/html' }] });
  requestCompleted(s, { requestId: 'd', tabId: 4, timeStamp: T0 + 140, statusCode: 200 });
  requestStarted(s, { ...ev, requestId: 'i', url: 'https://a.test/old.png', type: 'image', timeStamp: T0 + 200 });
  hop('i', 240, 308, 'https://a.test/new.png');
  requestCompleted(s, { requestId: 'i', tabId: 4, timeStamp: T0 + 300, statusCode: 200 });
  const p = s.pages.get(4) as PageRecord;
  // Navigation start is T0: the image's chain starts at 200, its final fetch at 241.
  p.timings = [timing({ name: 'https://a.test/old.png', startTime: 200, fetchStart: 241, domainLookupStart: 241, domainLookupEnd: 241, connectStart: 241, connectEnd: 241, requestStart: 245, responseStart: 280, responseEnd: 299 })];
  return p;
}

/** What the schema cannot say; returns every violation found. */
function strictCheck(har: Har): string[] {
  const problems: string[] = [];
  const pages = new Set(har.log.pages.map((p) => p.id));
  if (pages.size !== har.log.pages.length) problems.push('page ids are not unique');
  har.log.entries.forEach((e, i) => {
    const at = `entries[${i}] ${e.request.url}`;
    if (!pages.has(e.pageref)) problems.push(`${at}: pageref ${e.pageref} names no page`);
    if (new Date(e.startedDateTime).toISOString() !== e.startedDateTime) problems.push(`${at}: startedDateTime is not ISO 8601 UTC`);
    const t = e.timings;
    for (const k of ['send', 'wait', 'receive'] as const) if (!(t[k] >= 0)) problems.push(`${at}: timings.${k} must be ≥ 0, is ${t[k]}`);
    for (const k of ['blocked', 'dns', 'connect', 'ssl'] as const) if (!(t[k] === -1 || t[k] >= 0)) problems.push(`${at}: timings.${k} must be -1 or ≥ 0`);
    if (t.ssl > 0 && !(t.connect >= t.ssl)) problems.push(`${at}: ssl ${t.ssl} must be inside connect ${t.connect}`);
    const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((v) => v > 0).reduce((a, b) => a + b, 0);
    if (Math.abs(sum - e.time) > 0.01) problems.push(`${at}: time ${e.time} ≠ sum of timings ${sum}`);
    const isRedirect = e.response.status >= 300 && e.response.status < 400;
    if (isRedirect !== (e.response.redirectURL !== '')) problems.push(`${at}: status ${e.response.status} with redirectURL ${JSON.stringify(e.response.redirectURL)}`);
    if (isRedirect && har.log.entries[i + 1]?.request.url !== e.response.redirectURL) problems.push(`${at}: the redirect's next entry is not its target`);
    for (const h of [...e.request.headers, ...e.response.headers]) if (/^(cookie|set-cookie|authorization|proxy-authorization)$/i.test(h.name)) problems.push(`${at}: header ${h.name} leaked`);
    if (e.request.cookies.length || e.response.cookies.length) problems.push(`${at}: cookies present`);
    if (e.connection !== undefined && !/^\d+$/.test(e.connection)) problems.push(`${at}: connection ${e.connection} is not an id`);
  });
  return problems;
}

describe('HAR export', () => {
  const har = buildHar(page(), { title: 'A test page' });

  test('har-validator (the HAR 1.2 schema) accepts it', async () => {
    await expect(harValidator.har(JSON.parse(JSON.stringify(har)))).resolves.toBeTruthy();
    // …and is not a validator that accepts anything: an entry without its timings is refused.
    const broken = JSON.parse(JSON.stringify(har)) as { log: { entries: Array<Record<string, unknown>> } };
    delete broken.log.entries[0]?.timings;
    await expect(harValidator.har(broken)).rejects.toThrow();
  });

  test('the strict check finds nothing, and catches each violation it is given', () => {
    expect(strictCheck(har)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(har)) as Har;
    const e = broken.log.entries[1]!;
    e.time += 5;
    e.pageref = 'nope';
    e.request.headers.push({ name: 'Cookie', value: 'x' });
    e.timings.send = -1;
    expect(strictCheck(broken).map((p) => p.replace(/^entries\[\d+\] \S+: /, ''))).toEqual([
      'pageref nope names no page',
      'timings.send must be ≥ 0, is -1',
      `time ${e.time} ≠ sum of timings ${e.time - 5}`,
      'header Cookie leaked',
    ]);
  });

  test('the redirect is an entry of its own, with its status, headers and redirectURL; cookies and credentials are gone', () => {
    const [hop, doc] = har.log.entries;
    expect(hop?.request.url).toBe('http://a.test/');
    expect(hop?.response).toMatchObject({ status: 301, statusText: 'Moved Permanently', redirectURL: 'https://a.test/', httpVersion: 'HTTP/1.1' });
    expect(hop?.request.headers).toEqual([{ name: 'Accept', value: 'text/html' }]);
    expect(hop?.response.headers).toEqual([{ name: 'Location', value: 'https://a.test/' }]);
    expect(hop?.time).toBe(20);
    expect(doc?.request.url).toBe('https://a.test/');
    expect(doc?.request.headers).toEqual([{ name: 'Accept', value: 'text/html' }]);
    expect(doc?.response).toMatchObject({ status: 200, statusText: 'OK', redirectURL: '' });
    expect(doc?.response.content.mimeType).toBe('text/html; charset=utf-8');
    expect(doc?.serverIPAddress).toBe('127.0.0.1');
  });

  test('the title, connection ids, and each replayed strategy as a page of its own with the host’s records', () => {
    expect(har.log.pages.map((p) => [p.id, p.title])).toEqual([
      [`3:${T0}`, 'A test page'],
      [`3:${T0}:replay:getlist`, 'http://a.test/ (getlist replay: getlist)'],
    ]);
    const image = har.log.entries.find((e) => e.pageref === `3:${T0}` && e.request.url.endsWith('x.png'));
    expect(image?.connection).toBe('1');
    expect(image?.timings.connect).toBe(4);
    const replay = har.log.entries.filter((e) => e.pageref.endsWith(':replay:getlist'));
    expect(replay.map((e) => [e.request.url, e.connection, e.response.status])).toEqual([
      ['https://a.test/', '1', 200],
      ['https://a.test/x.png', '1', 200],
      ['https://b.test/y', undefined, 0],
    ]);
    // The opener carries the handshake: dns 0.5, connect = tcp + tls = 3, ssl 2; the reused one none.
    expect(replay[0]?.timings).toMatchObject({ dns: 0.5, connect: 3, ssl: 2, wait: 4, receive: 3 });
    expect(replay[0]?.serverIPAddress).toBe('127.0.0.1');
    expect(replay[1]?.timings).toMatchObject({ dns: -1, connect: -1, ssl: -1, blocked: 12, wait: 3, receive: 5 });
    expect(har.log.pages[1]?.pageTimings.onLoad).toBe(20);
  });

  test('a redirect chain: each hop its own entry, the final entry starting where the last hop ended, none overlapping (as DevTools writes it)', async () => {
    const chain = buildHar(redirectChain());
    await expect(harValidator.har(JSON.parse(JSON.stringify(chain)))).resolves.toBeTruthy();
    expect(strictCheck(chain)).toEqual([]);
    const at = (e: HarEntry) => Date.parse(e.startedDateTime) - T0;
    const rows = chain.log.entries.map((e) => [e.request.url, e.response.status, at(e), e.time]);
    expect(rows).toEqual([
      ['http://a.test/', 301, 0, 30],
      ['https://a.test/', 302, 30, 45],
      // The final document: from the last hop's end (75) to its completion (140).
      ['https://a.test/home', 200, 75, 65],
      ['https://a.test/old.png', 308, 200, 40],
      // The final image: its phases from Resource Timing's fetchStart (241), not the chain's start (200): blocked 0, wait 35, receive 19.
      ['https://a.test/new.png', 200, 240, 54],
    ]);
    expect(chain.log.entries[4]?.timings).toMatchObject({ blocked: 0, dns: -1, connect: -1, wait: 35, receive: 19 });
    // Within each request, the entries tile its time: each starts where the one before ended.
    for (const [a, b] of [[0, 1], [1, 2], [3, 4]] as const) {
      const [ea, eb] = [chain.log.entries[a] as HarEntry, chain.log.entries[b] as HarEntry];
      expect(at(eb)).toBe(at(ea) + ea.time);
    }
    // The whole document request (0 → 140) is covered once: hop, hop, final.
    expect(chain.log.entries.slice(0, 3).reduce((sum, e) => sum + e.time, 0)).toBe(140);
  });

  test('status text from a status line', () => {
    expect(['HTTP/1.1 404 Not Found', 'HTTP/2 200', 'HTTP/1.0 200 OK ', undefined].map((l) => statusText(l))).toEqual(['Not Found', '', 'OK', '']);
  });
});
