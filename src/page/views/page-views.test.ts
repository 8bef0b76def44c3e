import { layoutCdfPlot } from './cdf-plot';
import { buildHar, HAR_CAPTURE_COMMENT, harHttpVersion, phases, queryString } from './har';
import type { PageRecord, TimingEntry } from '../model/page-record';
import { browserObserved, connectionUsage, navigationMilestones, origins, requestCount, transferBytes } from '../model/page-summary';
import { isRestricted, toNavigationTiming, toTimingEntry } from '../model/timing-mapping';
import { formatMs, niceStep, observedRows, timeAxis } from './waterfall';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 0);

function timing(over: Partial<TimingEntry>): TimingEntry {
  return {
    name: 'https://a.example/x',
    initiatorType: 'img',
    startTime: 100,
    domainLookupStart: 0,
    domainLookupEnd: 0,
    connectStart: 100,
    secureConnectionStart: 0,
    connectEnd: 100,
    requestStart: 110,
    responseStart: 150,
    responseEnd: 170,
    transferSize: 1300,
    encodedBodySize: 1000,
    nextHopProtocol: 'h2',
    restricted: false,
    ...over,
  };
}

/** A page: the document, a fresh-connection stylesheet, a reused image, a restricted cross-origin script. */
function page(): PageRecord {
  return {
    pageId: `7:${T0}`,
    tabId: 7,
    url: 'https://a.example/index.html',
    startedAt: T0,
    domContentLoadedAt: T0 + 400,
    loadAt: T0 + 600,
    requests: [
      { requestId: '1', url: 'https://a.example/index.html', method: 'GET', type: 'main_frame', frameId: 0, startedAt: T0, endedAt: T0 + 90, statusCode: 200, ip: '192.0.2.1' },
      { requestId: '2', url: 'https://a.example/s.css?v=1&q=a+b', method: 'GET', type: 'stylesheet', frameId: 0, startedAt: T0 + 95, endedAt: T0 + 200, statusCode: 200 },
      { requestId: '3', url: 'https://a.example/x', method: 'GET', type: 'image', frameId: 0, startedAt: T0 + 100, endedAt: T0 + 170, statusCode: 200 },
      { requestId: '4', url: 'https://cdn.example/lib.js', method: 'GET', type: 'script', frameId: 0, startedAt: T0 + 120, endedAt: T0 + 320, statusCode: 200 },
    ],
    discoveries: [{ url: 'https://a.example/x', kind: 'image', priority: 'visible-image', atMs: 80, inViewport: true, tag: 'img', late: false }],
    timings: [
      timing({ name: 'https://a.example/s.css?v=1&q=a+b', initiatorType: 'link', startTime: 95, domainLookupStart: 95, domainLookupEnd: 105, connectStart: 105, secureConnectionStart: 125, connectEnd: 150, requestStart: 151, responseStart: 190, responseEnd: 200, nextHopProtocol: 'http/1.1' }),
      timing({}),
      timing({ name: 'https://cdn.example/lib.js', initiatorType: 'script', startTime: 120, connectStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, responseEnd: 320, transferSize: 0, encodedBodySize: 0, restricted: true }),
    ],
    navigation: { responseStart: 60, domContentLoadedEventEnd: 410, loadEventEnd: 605, nextHopProtocol: 'h2' },
  };
}

