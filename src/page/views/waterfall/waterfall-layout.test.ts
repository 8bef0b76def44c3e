import type { PageRecord, TimingEntry } from '../../model/page-record';
import type { RequestRecord } from '../../../run';
import type { HandshakeRecord } from '../../../stats/handshake';
import { timeAxis } from './axis';
import { groupByConnection, inferConnections, laneSegments, sentAt } from './connections';
import { rowDetails } from './details';
import { buildWaterfallModel, connectionViewItems } from './model';
import { phasesFromRecord, phasesFromTiming, type Phase } from './phases';
import { naming, observedRows, replayRows, type WaterfallRow } from './rows';
import { virtualWindow } from './virtual-window';

const T0 = 1_700_000_000_000;

function timing(over: Partial<TimingEntry>): TimingEntry {
  return {
    name: 'https://a.test/x.png', initiatorType: 'img', startTime: 100, domainLookupStart: 100, domainLookupEnd: 100, connectStart: 100, secureConnectionStart: 0, connectEnd: 100,
    requestStart: 110, responseStart: 150, responseEnd: 170, transferSize: 1300, encodedBodySize: 1000, nextHopProtocol: 'http/1.1', restricted: false, ...over,
  };
}

function record(over: Partial<RequestRecord>): RequestRecord {
  return {
    url: 'https://a.test/x.png', method: 'GET', priority: 'image', resourceType: 'image', status: 200, bytes: 100, decodedBytes: 100, connectionId: 1, reused: false, pipelined: false, attempts: 1,
    protocol: 'http/1.1', discoveredMs: 0, sentMs: 10, ttfbMs: 20, doneMs: 30, error: null, ...over,
  };
}

/** Phases are contiguous, ordered and never negative. */
function expectContiguous(phases: readonly Phase[], from: number, to: number): void {
  expect(phases[0]?.startMs).toBeCloseTo(from, 6);
  expect(phases.at(-1)?.endMs).toBeCloseTo(to, 6);
  for (let i = 0; i < phases.length; i++) {
    const p = phases[i] as Phase;
    expect(p.endMs).toBeGreaterThan(p.startMs);
    if (i > 0) expect(p.startMs).toBeCloseTo((phases[i - 1] as Phase).endMs, 6);
  }
}

describe('phasesFromTiming', () => {
  test('a fresh TLS connection: queued, DNS, connect, TLS, waiting and download, end to end with the entry', () => {
    const t = timing({ startTime: 95, domainLookupStart: 97, domainLookupEnd: 105, connectStart: 105, secureConnectionStart: 125, connectEnd: 150, requestStart: 151, responseStart: 190, responseEnd: 200 });
    const p = phasesFromTiming(t);
    expect(p.map((x) => x.kind)).toEqual(['queued', 'dns', 'connect', 'tls', 'queued', 'wait', 'download']);
    expect(p.find((x) => x.kind === 'tls')).toEqual({ kind: 'tls', startMs: 125, endMs: 150 });
    expect(p.find((x) => x.kind === 'wait')).toEqual({ kind: 'wait', startMs: 151, endMs: 190 });
    expectContiguous(p, 95, 200);
  });

  test('a reused connection has no DNS, connect or TLS; a restricted entry is one opaque span, not zeros', () => {
    expect(phasesFromTiming(timing({})).map((x) => x.kind)).toEqual(['queued', 'wait', 'download']);
    expectContiguous(phasesFromTiming(timing({})), 100, 170);
    const hidden = timing({ domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, restricted: true, responseEnd: 320, startTime: 120 });
    expect(phasesFromTiming(hidden)).toEqual([{ kind: 'opaque', startMs: 120, endMs: 320 }]);
  });
});

