import { strategy } from '../../src/scheduler';
import { bodyFor, startRawServer, type Respond } from '../support/raw-http-server';
import { runList, sha256 } from '../support/run-list';

const SIZE = 3000;
const paths = Array.from({ length: 10 }, (_, i) => `/p${i}`);

async function loadWith(respond: Respond) {
  const server = await startRawServer(respond);
  try {
    const run = await runList(strategy('getlist', { connections: { maxPerOrigin: 1 }, pipelining: { probeSuccesses: 0 } }), paths.map((p) => ({ url: server.origin + p })));
    return { run, server };
  } finally {
    await server.close();
  }
}

/** Every idempotent request completed exactly once, with exactly the server's bytes. */
function expectAllExact(run: Awaited<ReturnType<typeof runList>>) {
  expect(run.results.map((r) => [new URL(r.url).pathname, r.error?.code, r.status])).toEqual(paths.map((p) => [p, undefined, 200]));
  for (const r of run.results) {
    expect(r.bytes).toBe(SIZE);
    expect(run.sha(r.id)).toBe(sha256(bodyFor(new URL(r.url).pathname, SIZE)));
  }
}

describe('demotion and retry against misbehaving servers', () => {
  test('server closes mid-pipeline (abrupt, requests outstanding): demoted, lost requests retried once, all exact', async () => {
    // A server (or middlebox) that breaks under pipelining: once a connection has carried 3
    // requests, a request that arrives while an earlier response is still unsent kills it.
    const { run, server } = await loadWith((req) =>
      req.index >= 3 && req.responsesSentBefore < req.index ? { body: Buffer.alloc(0), destroy: true } : { body: bodyFor(req.path, SIZE), delayMs: 5 });
    expectAllExact(run);
    expect(run.stats.demotions.map((d) => d.reason)).toContain('closed-with-outstanding');
    expect(run.stats.retries).toBeGreaterThan(0);
    expect(Math.max(...run.results.map((r) => r.attempts))).toBe(2);
    // After the demotion nothing more was pipelined: later requests arrive after the previous response.
    const lastConn = Math.max(...server.requests.map((r) => r.connection));
    expect(server.requests.filter((r) => r.connection === lastConn).every((r) => r.responsesSentBefore === r.index)).toBe(true);
  });

  test('`Connection: close` mid-pipeline is the server\'s budget (RFC 9112 §9.6): not demoted, requests behind it sent again, all exact, and no connection written past the budget', async () => {
    const { run, server } = await loadWith((req) => (req.index === 1 ? { body: bodyFor(req.path, SIZE), headers: { connection: 'close' }, closeAfter: true, delayMs: 5 } : { body: bodyFor(req.path, SIZE), delayMs: 5 }));
    expectAllExact(run);
    expect(run.stats.demotions).toEqual([]);
    // Once the first connection announced its close, no connection was written past the two
    // requests the budget allows.
    const first = Math.min(...server.requests.map((r) => r.connection));
    const later = server.requests.filter((r) => r.connection !== first);
    expect(later.length).toBeGreaterThan(0);
    expect(Math.max(...later.map((r) => r.index))).toBeLessThanOrEqual(1);
  });

  test('an HTTP/1.0 server (closes after every response): demoted for answering HTTP/1.0, all exact', async () => {
    const { run, server } = await loadWith((req) => ({ version: '1.0', body: bodyFor(req.path, SIZE), closeAfter: true }));
    expectAllExact(run);
    expect(run.stats.demotions.map((d) => d.reason)).toContain('http10');
    // Each connection carries one response.
    expect(server.connections()).toBeGreaterThanOrEqual(paths.length);
  });

  test('a POST lost with its connection is not retried', async () => {
    const server = await startRawServer((req) => (req.method === 'POST' ? { body: Buffer.alloc(0), destroy: true } : { body: bodyFor(req.path, 10) }));
    try {
      const run = await runList(strategy('getlist', { connections: { maxPerOrigin: 1 } }), [{ url: `${server.origin}/form`, method: 'POST' }]);
      expect(run.results[0]?.error?.code).toBe('E_NOT_RETRYABLE');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