describe('timing mapping', () => {
  const raw = { ...timing({}), restricted: undefined } as unknown as Omit<TimingEntry, 'restricted'>;
  test('same-origin entries are never restricted; cross-origin zeroed ones are', () => {
    expect(toTimingEntry(raw, 'https://a.example').restricted).toBe(false);
    expect(isRestricted({ name: 'https://cdn.example/a', requestStart: 0, responseStart: 0 }, 'https://a.example')).toBe(true);
    expect(isRestricted({ name: 'https://cdn.example/a', requestStart: 3, responseStart: 9 }, 'https://a.example')).toBe(false);
    expect(isRestricted({ name: 'https://a.example/a', requestStart: 0, responseStart: 0 }, 'https://a.example')).toBe(false);
  });
  test('keeps only the contract fields, rounded to µs', () => {
    const e = toTimingEntry({ ...raw, startTime: 1.23456789, extra: 1 } as typeof raw, 'https://a.example');
    expect(e.startTime).toBe(1.235);
    expect(Object.keys(e).sort()).toEqual(Object.keys(timing({})).sort());
    expect(toNavigationTiming({ responseStart: 1.00001, domContentLoadedEventEnd: 2, loadEventEnd: 3, nextHopProtocol: 'h2' })).toEqual({ responseStart: 1, domContentLoadedEventEnd: 2, loadEventEnd: 3, nextHopProtocol: 'h2' });
    // DOMContentLoaded's start, on the Resource Timing clock: hint learning compares request starts with it.
    expect(toNavigationTiming({ responseStart: 1, domContentLoadedEventStart: 1.50001, domContentLoadedEventEnd: 2, loadEventEnd: 3, nextHopProtocol: 'h2' }).domContentLoadedEventStart).toBe(1.5);
  });
});

describe('page summary', () => {
  test('milestones prefer Navigation Timing, fall back to webNavigation', () => {
    expect(navigationMilestones(page())).toEqual({ ttfbMs: 60, domContentLoadedMs: 410, loadMs: 605 });
    const p = { ...page(), navigation: undefined };
    expect(navigationMilestones(p)).toEqual({ ttfbMs: undefined, domContentLoadedMs: 400, loadMs: 600 });
  });
  test('connections: opened vs reused vs not exposed; cache hits apart', () => {
    const p = page();
    expect(connectionUsage(p.timings)).toEqual({ opened: 1, reused: 1, cached: 0, notExposed: 1 });
    expect(connectionUsage([timing({ transferSize: 0, encodedBodySize: 50 })])).toEqual({ opened: 0, reused: 0, cached: 1, notExposed: 0 });
  });
  test('bytes, counts and origins', () => {
    const p = page();
    expect(transferBytes(p.timings)).toEqual({ bytes: 2600, exposed: 2, notExposed: 1 });
    expect(requestCount(p)).toBe(4);
    expect(requestCount({ ...p, requests: [] })).toBe(4);
    expect(origins(p)).toEqual(['https://a.example', 'https://cdn.example']);
  });
  test('browser-observed row leaves restricted entries out of the TTFB mean', () => {
    const seen = browserObserved(page());
    expect(seen.totalMs).toBe(605);
    // navigation 60, stylesheet 190-95=95, image 150-100=50
    expect(seen.meanTtfbMs).toBeCloseTo((60 + 95 + 50) / 3);
    expect(seen.connections).toBe(2);
    expect(seen.requestsPerConnection).toBe(1.5);
    expect(seen.notExposed).toBe(1);
    expect(seen.connectionsBound).toBe('exact');
  });
  test('browser-observed row, lean capture of queued HTTP/1.1 requests: at least the requests holding a connection at once, at most six', () => {
    // Fourteen images queued at once (startTime), seven sent as soon as one of six connections came free.
    const queued = Array.from({ length: 14 }, (_, i) => timing({
      name: `https://a.example/q/${i}.png`, startTime: 100 + i * 0.1, domainLookupStart: 100 + i * 0.1, domainLookupEnd: 100 + i * 0.1, connectStart: 100 + i * 0.1, connectEnd: 100 + i * 0.1,
      requestStart: i < 7 ? 110 + i * 0.1 : 300 + i * 0.1, responseStart: i < 7 ? 280 : 470, responseEnd: i < 7 ? 290 + i : 480 + i, nextHopProtocol: 'http/1.1',
    }));
    const lean: PageRecord = { ...page(), requests: [], capture: 'lean', timings: queued, navigation: { responseStart: 60, domContentLoadedEventEnd: 410, loadEventEnd: 605, nextHopProtocol: 'http/1.1' } };
    const seen = browserObserved(lean);
    expect(seen).toMatchObject({ connections: 6, connectionsBound: 'lower' });
    // Counted from startTime, the fourteen would all overlap: never shown.
    const fromStart = browserObserved({ ...lean, timings: queued.map((t) => ({ ...t, requestStart: t.startTime })) });
    expect(fromStart).toMatchObject({ connectionsBound: 'not-exposed' });
    expect(fromStart.connections).toBeUndefined();
  });
});