describe('phasesFromRecord', () => {
  const hs: HandshakeRecord = { connectionId: 1, origin: 'https://a.test', startedAt: T0 + 2, dnsMs: 1, tcpMs: 2, tlsMs: 3, totalMs: 6, remoteAddress: '127.0.0.1', remotePort: 443, localPort: 5000, protocol: 'http/1.1', tlsVersion: 'TLSv1.3', resumed: false };

  test('the request that opened its connection draws the handshake from the host record, then waiting and download', () => {
    const p = phasesFromRecord(record({ discoveredMs: 0, sentMs: 9, ttfbMs: 20, doneMs: 30 }), { startMs: 2, record: hs });
    expect(p).toEqual([
      { kind: 'queued', startMs: 0, endMs: 2 },
      { kind: 'dns', startMs: 2, endMs: 3 },
      { kind: 'connect', startMs: 3, endMs: 5 },
      { kind: 'tls', startMs: 5, endMs: 8 },
      { kind: 'queued', startMs: 8, endMs: 9 },
      { kind: 'wait', startMs: 9, endMs: 20 },
      { kind: 'download', startMs: 20, endMs: 30 },
    ]);
  });

  test('the host\'s wait for its own tick between the lookup and the SYN is queued, and TCP and TLS end where the handshake ended', () => {
    // totalMs 8 against phases of 6: the connect started 2 ms after the lookup ended.
    const p = phasesFromRecord(record({ discoveredMs: 0, sentMs: 11, ttfbMs: 20, doneMs: 30 }), { startMs: 2, record: { ...hs, totalMs: 8 } });
    expect(p.map((x) => [x.kind, x.startMs, x.endMs])).toEqual([
      ['queued', 0, 2],
      ['dns', 2, 3],
      ['queued', 3, 5],
      ['connect', 5, 7],
      ['tls', 7, 10],
      ['queued', 10, 11],
      ['wait', 11, 20],
      ['download', 20, 30],
    ]);
  });

  test('without a handshake the wait for a connection is queued; a request never sent is all queued', () => {
    expect(phasesFromRecord(record({ discoveredMs: 1, sentMs: 5, ttfbMs: 9, doneMs: 12 })).map((x) => [x.kind, x.startMs, x.endMs])).toEqual([['queued', 1, 5], ['wait', 5, 10], ['download', 10, 12]]);
    expect(phasesFromRecord(record({ sentMs: null, ttfbMs: null, doneMs: 40, connectionId: null }))).toEqual([{ kind: 'queued', startMs: 0, endMs: 40 }]);
  });
});

function observedPage(): PageRecord {
  return {
    pageId: 'p', tabId: 1, url: 'https://a.test/index.html', startedAt: T0,
    requests: [
      { requestId: '1', url: 'https://a.test/index.html', method: 'GET', type: 'main_frame', frameId: 0, startedAt: T0, endedAt: T0 + 90, statusCode: 200 },
      { requestId: '3', url: 'https://a.test/x.png', method: 'GET', type: 'image', frameId: 0, startedAt: T0 + 100, endedAt: T0 + 170, statusCode: 200 },
      { requestId: '2', url: 'https://a.test/s.css', method: 'GET', type: 'stylesheet', frameId: 0, startedAt: T0 + 95, endedAt: T0 + 200, statusCode: 200 },
      { requestId: '4', url: 'https://cdn.test/lib.js', method: 'GET', type: 'script', frameId: 0, startedAt: T0 + 120, endedAt: T0 + 320, statusCode: 200 },
    ],
    discoveries: [{ url: 'https://a.test/x.png', kind: 'image', priority: 'visible-image', atMs: 80, inViewport: true, tag: 'img', late: false }],
    timings: [
      timing({ name: 'https://a.test/s.css', initiatorType: 'link', startTime: 95, connectStart: 105, connectEnd: 150, requestStart: 151, responseStart: 190, responseEnd: 200 }),
      timing({}),
      timing({ name: 'https://cdn.test/lib.js', startTime: 120, responseEnd: 320, restricted: true }),
    ],
    navigation: { responseStart: 60, domContentLoadedEventEnd: 410, loadEventEnd: 605, nextHopProtocol: 'http/1.1' },
    domContentLoadedAt: T0 + 400,
    loadAt: T0 + 600,
  };
}

