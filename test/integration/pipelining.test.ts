import { strategy } from '../../src/scheduler';
import { bodyFor, startRawServer } from '../support/raw-http-server';
import { runList, sha256 } from '../support/run-list';

const size = (path: string) => 1000 + (path.length * 37) % 500;

describe('pipelining on the wire', () => {
  test('getlist pipelines requests on one connection: they arrive before earlier responses are sent', async () => {
    // Requests of no known type: only the framing probe (a HEAD ahead of its GET, order-probe.ts),
    // which needs a server that announces keep-alive, can prove that this origin keeps order.
    const server = await startRawServer((req) => ({ body: bodyFor(req.path, size(req.path)), delayMs: 30, headers: { connection: 'keep-alive' } }));
    try {
      const paths = Array.from({ length: 12 }, (_, i) => `/img${i}.gif`);
      const run = await runList(strategy('getlist', { connections: { maxPerOrigin: 1 } }), paths.map((p) => ({ url: server.origin + p })));
      expect(run.results.map((r) => r.error)).toEqual(paths.map(() => undefined));
      expect(server.connections()).toBe(1);
      // At least one request reached the server while earlier responses on its connection were unsent.
      const early = server.requests.filter((r) => r.responsesSentBefore < r.index);
      expect(early.length).toBeGreaterThan(0);
      // Every request the server saw arrive early was sent pipelined. The client may also flag one
      // more per connection: pipelining starts at the first keep-alive response header, so the
      // request sent then is written while that response's body is still arriving, yet the server
      // may have finished writing it already.
      const flagged = new Set(run.results.filter((r) => r.pipelined).map((r) => new URL(r.url).pathname));
      for (const r of early) expect(flagged.has(r.path)).toBe(true);
      expect(flagged.size - early.length).toBeLessThanOrEqual(server.connections());
      for (const r of run.results) expect(run.sha(r.id)).toBe(sha256(bodyFor(new URL(r.url).pathname, size(new URL(r.url).pathname))));
    } finally {
      await server.close();
    }
  });

  test('browser never pipelines: every request arrives after the previous response on its connection', async () => {
    const server = await startRawServer((req) => ({ body: bodyFor(req.path, 500), delayMs: 5 }));
    try {
      const run = await runList(strategy('browser'), Array.from({ length: 20 }, (_, i) => ({ url: `${server.origin}/r${i}` })));
      expect(run.results.every((r) => !r.error && !r.pipelined)).toBe(true);
      expect(server.requests.every((r) => r.responsesSentBefore === r.index)).toBe(true);
      expect(server.connections()).toBeLessThanOrEqual(6);
    } finally {
      await server.close();
    }
  });

  test('a document enqueued last is sent first', async () => {
    const server = await startRawServer((req) => ({ body: bodyFor(req.path, 100) }));
    try {
      const items = [
        { url: `${server.origin}/a.png`, priority: 'image' as const },
        { url: `${server.origin}/b.js`, priority: 'script' as const },
        { url: `${server.origin}/c.css`, priority: 'blocking' as const },
        { url: `${server.origin}/index.html`, priority: 'document' as const },
      ];
      await runList(strategy('serial', { ordering: 'priorities' }), items);
      expect(server.requests.map((r) => r.path)).toEqual(['/index.html', '/c.css', '/b.js', '/a.png']);
    } finally {
      await server.close();
    }
  });

  test('http10 opens a connection per request and asks the server to close', async () => {
    const server = await startRawServer((req) => ({ body: bodyFor(req.path, 100), ...(req.headers['connection'] === 'close' ? { closeAfter: true, headers: { connection: 'close' } } : {}) }));
    try {
      const run = await runList(strategy('http10'), Array.from({ length: 5 }, (_, i) => ({ url: `${server.origin}/r${i}` })));
      expect(run.results.every((r) => !r.error && !r.reused)).toBe(true);
      expect(server.connections()).toBe(5);
      expect(server.requests.map((r) => [r.index, r.headers['connection']])).toEqual(Array(5).fill([0, 'close']));
    } finally {
      await server.close();
    }
  });
});

describe('decoupling requests from connections', () => {
  test('a queued request is served by the connection that frees first, not the one still handshaking', async () => {
    const server = await startRawServer((req) => ({ body: bodyFor(req.path, 200) }));
    try {
      // Connection 1's handshake is slow; connection 2's is fast.
      const run = await runList(
        strategy('browser', { connections: { maxPerOrigin: 2 } }),
        [{ url: `${server.origin}/a` }, { url: `${server.origin}/b` }],
        { handshakeDelayMs: (_o, id) => (id === 1 ? 1500 : 0) },
      );
      expect(run.results.map((r) => [r.connectionId, r.reused])).toEqual([[2, false], [2, true]]);
      // On the wire: both requests on one TCP connection, one after the other.
      expect(server.requests.map((r) => [r.connection, r.index])).toEqual([[server.requests[0]?.connection, 0], [server.requests[0]?.connection, 1]]);
      // The slow connection was opened (speculatively) but carried nothing.
      expect(run.handshakes.length).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});
