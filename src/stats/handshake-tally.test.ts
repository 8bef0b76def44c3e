import { exportPrometheus, prometheusText } from './export-formats';
import type { HandshakeRecord } from './handshake';
import { aggregateHandshakes } from './handshake-stats';
import { HandshakeTally } from './handshake-tally';
import { mulberry32 } from '../core/prng';

const ORIGINS = ['https://a.test', 'https://b.test:8443', 'http://c.test', 'https://d"quote.test'];

function randomRecords(seed: number, n: number): HandshakeRecord[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const origin = ORIGINS[Math.floor(rand() * ORIGINS.length)] as string;
    const https = origin.startsWith('https:');
    // Values on and next to the le thresholds (1 ms … 10 s) as well as spread ones.
    const pick = () => (rand() < 0.3 ? [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000][Math.floor(rand() * 10)] as number : 10 ** (rand() * 4) / 3);
    const dnsMs = rand() < 0.2 ? 0 : pick();
    // Some of the browser's connects show no end: no TCP time, no total.
    const unended = rand() < 0.1;
    const tcpMs = unended ? 0 : pick();
    const tlsMs = https ? pick() : 0;
    return {
      connectionId: i, origin, startedAt: 1_700_000_000_000 + i, dnsMs, tcpMs, tlsMs, totalMs: dnsMs + tcpMs + tlsMs,
      remoteAddress: '127.0.0.1', remotePort: 443, localPort: 50000 + i,
      protocol: https && rand() < 0.5 ? 'h2' : 'http/1.1', tlsVersion: https ? 'TLSv1.3' : undefined, resumed: https && rand() < 0.4,
      ...(unended ? { connect: 'unended' as const } : {}),
    };
  });
}

describe('HandshakeTally', () => {
  test.each([1, 2, 3])('after adds and removes it reports what HandshakeStats reports of the records left (seed %i)', (seed) => {
    const records = randomRecords(seed, 800);
    const rand = mulberry32(seed + 100);
    const tally = new HandshakeTally();
    for (const r of records) tally.add(r);
    expect(prometheusText(tally.series())).toBe(exportPrometheus(aggregateHandshakes(records)));
    const kept = records.filter((r) => {
      if (rand() < 0.6) return true;
      tally.remove(r);
      return false;
    });
    expect(tally.count).toBe(kept.length);
    expect(prometheusText(tally.series())).toBe(exportPrometheus(aggregateHandshakes(kept)));
  });

  test('a series whose records all left is gone, as it would be from a fresh aggregate', () => {
    const [a, b] = randomRecords(9, 2) as [HandshakeRecord, HandshakeRecord];
    const other = { ...b, origin: 'https://other.test' };
    const tally = new HandshakeTally();
    tally.add(a);
    tally.add(other);
    tally.remove(a);
    expect(tally.series().map((s) => s.origin)).toEqual(['https://other.test']);
    tally.remove(other);
    expect(tally.series()).toEqual([]);
    expect(prometheusText(tally.series())).toBe(exportPrometheus(aggregateHandshakes([])));
  });
});