describe('observedRows', () => {
  test('one row per request in start order, named by path with the origin only when it differs, joined to its timing', () => {
    const rows = observedRows(observedPage());
    expect(rows.map((r) => [r.name, r.origin, r.type])).toEqual([
      ['/index.html', null, 'document'],
      ['/s.css', null, 'stylesheet'],
      ['/x.png', null, 'image'],
      ['/lib.js', 'https://cdn.test', 'script'],
    ]);
    const doc = rows[0] as WaterfallRow;
    expect(doc.phases).toEqual([{ kind: 'wait', startMs: 0, endMs: 60 }, { kind: 'download', startMs: 60, endMs: 90 }]);
    expect(rows[2]?.discoveredMs).toBe(80);
    expect(rows[3]?.restricted).toBe(true);
    expect(rows[3]?.opensConnection).toBeNull();
    expect(rows[1]?.opensConnection).toBe(true);
  });

  test('a redirected request is joined to the timing entry named by the URL it first asked for (Resource Timing names it so)', () => {
    const page = observedPage();
    const img = page.requests[1] as PageRecord['requests'][number];
    page.requests[1] = { ...img, url: 'https://a.test/y.png', redirects: [{ url: 'https://a.test/x.png', statusCode: 302, startedAt: T0 + 100, endedAt: T0 + 130, redirectURL: 'https://a.test/y.png' }] };
    const row = observedRows(page).find((r) => r.url === 'https://a.test/y.png') as WaterfallRow;
    expect(row.restricted).toBe(false);
    expect(row.phases.map((x) => x.kind)).not.toContain('opaque');
    expect(row.phases.at(-1)?.endMs).toBe(170);
  });

  test('names: the host for `/`, decoded paths, the query kept', () => {
    expect(naming('https://b.test/', 'https://a.test')).toEqual({ name: 'b.test', origin: 'https://b.test' });
    expect(naming('https://a.test/caf%C3%A9.png?v=2', 'https://a.test')).toEqual({ name: '/café.png?v=2', origin: null });
  });

  test('the tooltip lists every phase and says what is not exposed', () => {
    const rows = observedRows(observedPage());
    const css = new Map(rowDetails(rows[1] as WaterfallRow));
    expect(css.get('Connect')).toBe('45 ms');
    expect(css.get('Waiting (TTFB)')).toBe('39 ms');
    expect(css.get('Size')).toBe('1300 B');
    const lib = new Map(rowDetails(rows[3] as WaterfallRow));
    expect(lib.get('Phases')).toMatch(/^not exposed/);
    expect(lib.get('Size')).toBe('not exposed');
  });
});

function row(key: string, url: string, protocol: string, opens: boolean | null, start: number, end: number): WaterfallRow {
  return {
    key, url, name: url, origin: null, type: 'image', startMs: start, endMs: end, phases: [{ kind: 'wait', startMs: start, endMs: end }], discoveredMs: null, status: 200, error: null,
    protocol, bytes: 1, opensConnection: opens, connection: null, fromCache: false, restricted: opens === null, ip: null,
  };
}

describe('inferConnections', () => {
  test('HTTP/1.1: six fresh connections, then each reuse goes on a connection idle at its send time, most recently idle first', () => {
    const fresh = Array.from({ length: 6 }, (_, i) => row(`f${i}`, `http://a.test/${i}`, 'http/1.1', true, 10, 20 + i * 10));
    const reused = [row('r0', 'http://a.test/r0', 'http/1.1', false, 25, 40), row('r1', 'http://a.test/r1', 'http/1.1', false, 35, 50)];
    const rows = inferConnections([...fresh, ...reused]);
    const lanes = groupByConnection(rows);
    expect(lanes).toHaveLength(6);
    // f0 ends at 20, f1 at 30: r0 (sent 25) can only go on f0's; r1 (sent 35) on f1's (idle since 30; f0's is busy until 40).
    const laneOf = (key: string) => rows.find((r) => r.key === key)?.connection?.key;
    expect(laneOf('r0')).toBe(laneOf('f0'));
    expect(laneOf('r1')).toBe(laneOf('f1'));
  });

  test('HTTP/2: every request of an origin shares the one connection that opened', () => {
    const rows = inferConnections([row('a', 'https://a.test/1', 'h2', true, 0, 50), ...Array.from({ length: 5 }, (_, i) => row(`b${i}`, `https://a.test/b${i}`, 'h2', false, 10, 40))]);
    expect(new Set(rows.map((r) => r.connection?.key)).size).toBe(1);
    expect(rows.every((r) => r.connection?.source === 'resource-timing')).toBe(true);
  });

  test('random HTTP/1.1 loads: no connection carries two requests at once, and hidden ones are packed without overlap', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round++) {
      const rows: WaterfallRow[] = [];
      for (let i = 0; i < 40; i++) {
        const start = rand() * 500;
        const opens = rand() < 0.3 ? null : rand() < 0.4;
        rows.push(row(`k${i}`, `http://${rand() < 0.5 ? 'a' : 'b'}.test/${i}`, 'http/1.1', opens, start, start + 1 + rand() * 100));
      }
      for (const lane of groupByConnection(inferConnections(rows))) {
        const spans = lane.rows.map((r) => [sentAt(r), r.endMs as number] as const).sort((x, y) => x[0] - y[0]);
        for (let i = 1; i < spans.length; i++) expect(spans[i]?.[0]).toBeGreaterThanOrEqual((spans[i - 1]?.[1] ?? 0) - 1);
      }
    }
  });
});

