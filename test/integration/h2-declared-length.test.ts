import { strategy } from '../../src/scheduler';
import { bodyFor } from '../support/raw-http-server';
import { runList, sha256 } from '../support/run-list';
import { startH2FaultOrigin } from '../support/h2-fault-origin';
import { testCert } from '../support/tls-cert';

/**
 * An HTTP/2 response is whole once its DATA add up to its `Content-Length` (RFC 9113 §8.1.1), not
 * only at its END_STREAM (native-host/transport/flight.ts, `complete`). The fault injector writes
 * each body at once and sends its END_STREAM `HOLD_MS` later, and records when it did: each
 * request must complete with its own bytes before the server ended its stream, and once.
 */
const HOLD_MS = 1_500;
const size = (path: string) => 9_000 + Number(path.replace(/\D/g, '')) * 1_001;

describe('an HTTP/2 body whole at its declared length', () => {
  test.each(['getlist', 'h2'] as const)('%s: each request completes with its own bytes before its END_STREAM, sent once', async (name) => {
    const server = await startH2FaultOrigin({ kind: 'late-end', holdMs: HOLD_MS }, size);
    try {
      const paths = Array.from({ length: 6 }, (_, i) => `/sheet${i}.css`);
      const run = await runList(strategy(name), paths.map((p) => ({ url: server.origin + p, priority: 'blocking', resourceType: 'stylesheet' })), { ca: testCert().cert });
      // The server's END_STREAMs go out after their hold, whether or not the client is still there.
      const deadline = performance.now() + 2 * HOLD_MS;
      while (server.endedAt.size < paths.length && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const seen = run.results.map((r) => {
        const path = new URL(r.url).pathname;
        const endedAt = server.endedAt.get(path) ?? -Infinity;
        return { path, status: r.status, error: r.error?.code, attempts: r.attempts, own: run.sha(r.id) === sha256(bodyFor(path, size(path))), beforeEnd: r.doneAt < endedAt };
      });
      expect(seen).toEqual(paths.map((path) => ({ path, status: 200, error: undefined, attempts: 1, own: true, beforeEnd: true })));
      // The server's clock: no END_STREAM went out before its hold, so the completions did not wait for one.
      const first = Math.min(...run.results.map((r) => r.sentAt ?? Infinity));
      expect(Math.max(...run.results.map((r) => r.doneAt)) - first).toBeLessThan(HOLD_MS);
    } finally {
      await server.close();
    }
  }, 30_000);
});
