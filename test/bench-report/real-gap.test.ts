import { realBound } from '../../bench/real/real-bounds';
import { gapParts } from '../../bench/real/real-gap';
import type { LoadTrace } from '../../bench/run/load-trace';

describe('the gap to the bound, in four parts', () => {
  const bound = realBound('pm95-2544-20', { rttMs: 50, capBitsPerSec: undefined }, 'first');
  const last = bound.requests.reduce((a, r) => (r.completeMs > a.completeMs ? r : a));
  const url = `http://${last.key}`;
  const doc = bound.requests.find((r) => r.level === 0);

  function trace(discoveredMs: number, sentMs: number, doneMs: number, conn: { startMs: number; readyMs: number }): LoadTrace {
    return {
      requests: [
        { url: `http://${doc?.key ?? ''}`, connection: 1, discoveredMs: 0, sentMs: 0, firstByteMs: 100, doneMs: 110 },
        { url, connection: 2, discoveredMs, sentMs, firstByteMs: sentMs + 50, doneMs },
      ],
      connections: [{ id: 1, origin: 'www.example.test', startMs: 0, readyMs: 50, protocol: 'http/1.1' }, { id: 2, origin: 'www.example.test', ...conn, protocol: 'http/1.1' }],
    };
  }

  test('the parts sum to the gap, and each takes its own delay', () => {
    // Discovered 30 ms late, waited 40 ms on its connection's handshake and 25 more in a queue.
    const discovered = last.discoveredMs + 30;
    const sent = discovered + 65;
    const done = sent + (last.completeMs - last.requestMs) + 12;
    const p = gapParts(trace(discovered, sent, done, { startMs: discovered - 10, readyMs: discovered + 40 }), bound);
    expect(p).toBeDefined();
    const { gapMs, discoveryMs, handshakesMs, queueingMs, bandwidthMs } = p ?? { gapMs: NaN, discoveryMs: NaN, handshakesMs: NaN, queueingMs: NaN, bandwidthMs: NaN };
    expect(discoveryMs + handshakesMs + queueingMs + bandwidthMs).toBeCloseTo(gapMs, 6);
    expect(gapMs).toBeCloseTo(done - bound.totalMs, 6);
    expect(discoveryMs).toBeCloseTo(30, 6);
    const boundWait = last.requestMs - last.discoveredMs;
    expect(handshakesMs + queueingMs).toBeCloseTo(65 - boundWait, 6);
    expect(handshakesMs).toBeCloseTo(40 - Math.min(boundWait, 40), 6);
    expect(bandwidthMs).toBeCloseTo(12 + last.completeMs - bound.totalMs, 6);
  });

  test('a trace whose last request the bound does not know has no parts', () => {
    const t = trace(10, 20, 9_999, { startMs: 0, readyMs: 1 });
    t.requests[1] = { ...(t.requests[1] as LoadTrace['requests'][number]), url: 'http://elsewhere.test/x' };
    expect(gapParts(t, bound)).toBeUndefined();
  });
});