describe('replayRows', () => {
  test('host connection ids numbered per origin; the opener carries the handshake placed by its start', () => {
    const hs = (id: number): HandshakeRecord => ({ connectionId: id, origin: 'https://a.test', startedAt: T0 + 1, dnsMs: 0, tcpMs: 1, tlsMs: 2, totalMs: 3, remoteAddress: '127.0.0.1', remotePort: 1, localPort: 2, protocol: 'http/1.1', tlsVersion: 'TLSv1.3', resumed: false });
    const rows = replayRows(
      {
        strategy: 'getlist',
        startedAt: T0,
        handshakes: [hs(11), hs(12)],
        requests: [
          record({ url: 'https://a.test/', connectionId: 11, sentMs: 4, ttfbMs: 6, doneMs: 8, resourceType: 'main_frame' }),
          record({ url: 'https://a.test/a.png', connectionId: 12, sentMs: 4.5, ttfbMs: 7, doneMs: 9 }),
          record({ url: 'https://a.test/b.png', connectionId: 11, sentMs: 8, ttfbMs: 10, doneMs: 12, reused: true }),
        ],
      },
      'https://a.test/',
    );
    expect(rows.map((r) => [r.name, r.connection?.n, r.opensConnection])).toEqual([['a.test', 1, true], ['/a.png', 2, true], ['/b.png', 1, false]]);
    expect(rows[0]?.phases.map((p) => p.kind)).toEqual(['queued', 'connect', 'tls', 'wait', 'download']);
    expect(rows[2]?.phases.map((p) => p.kind)).toEqual(['queued', 'wait', 'download']);
    expect(rows[0]?.type).toBe('document');
  });
});

describe('buildWaterfallModel', () => {
  test('the observed load and each replayed strategy on one axis, with DOMContentLoaded and load markers', () => {
    const p = observedPage();
    p.replay = { status: 'done', startedAt: T0, strategies: ['getlist'], results: [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'getlist', requests: [record({ doneMs: 900 }), record({ url: 'https://a.test/y', error: { code: 'E_CONNECT_FAILED', message: 'x' } })] }] };
    const m = buildWaterfallModel(p);
    expect(m.sources.map((s) => [s.id, s.rows.length, s.valid])).toEqual([['observed', 4, true], ['getlist', 2, false]]);
    expect(m.markers).toEqual({ domContentLoadedMs: 410, loadMs: 605 });
    expect(m.lastMs).toBe(900);
    const items = connectionViewItems(m);
    expect(items.filter((i) => i.kind === 'heading').map((i) => i.source.id)).toEqual(['observed', 'getlist']);
    // Lanes never draw a request's queueing: it waited elsewhere.
    for (const i of items) if (i.kind === 'lane') expect(laneSegments(i.lane).every((s) => s.kind !== 'queued')).toBe(true);
  });
});

describe('timeAxis', () => {
  test.each([
    [1, 260],
    [173, 260],
    [2447, 260],
    [2447, 900],
    [99_999, 120],
  ])('last %p ms on %p px: round ticks at least 56 px apart, the span covers the data and ends on a tick', (lastMs, px) => {
    const a = timeAxis(lastMs, px);
    expect(a.spanMs).toBeGreaterThanOrEqual(lastMs);
    expect(a.ticks.at(-1)?.frac).toBeCloseTo(1, 9);
    expect(a.ticks.length - 1).toBeLessThanOrEqual(Math.max(1, Math.floor(px / 56)));
    const step = (a.ticks[1]?.ms ?? 0) - (a.ticks[0]?.ms ?? 0);
    expect([1, 2, 5]).toContain(Math.round(step / 10 ** Math.floor(Math.log10(step))));
    expect(a.ticks[0]?.label).toBe('0 ms');
  });
});

describe('virtualWindow', () => {
  test('every row that intersects the viewport is rendered, with the overscan, clamped to the list', () => {
    for (const [scrollTop, viewport, count] of [[0, 300, 5000], [123_456, 260, 5000], [59_990, 260, 5000], [-50, 260, 10], [10_000, 260, 10]] as const) {
      const w = virtualWindow(scrollTop, viewport, 12, count, 4);
      expect(w.totalPx).toBe(count * 12);
      expect(0).toBeLessThanOrEqual(w.first);
      expect(w.end).toBeLessThanOrEqual(count);
      const top = Math.min(Math.max(0, scrollTop), count * 12 - 1);
      for (let i = 0; i < count; i++) {
        const visible = i * 12 < top + viewport && (i + 1) * 12 > top;
        if (visible) expect(i >= w.first && i < w.end).toBe(true);
      }
      expect(w.end - w.first).toBeLessThanOrEqual(Math.ceil(viewport / 12) + 1 + 8);
    }
    expect(virtualWindow(0, 300, 12, 0)).toEqual({ first: 0, end: 0, totalPx: 0 });
  });
});