describe('waterfall layout', () => {
  test('one row per request in start order, start/end from the page clock, discovery time, axis ticks', () => {
    const rows = observedRows(page());
    expect(rows.map((b) => b.type)).toEqual(['document', 'stylesheet', 'image', 'script']);
    const img = rows[2]!;
    expect(img.startMs).toBeCloseTo(100);
    expect(img.endMs! - img.startMs).toBeCloseTo(70);
    expect(img.discoveredMs).toBeCloseTo(80);
    expect(rows[3]!.discoveredMs).toBeNull();
    const axis = timeAxis(Math.max(...rows.map((r) => r.endMs!)), 400, 80);
    expect(axis.spanMs).toBe(400);
    expect(axis.ticks.map((t) => t.label)).toEqual(['0 ms', '100 ms', '200 ms', '300 ms', '400 ms']);
  });
  test('open requests have no end; empty pages lay out; falls back to timings', () => {
    const p = page();
    delete p.requests[3]!.endedAt;
    expect(observedRows(p)[3]!.endMs).toBeNull();
    expect(observedRows({ ...p, requests: [], timings: [], discoveries: [] })).toEqual([]);
    expect(observedRows({ ...p, requests: [] })).toHaveLength(3);
  });
  test('nice steps and labels', () => {
    expect([0.3, 7, 12, 30, 99, 1001].map(niceStep)).toEqual([0.5, 10, 20, 50, 100, 2000]);
    expect([0, 12.4, 999, 1000, 1234, 12_500].map(formatMs)).toEqual(['0 ms', '12 ms', '999 ms', '1 s', '1.2 s', '13 s']);
  });
});

