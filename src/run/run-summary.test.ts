import type { RequestResult, SchedulerStats } from '../scheduler';
import type { HandshakeRecord } from '../stats/handshake';
import { Histogram } from '../stats/histogram';
import { buildRun, runToJson, summarizeRun, summarizeStrategies, type Run } from '.';

const T0 = 1000;
const stats: SchedulerStats = { connectionsOpened: 2, dispatches: 4, retries: 1, demotions: [], pauses: 0, orderProbes: 0 };

function result(id: number, over: Partial<RequestResult> = {}): RequestResult {
  return {
    id, url: `https://a.test/${id}`, method: 'GET', priority: 'image', origin: 'https://a.test', resourceType: 'image',
    discoveredAt: T0 + id, queuedAt: T0 + id, sentAt: T0 + id + 10, firstByteAt: T0 + id + 30, doneAt: T0 + id + 50,
    status: 200, bytes: 100 * id, connectionId: id % 2, reused: id > 1, pipelined: false, attempts: 1, protocol: 'http/1.1', error: undefined, ...over,
  };
}

function handshake(connectionId: number, totalMs: number): HandshakeRecord {
  return {
    connectionId, origin: 'https://a.test', startedAt: 5, dnsMs: 0, tcpMs: totalMs / 2, tlsMs: totalMs / 2, totalMs,
    remoteAddress: '127.0.0.1', remotePort: 443, localPort: 40000 + connectionId, protocol: 'http/1.1', tlsVersion: 'TLSv1.3', resumed: false,
  };
}

const failed = result(4, { sentAt: undefined, firstByteAt: undefined, status: undefined, connectionId: undefined, protocol: undefined, resourceType: undefined, bytes: 0, doneAt: T0 + 80, error: { code: 'E_CONNECT_FAILED', message: 'refused' } });

function run(strategy: Run['strategy'], totalShift = 0, handshakes = [handshake(0, 20), handshake(1, 40)]): Run {
  return buildRun({
    url: 'https://a.test/', strategy, startedAt: 1_700_000_000_000, t0: T0,
    results: [result(3, { doneAt: T0 + 53 + totalShift }), result(1), failed, result(2)],
    handshakes, stats,
  });
}

describe('buildRun', () => {
  test('records are in id order, times relative to t0, TTFB from discovery; figures agree with the records', () => {
    const r = run('getlist');
    expect(r.requests.map((q) => q.url)).toEqual([1, 2, 3, 4].map((i) => `https://a.test/${i}`));
    expect(r.requests[0]).toEqual({
      url: 'https://a.test/1', method: 'GET', priority: 'image', resourceType: 'image', status: 200, bytes: 100, decodedBytes: 100, connectionId: 1, reused: false, pipelined: false,
      attempts: 1, protocol: 'http/1.1', discoveredMs: 1, sentMs: 11, ttfbMs: 30, doneMs: 51, error: null,
    });
    // Three successes on two connections, one failure; the failure's done time is the last.
    expect(r).toMatchObject({ totalMs: 80, meanTtfbMs: 30, connectionsOpened: 2, requestsPerConnection: 1.5, bytes: 600, errors: 1, retries: 1, pauses: 0 });
    // A replayed list skips nothing and matches no CSS.
    expect(r).toMatchObject({ skipped: [], unmatchedCssUrls: 0 });
  });

  test('decoded bytes by request id for encoded bodies (wire bytes and figures unchanged); skipped and unmatched CSS kept', () => {
    const skipped = [{ url: 'http://a.test/x.js', resourceType: 'script', reason: 'mixed-content' as const }];
    const r = buildRun({
      url: 'https://a.test/', strategy: 'getlist', startedAt: 1, t0: T0, results: [result(1), result(2)], handshakes: [], stats,
      decodedBytes: new Map([[2, 731]]), skipped, unmatchedCssUrls: 3,
    });
    expect(r.requests.map((q) => [q.bytes, q.decodedBytes])).toEqual([[100, 100], [200, 731]]);
    expect(r.bytes).toBe(300);
    expect(r).toMatchObject({ skipped, unmatchedCssUrls: 3 });
    expect(r.skipped).not.toBe(skipped);
    expect(JSON.parse(JSON.stringify(runToJson(r, 1)))).toEqual({ ...r, repeat: 1 });
  });

  test('"not measured" is null, never undefined or NaN, and the JSON reads back as the same run', () => {
    const r = run('getlist');
    expect(r.requests[3]).toMatchObject({ status: null, connectionId: null, protocol: null, resourceType: null, sentMs: null, ttfbMs: null, error: { code: 'E_CONNECT_FAILED', message: 'refused' } });
    for (const q of r.requests) for (const v of Object.values(q)) expect(v === undefined || Number.isNaN(v)).toBe(false);
    const json = runToJson(r, 2);
    expect(JSON.parse(JSON.stringify(json))).toEqual({ ...r, repeat: 2 });
  });
});

describe('summaries', () => {
  test('one run: its own figures and the percentiles of its own handshakes', () => {
    const r = run('getlist');
    const h = new Histogram();
    h.record(20);
    h.record(40);
    expect(summarizeRun(r)).toEqual({
      strategy: 'getlist', totalMs: 80, meanTtfbMs: 30, connectionsOpened: 2, requestsPerConnection: 1.5, requests: 4, bytes: 600, errors: 1,
      handshakeP50Ms: h.percentile(50), handshakeP90Ms: h.percentile(90),
    });
  });

  test('a run that opened no connection has null handshake percentiles', () => {
    expect(summarizeRun(run('http10', 0, []))).toMatchObject({ connectionsOpened: 0, handshakeP50Ms: null, handshakeP90Ms: null });
    expect(summarizeStrategies([run('http10', 0, [])])[0]).toMatchObject({ handshakeP50Ms: null, handshakeP90Ms: null });
  });

  test('several runs: per strategy in first-seen order, medians of figures, errors summed, handshakes pooled', () => {
    // getlist's totals: 80, 120, 100 (the failed request is last at 80 unless request 3 ends later).
    const runs = [run('getlist'), run('browser', 10), run('getlist', 67), run('getlist', 47)];
    const rows = summarizeStrategies(runs);
    expect(rows.map((s) => [s.strategy, s.runs])).toEqual([['getlist', 3], ['browser', 1]]);
    expect(rows[0]).toMatchObject({ totalMs: 100, errors: 3, requests: 4, connectionsOpened: 2 });
    const pooled = new Histogram();
    for (const x of [20, 40, 20, 40, 20, 40]) pooled.record(x);
    expect(rows[0]?.handshakeP90Ms).toBe(pooled.percentile(90));
    expect(rows[1]).toMatchObject({ totalMs: 80, errors: 1 });
  });
});
