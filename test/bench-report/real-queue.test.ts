import { realQueueLines, traceQueue } from '../../bench/real/real-queue';
import type { LoadTrace, TracedRequest } from '../../bench/run/load-trace';
import type { RealCellResult } from '../../bench/real/real-bench';

/** A connection of `origin`, up at `readyMs` after a TCP handshake of `tcpMs`. */
const conn = (id: number, origin: string, readyMs: number, tcpMs: number) => ({ id, origin, startMs: 0, readyMs, protocol: 'http/1.1', phases: { tcpMs, tlsMs: 0 } });
/** The page's document, first in every trace: 500 ms late, and never a sample (its first byte carries the server's time to make the page). */
const doc = (): TracedRequest => ({ url: 'http://a.test/', connection: 9, discoveredMs: 0, sentMs: 0, firstByteMs: 700, doneMs: 710 });
const req = (connection: number, sentMs: number, firstByteMs: number, doneMs: number, url = `http://a.test/${sentMs}-${connection}`): TracedRequest => ({ url, connection, discoveredMs: 0, sentMs, firstByteMs, doneMs });

describe('how late first bytes came beyond a round trip, read off a trace (real-queue.ts)', () => {
  test('each request its connection had to itself is a sample against its origin’s first handshake round trip', () => {
    const trace: LoadTrace = {
      connections: [conn(1, 'http://a.test', 100, 100), conn(2, 'http://a.test', 300, 160), conn(3, 'http://b.test', 100, 50), conn(9, 'http://a.test', 200, 100)],
      requests: [
        doc(),
        // a.test's round trip is its first connection's, 100 ms: 30, 30 and 40 ms late.
        req(1, 100, 230, 240),
        req(1, 240, 370, 380),
        req(2, 300, 440, 450),
        // b.test's is 50 ms: 10, 20 and 30 ms late.
        req(3, 100, 160, 170),
        req(3, 170, 240, 250),
        req(3, 250, 330, 340),
      ],
    };
    expect(traceQueue(trace)).toEqual({ medianMs: 30, samples: 6, queued: true });
  });

  test('not a sample: written before its connection was up, or behind another still outstanding (sent earlier, or earlier in the same millisecond)', () => {
    const requests = [
      doc(),
      req(1, 50, 160, 170), // before the handshake ended: its wait is the handshake's
      req(1, 200, 305, 400),
      req(1, 200, 400, 410), // written behind the one above, in the same millisecond
      req(1, 300, 420, 430), // the first is still being received
    ];
    for (let i = 0; i < 6; i++) requests.push(req(2, 500 + 110 * i, 500 + 110 * i + 101, 500 + 110 * i + 105));
    const trace: LoadTrace = { connections: [conn(1, 'http://a.test', 99.95, 100), conn(2, 'http://a.test', 400, 100), conn(9, 'http://a.test', 0, 100)], requests };
    const v = traceQueue(trace);
    // The one at 200 (up at 99.95, read 0.1 ms apart in the trace) and the six on connection 2.
    expect(v.samples).toBe(7);
    expect(v.medianMs).toBe(1);
    expect(v.queued).toBe(false);
  });

  test('one line per cell and contender, each run’s median, samples and verdict', () => {
    const one: LoadTrace = { connections: [conn(1, 'http://a.test', 100, 100), conn(9, 'http://a.test', 0, 100)], requests: [doc(), req(1, 100, 205, 210)] };
    const none: LoadTrace = { connections: [conn(1, 'http://a.test', 100, 100), conn(9, 'http://a.test', 0, 100)], requests: [doc(), req(1, 50, 205, 210)] };
    const cell = { link: 'real-100', page: 'real-news', traces: { getlist: [one, none] } } as unknown as RealCellResult;
    const lines = realQueueLines([cell], ['getlist', 'h2']).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^real-100\s+real-news\s+getlist\s+5\.0 \(1\) - {2}— \(0\) \?$/);
  });
});
