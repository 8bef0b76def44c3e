import { parseSsTin } from '../../bench/trace/ss-sample';
import { ALL_CONTENDERS, CONTENDER_SCHEME, CONTENDER_STRATEGY, HTTP11_CELL_CONTENDERS, SPDY_CELL_CONTENDERS, fullPlan, planLoads, quickPlan, rotation } from '../../bench/run/bench-matrix';
import { serverView } from '../../bench/run/access-log-delta';
import { chromiumTiming } from '../../bench/run/chromium-timing';
import { firstLoadRun, lastLoadRun, parseGetlistJson } from '../../bench/run/getlist-contender';
import { linkPreset, linkPresetNames } from '../../bench/run/link-presets';
import { dependencyDepth, pageInfo } from '../../bench/run/page-info';
import type { RunResult } from '../../bench/run/results-schema';
import { summariseRuns } from '../../bench/run/summarize-runs';
import { getBenchPage } from '../../bench/corpus/bench-corpus';
import type { AccessLogEntry } from '../../bench/origins/access-log';

describe('link presets', () => {
  test('named presets carry the numbers of the papers they reproduce', () => {
    expect(linkPreset('pm95')).toEqual({ rttMs: 70, downBitsPerSec: 1_544_000, upBitsPerSec: 1_544_000, loss: 0 });
    expect(linkPreset('mcmanus-300').rttMs).toBe(300);
    expect(linkPreset('spdy-dsl-120-0.5')).toEqual({ rttMs: 120, downBitsPerSec: 2_000_000, upBitsPerSec: 375_000, loss: 0.005 });
    expect(linkPreset('mobile')).toEqual({ rttMs: 150, downBitsPerSec: 1_600_000, upBitsPerSec: 750_000, loss: 0 });
    expect(linkPresetNames()).toHaveLength(4 + 24);
  });
  test('an unknown preset names the valid ones', () => {
    expect(() => linkPreset('spdy-dsl-90-0')).toThrow(/spdy-dsl-<20\|40/);
    expect(() => linkPreset('dsl')).toThrow(expect.objectContaining({ code: 'E_BENCH_UNKNOWN_LINK' }));
  });
});