describe('buildHar (HAR 1.2)', () => {
  const har = buildHar(page());
  const log = har.log;

  test('log, creator and page carry the required fields', () => {
    expect(log.version).toBe('1.2');
    expect(log.creator).toEqual({ name: 'getlist', version: expect.any(String) });
    expect(log.pages).toEqual([{ startedDateTime: new Date(T0).toISOString(), id: `7:${T0}`, title: 'https://a.example/index.html', pageTimings: { onContentLoad: 410, onLoad: 605 }, comment: HAR_CAPTURE_COMMENT.detailed }]);
  });

  test('every entry has every required field with the right types', () => {
    expect(log.entries).toHaveLength(4);
    for (const e of log.entries) {
      expect(e.pageref).toBe(log.pages[0]!.id);
      expect(Number.isNaN(Date.parse(e.startedDateTime))).toBe(false);
      expect(e.startedDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof e.time).toBe('number');
      expect(Object.keys(e.request).sort()).toEqual(['bodySize', 'cookies', 'headers', 'headersSize', 'httpVersion', 'method', 'queryString', 'url']);
      expect(Object.keys(e.response).sort()).toEqual(['bodySize', 'content', 'cookies', 'headers', 'headersSize', 'httpVersion', 'redirectURL', 'status', 'statusText']);
      expect(typeof e.response.content.size).toBe('number');
      expect(typeof e.response.content.mimeType).toBe('string');
      expect(e.cache).toEqual({});
      for (const k of ['send', 'wait', 'receive'] as const) expect(e.timings[k]).toBeGreaterThanOrEqual(0);
      for (const k of ['blocked', 'dns', 'connect', 'ssl'] as const) expect(e.timings[k] === -1 || e.timings[k] >= 0).toBe(true);
      // entry.time is the sum of the applicable phases (ssl is inside connect).
      const t = e.timings;
      const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((v) => v > 0).reduce((a, b) => a + b, 0);
      expect(e.time).toBeCloseTo(sum);
    }
    expect(JSON.parse(JSON.stringify(har))).toEqual(har);
  });

  test('phases from the matched Resource Timing entry; restricted or unmatched → the whole duration as wait', () => {
    const [doc, css, img, js] = log.entries;
    expect(css!.timings).toEqual({ blocked: 0, dns: 10, connect: 45, send: 0, wait: 39, receive: 10, ssl: 25 });
    expect(css!.request.httpVersion).toBe('HTTP/1.1');
    expect(css!.request.queryString).toEqual([{ name: 'v', value: '1' }, { name: 'q', value: 'a b' }]);
    expect(css!.response.bodySize).toBe(1000);
    expect(img!.timings.connect).toBe(-1);
    expect(img!.timings.dns).toBe(-1);
    expect(js!.timings).toEqual({ blocked: -1, dns: -1, connect: -1, send: 0, wait: 200, receive: 0, ssl: -1 });
    expect(js!._timingRestricted).toBe(true);
    expect(js!.response.bodySize).toBe(-1);
    expect(doc!.serverIPAddress).toBe('192.0.2.1');
    expect(doc!.response.httpVersion).toBe('HTTP/2');
    expect(doc!.response.content.mimeType).toBe('text/html');
  });

  test('a page without navigation data gets -1 page timings', () => {
    const p = { ...page(), navigation: undefined, domContentLoadedAt: undefined, loadAt: undefined };
    expect(buildHar(p).log.pages[0]!.pageTimings).toEqual({ onContentLoad: -1, onLoad: -1 });
  });

  test('helpers', () => {
    expect(harHttpVersion('h3')).toBe('HTTP/3');
    expect(harHttpVersion(undefined)).toBe('');
    expect(queryString('https://x/?a=%zz&b&=c')).toEqual([{ name: 'a', value: '%zz' }, { name: 'b', value: '' }, { name: '', value: 'c' }]);
    expect(queryString('not a url')).toEqual([]);
    expect(phases(timing({ domainLookupStart: 0, connectStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, responseEnd: 120 })).receive).toBe(20);
  });
});

describe('layoutCdfPlot', () => {
  const points = [
    { ms: 10, cdf: 0.25 },
    { ms: 20, cdf: 0.75 },
    { ms: 50, cdf: 1 },
  ];
  const margin = { top: 0, right: 0, bottom: 100, left: 0 };

  test('step path from 0 at the first point, up to each cdf, across to the right edge', () => {
    const l = layoutCdfPlot([{ name: 'total', points }], { width: 100, height: 200, margin });
    expect(l.maxMs).toBe(50);
    expect(l.plot).toEqual({ left: 0, top: 0, right: 100, bottom: 100 });
    expect(l.lines).toEqual([{ name: 'total', d: 'M20,100H20V75H40V25H100V0H100' }]);
    expect(l.axes).toBe('M0,0V100H100');
    expect(l.xTicks.map((t) => t.label)).toEqual(['0 ms', '10 ms', '20 ms', '30 ms', '40 ms', '50 ms']);
    expect(l.yTicks.map((t) => [t.y, t.label])).toEqual([[100, '0'], [75, '0.25'], [50, '0.5'], [25, '0.75'], [0, '1']]);
  });

  test('log scale spans whole decades; empty series draw no line', () => {
    const l = layoutCdfPlot([{ name: 'dns', points }, { name: 'tls', points: [] }], { width: 100, height: 200, margin, scale: 'log' });
    expect(l.lines.map((x) => x.name)).toEqual(['dns']);
    expect(l.xTicks.map((t) => [t.x, t.label])).toEqual([[0, '10 ms'], [100, '100 ms']]);
    expect(l.lines[0]!.d).toContain('H69.9');
    expect(l.lines[0]!.d.startsWith('M0,100')).toBe(true);
  });

  test('no data at all still yields axes', () => {
    const l = layoutCdfPlot([]);
    expect(l.lines).toEqual([]);
    expect(l.axes).toMatch(/^M/);
    expect(l.xTicks.length).toBeGreaterThan(1);
  });
});
