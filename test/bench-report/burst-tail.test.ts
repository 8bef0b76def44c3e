import { burstTail } from '../../bench/zoo/burst-tail';
import type { LoadTrace, TracedRequest } from '../../bench/run/load-trace';

const req = (url: string, connection: number, sentMs: number, firstByteMs: number, doneMs: number): TracedRequest => ({ url, connection, discoveredMs: 0, sentMs, firstByteMs, doneMs });

describe('the burst tail', () => {
  test('the last response of a pipelined burst is told from the rest: written behind an unfinished one, nothing written behind it before it ended', () => {
    const trace: LoadTrace = {
      connections: [],
      requests: [
        // Connection 1: a burst of three written at 10; the last one's tail is held 45 ms.
        req('a', 1, 10, 60, 61), req('b', 1, 10, 61, 62), req('c', 1, 10, 62, 107),
        // Then one written alone on it: not pipelined, so not a burst's last.
        req('d', 1, 107, 160, 161),
        // Connection 2: requests one at a time.
        req('e', 2, 10, 60, 61), req('f', 2, 61, 111, 112),
        // Not measured: left out.
        { url: 'g', connection: 2, discoveredMs: 0, sentMs: null, firstByteMs: null, doneMs: null },
      ],
    };
    expect(burstTail([trace])).toEqual({ lastMs: 45, bursts: 1, otherMs: 1 });
  });

  test('no pipelined burst: no figure', () => {
    expect(burstTail([{ connections: [], requests: [req('a', 1, 0, 50, 51), req('b', 1, 51, 101, 102)] }])).toEqual({ lastMs: null, bursts: 0, otherMs: 1 });
  });
});