describe('matrix', () => {
  test('full: P&M pages on pm95, mcmanus-159 on both McManus links, almanac and mcmanus-159 on 24 DSL links and mobile', () => {
    const plan = fullPlan();
    expect(plan.runs).toBe(5);
    expect(plan.links.map((l) => l.link)).toEqual(expect.arrayContaining(['pm95', 'mcmanus-100', 'mcmanus-300', 'spdy-dsl-20-0', 'spdy-dsl-200-2', 'mobile']));
    expect(plan.links).toHaveLength(3 + 24 + 1);
    expect(plan.links[0]?.cells.map((c) => c.page)).toHaveLength(10);
    for (const l of plan.links) {
      const want = l.link.startsWith('spdy-dsl-') || l.link === 'mobile' ? SPDY_CELL_CONTENDERS : HTTP11_CELL_CONTENDERS;
      for (const c of l.cells) expect(c.contenders).toEqual(want);
    }
    for (const l of plan.links) expect(() => linkPreset(l.link)).not.toThrow();
    expect(plan.links.find((l) => l.link === 'spdy-dsl-80-0')?.cells.map((c) => c.page)).toEqual(['almanac-median', 'almanac-p90', 'mcmanus-159']);
    expect(planLoads(plan)).toBe(((10 + 1 + 1) * 9 + 25 * 3 * 7) * 5);
  });
  test('quick is a subset with 3 runs; one DSL link, 2 runs, the SPDY comparison over https', () => {
    const q = quickPlan();
    expect(q.runs).toBe(3);
    const full = fullPlan();
    for (const l of q.links) {
      const f = full.links.find((x) => x.link === l.link);
      for (const c of l.cells) {
        const fc = f?.cells.find((x) => x.page === c.page);
        expect(fc).toBeDefined();
        for (const k of c.contenders) expect(fc?.contenders).toContain(k);
      }
    }
    expect(q.links.map((l) => [l.link, l.runs])).toEqual([['pm95', undefined], ['mcmanus-100', undefined], ['spdy-dsl-80-0', 2]]);
    expect(q.links[2]?.cells[0]?.contenders).toEqual(['chromium-h1', 'browser-tls', 'getlist-tls', 'h2', 'chromium-h2']);
    expect(planLoads(q)).toBe(3 * 9 * 3 + 7 * 3 + 5 * 2);
  });
  test('rotation moves the first contender by one each run and keeps every one', () => {
    expect(rotation(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(rotation(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(rotation(['a', 'b', 'c'], 5)).toEqual(['c', 'a', 'b']);
    expect(rotation([], 3)).toEqual([]);
  });
  test('the scheme is part of the contender: getlist and browser over http, their -tls twins over https', () => {
    expect(ALL_CONTENDERS.filter((c) => CONTENDER_SCHEME[c] === 'http')).toEqual(['http10', 'serial', 'browser', 'pipelined', 'getlist', 'chromium-h1']);
    expect(ALL_CONTENDERS.filter((c) => CONTENDER_SCHEME[c] === 'https')).toEqual(['browser-tls', 'getlist-tls', 'h2', 'chromium-h2']);
    expect([CONTENDER_STRATEGY['getlist-tls'], CONTENDER_STRATEGY['browser-tls'], CONTENDER_STRATEGY.getlist]).toEqual(['getlist', 'browser', 'getlist']);
  });
});

describe('summaries', () => {
  const run = (totalMs: number | null, extra: Partial<RunResult> = {}): RunResult => ({
    totalMs, meanTtfbMs: totalMs === null ? null : totalMs / 2, connectionsOpened: 2, requestsPerConnection: 3, errors: 0, serverRequests: 6, protocols: [], ...extra,
  });
  test('median, min and max per field, failed runs left out', () => {
    const s = summariseRuns([run(300), run(100), run(200), run(null, { errors: 1, error: { code: 'E_RUN_TIMEOUT', message: 'x' } })]);
    expect(s.median).toEqual({ totalMs: 200, meanTtfbMs: 100, connectionsOpened: 2, requestsPerConnection: 3, errors: 0 });
    expect(s.min.totalMs).toBe(100);
    expect(s.max.totalMs).toBe(300);
  });
  test('an even count takes the mean of the middle two; no good run gives nulls', () => {
    expect(summariseRuns([run(100), run(201)]).median.totalMs).toBe(150.5);
    expect(summariseRuns([run(null, { error: { code: 'E', message: '' } })]).median.totalMs).toBeNull();
  });
});

describe('access log per run', () => {
  const entry = (connection: number, status = 200, protocol = 'HTTP/1.1'): AccessLogEntry => ({
    msec: 1, origin: 'www.example.test', port: 80, connection, connectionRequests: 1, protocol, status, bytes: 10, requestTime: 0, method: 'GET', path: '/x',
  });
  test('distinct $connection serials are connections; requests per connection is their ratio', () => {
    const log = [entry(7), entry(8), entry(7), entry(9, 404), entry(7, 200, 'HTTP/2.0')];
    expect(serverView(log.slice(1))).toEqual({ requests: 4, connectionsOpened: 3, requestsPerConnection: 1.333, non2xx: 1, protocols: ['HTTP/1.1', 'HTTP/2.0'], paths: ['/x', '/x', '/x', '/x'] });
  });
  test('an empty slice has no connections', () => {
    expect(serverView([])).toEqual({ requests: 0, connectionsOpened: 0, requestsPerConnection: 0, non2xx: 0, protocols: [], paths: [] });
  });
});

describe('Chromium timing', () => {
  const nav = { name: 'http://www.example.test/', startTime: 0, responseStart: 150, responseEnd: 160, nextHopProtocol: 'http/1.1' };
  test('total is navigation start to the last responseEnd; TTFB is the mean of responseStart − startTime', () => {
    const res = [
      { name: 'a', startTime: 170, responseStart: 250, responseEnd: 400, nextHopProtocol: 'http/1.1' },
      { name: 'b', startTime: 170, responseStart: 330, responseEnd: 350, nextHopProtocol: 'h2' },
    ];
    expect(chromiumTiming(nav, res)).toEqual({ totalMs: 400, meanTtfbMs: (150 + 80 + 160) / 3, requests: 3, protocols: ['h2', 'http/1.1'], urls: [nav.name, 'a', 'b'] });
  });
  test('no finished navigation gives undefined', () => {
    expect(chromiumTiming(undefined, [])).toBeUndefined();
    expect(chromiumTiming({ ...nav, responseEnd: 0 }, [])).toBeUndefined();
  });
});

describe('getlist CLI output', () => {
  test('reads runs[0] and the negotiated protocols', () => {
    const out = JSON.stringify({ url: 'u', runs: [{ strategy: 'h2', totalMs: 500, meanTtfbMs: 120, connectionsOpened: 1, errors: 0, handshakes: [{ protocol: 'h2' }] }] });
    expect(parseGetlistJson(out)).toEqual({ totalMs: 500, meanTtfbMs: 120, connectionsOpened: 1, errors: 0, protocols: ['h2'] });
  });
  test('the last run instead, for a contender that measures the visit after a revisit (--repeat 2)', () => {
    const out = JSON.stringify({ url: 'u', runs: [{ totalMs: 700 }, { totalMs: 550 }] });
    expect(firstLoadRun(out)).toEqual({ totalMs: 700 });
    expect(lastLoadRun(out)).toEqual({ totalMs: 550 });
    expect(() => lastLoadRun('{"runs":[]}')).toThrow(expect.objectContaining({ code: 'E_RUN_BAD_OUTPUT' }));
    expect(() => lastLoadRun('not json')).toThrow(expect.objectContaining({ code: 'E_RUN_BAD_OUTPUT' }));
  });
  test('anything else is E_RUN_BAD_OUTPUT', () => {
    expect(() => parseGetlistJson('')).toThrow(expect.objectContaining({ code: 'E_RUN_BAD_OUTPUT' }));
    expect(() => parseGetlistJson('{"runs":[]}')).toThrow(expect.objectContaining({ code: 'E_RUN_BAD_OUTPUT' }));
  });
});

describe('page info', () => {
  test('pm95 pages are one level deep below the document; almanac pages reach CSS-discovered resources', () => {
    const pm = getBenchPage('pm95-2544-10');
    expect(pageInfo(pm)).toEqual({ requests: 11, bytes: expect.any(Number), origins: 1, dependencyDepth: 2 });
    expect(dependencyDepth(getBenchPage('mcmanus-159'))).toBe(3);
    expect(pageInfo(getBenchPage('almanac-median')).origins).toBe(10);
  });
});

describe('parseSsTin', () => {
  it('reads cwnd, bytes acked and RTT per peer, and skips sockets that are not established', () => {
    const out = [
      'State  Recv-Q Send-Q Local Address:Port  Peer Address:Port Process',
      'ESTAB  0      0      198.19.0.1:80       198.18.0.1:53632',
      '\t cubic wscale:7,7 rto:304 rtt:101.2/0.5 ato:40 mss:1448 pmtu:1500 rcvmss:536 advmss:1448 cwnd:27 bytes_sent:22594 bytes_acked:22594 segs_out:20',
      'LISTEN 0      511    198.19.0.1:80       0.0.0.0:*',
      'ESTAB  0      0      198.19.0.1:80       198.18.0.1:53648',
      '\t reno wscale:7,7 rto:300 rtt:100.1/0.2 mss:1448 cwnd:10 bytes_sent:0',
    ].join('\n');
    const s = parseSsTin(out);
    expect(s['198.18.0.1:53632']).toEqual({ cwnd: 27, bytesAcked: 22594, rttMs: 101.2, retransTotal: 0, unacked: 0, bytesSent: 22594 });
    expect(s['198.18.0.1:53648']?.cwnd).toBe(10);
    expect(Number.isNaN(s['198.18.0.1:53648']?.bytesAcked)).toBe(true);
    expect(Object.keys(s)).toHaveLength(2);
  });
});
