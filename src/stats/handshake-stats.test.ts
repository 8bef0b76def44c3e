import { mulberry32 } from '../core/prng';
import { HANDSHAKE_PHASES, phaseMs, type HandshakeRecord } from './handshake';
import { ALL_KEY, EXACT_THRESHOLDS_MS, HandshakeStats, aggregateHandshakes, orderedPhases, statsToJSON, summarizeHistogram } from './handshake-stats';
import { Histogram } from './histogram';

const ORIGINS = ['https://a.test', 'https://b.test:8443', 'http://c.test'];

function randomRecords(seed: number, n: number): HandshakeRecord[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const origin = ORIGINS[Math.floor(rand() * ORIGINS.length)] as string;
    const https = origin.startsWith('https:');
    const dnsMs = rand() < 0.2 ? 0 : 10 ** (rand() * 2);
    const tcpMs = 10 ** (rand() * 3);
    const tlsMs = https ? 10 ** (rand() * 3) : 0;
    return {
      connectionId: i, origin, startedAt: 1_700_000_000_000 + i, dnsMs, tcpMs, tlsMs, totalMs: dnsMs + tcpMs + tlsMs,
      remoteAddress: '127.0.0.1', remotePort: 443, localPort: 50000 + i,
      protocol: https && rand() < 0.5 ? 'h2' : 'http/1.1', tlsVersion: https ? 'TLSv1.3' : undefined, resumed: https && rand() < 0.4,
    };
  });
}

function histogramOf(values: number[]): Histogram {
  const h = new Histogram();
  for (const v of values) h.record(v);
  return h;
}

describe('aggregateHandshakes', () => {
  test('an unended connect counts as a connection but gives no TCP time and no total', () => {
    const [a, b] = randomRecords(3, 2).map((r) => ({ ...r, origin: 'http://c.test', tlsMs: 0, resumed: false, protocol: 'http/1.1' as const, dnsMs: 5, totalMs: 5 + r.tcpMs })) as [HandshakeRecord, HandshakeRecord];
    const unended: HandshakeRecord = { ...b, connectionId: 9, tcpMs: 0, totalMs: 5, connect: 'unended' };
    const g = aggregateHandshakes([a, b, unended]).groups().find((x) => x.group === 'all');
    expect(g?.count).toBe(3);
    expect(g?.phases.get('dns')?.histogram.toJSON()).toEqual(histogramOf([5, 5, 5]).toJSON());
    expect(g?.phases.get('tcp')?.histogram.toJSON()).toEqual(histogramOf([a.tcpMs, b.tcpMs]).toJSON());
    expect(g?.phases.get('total')?.histogram.toJSON()).toEqual(histogramOf([a.totalMs, b.totalMs]).toJSON());
  });

  const records = randomRecords(7, 600);
  const stats = aggregateHandshakes(records);
  const groups = stats.groups();
  const find = (group: string, key: string) => groups.find((g) => g.group === group && g.key === key);

  test('every group holds exactly the histograms of its records (merges are exact)', () => {
    const cases: Array<[string, string, (r: HandshakeRecord) => boolean]> = [
      ['all', ALL_KEY, () => true],
      ...ORIGINS.map((o): [string, string, (r: HandshakeRecord) => boolean] => ['origin', o, (r) => r.origin === o]),
      ['protocol', 'h2', (r) => r.protocol === 'h2'],
      ['protocol', 'http/1.1', (r) => r.protocol === 'http/1.1'],
      ['tls', 'full', (r) => r.origin.startsWith('https:') && !r.resumed],
      ['tls', 'resumed', (r) => r.origin.startsWith('https:') && r.resumed === true],
    ];
    for (const [group, key, match] of cases) {
      const g = find(group, key);
      const mine = records.filter(match);
      expect(g?.count).toBe(mine.length);
      const anyTls = mine.some((r) => r.origin.startsWith('https:'));
      const phases = group === 'tls' ? ['tls', 'total'] : HANDSHAKE_PHASES.filter((p) => p !== 'tls' || anyTls);
      expect(g ? [...orderedPhases(g)].map(([p]) => p) : []).toEqual(phases);
      for (const phase of phases) {
        // The tls phase only counts connections that had one.
        const values = mine.filter((r) => phase !== 'tls' || r.origin.startsWith('https:')).map((r) => phaseMs(r, phase as 'tls'));
        expect(g?.phases.get(phase as 'tls')?.histogram.toJSON()).toEqual(histogramOf(values).toJSON());
      }
    }
    expect(groups.filter((g) => g.group === 'tls').map((g) => g.key)).toEqual(['full', 'resumed']);
  });

  test('the tls phase leaves out plain http connections instead of counting them as 0', () => {
    const http = find('origin', 'http://c.test');
    expect(http?.phases.has('tls')).toBe(false);
    const all = find('all', ALL_KEY);
    const https = records.filter((r) => r.origin.startsWith('https:')).length;
    expect(all?.phases.get('tls')?.histogram.count).toBe(https);
    expect(all?.phases.get('total')?.histogram.count).toBe(records.length);
  });

  test('stats merged from parts, in any order, equal the stats of the whole', () => {
    const parts = [records.slice(0, 100), records.slice(100, 350), records.slice(350)];
    const merged = new HandshakeStats().merge(aggregateHandshakes(parts[2] as HandshakeRecord[])).merge(aggregateHandshakes(parts[0] as HandshakeRecord[])).merge(aggregateHandshakes(parts[1] as HandshakeRecord[]));
    expect(merged.count).toBe(records.length);
    expect(statsToJSON(merged)).toEqual(statsToJSON(stats));
    expect(merged.series().map((s) => s.phases.get('total')?.atOrBelow)).toEqual(stats.series().map((s) => s.phases.get('total')?.atOrBelow));
  });

  test('exact threshold counts are counts of raw values ≤ each threshold, boundaries included', () => {
    const onEdges = EXACT_THRESHOLDS_MS.flatMap((t) => [t, t + 1e-9, t - 1e-9]);
    const base = randomRecords(1, 1)[0] as HandshakeRecord;
    const s = aggregateHandshakes(onEdges.map((ms, i) => ({ ...base, connectionId: i, totalMs: ms })));
    const total = s.series()[0]?.phases.get('total');
    expect(total?.atOrBelow).toEqual(EXACT_THRESHOLDS_MS.map((t) => onEdges.filter((v) => v <= t).length));
  });

  test('summaries report count, exact min/max, mean, the five percentiles and the CDF', () => {
    const values = [0.5, 1, 2, 3, 4, 5, 6, 7, 8, 100];
    const h = histogramOf(values);
    const s = summarizeHistogram(h);
    expect(s).toMatchObject({ count: 10, min: 0.5, max: 100 });
    expect(s.mean).toBeCloseTo(13.65, 3);
    for (const [key, p] of [['p50', 50], ['p75', 75], ['p90', 90], ['p95', 95], ['p99', 99]] as const) expect(s[key]).toBe(h.percentile(p));
    // Nearest rank, reported at most one bucket (1/128) above the true value.
    expect(s.p50).toBeGreaterThanOrEqual(4);
    expect(s.p50).toBeLessThanOrEqual(4 * (1 + 1 / 128));
    expect(s.p99).toBe(100);
    expect(s.cdf.at(-1)).toEqual({ ms: 100, cdf: 1, count: 10 });
  });

  test('no records: no groups, count 0', () => {
    const empty = aggregateHandshakes([]);
    expect(empty.count).toBe(0);
    expect(empty.groups()).toEqual([]);
    expect(statsToJSON(empty)).toEqual({ count: 0, groups: [] });
  });
});
