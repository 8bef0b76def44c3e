import { strategy } from '../../src/scheduler';
import { bodyFor } from '../support/raw-http-server';
import { runList, sha256 } from '../support/run-list';
import { testCert } from '../support/tls-cert';
import { startHttp2Server, startHttpsServer } from '../support/tls-servers';

const N = 30;
const size = (path: string) => 700 + ((path.length * 131) % 900) + Number(path.replace(/\D/g, '') || 0) * 10;
const paths = Array.from({ length: N }, (_, i) => `/asset${i}.bin`);

interface Seen {
  path: string;
  httpVersion: string;
}

/** Answers every request with `bodyFor(path)` after `delayMs`, recording what it saw. */
function handler(seen: Seen[], delayMs: number) {
  return (req: { url?: string; httpVersion: string }, res: { setHeader(k: string, v: string): unknown; end(b: Buffer): unknown }) => {
    const path = req.url ?? '/';
    seen.push({ path, httpVersion: req.httpVersion });
    setTimeout(() => {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(bodyFor(path, size(path)));
    }, delayMs);
  };
}

function expectBodiesExact(run: Awaited<ReturnType<typeof runList>>) {
  expect(run.results.map((r) => [new URL(r.url).pathname, r.error, r.status])).toEqual(paths.map((p) => [p, undefined, 200]));
  for (const r of run.results) {
    const path = new URL(r.url).pathname;
    expect(r.bytes).toBe(size(path));
    expect(run.sha(r.id)).toBe(sha256(bodyFor(path, size(path))));
  }
}

describe('HTTP/2 negotiated by ALPN', () => {
  const { cert } = testCert();

  test.each(['h2', 'getlist'])('%s: streams open in priority order, a stylesheet before the scripts of its class found earlier (the server\'s arrival order)', async (name) => {
    const seen: Seen[] = [];
    const server = await startHttp2Server(handler(seen, 0));
    try {
      const origin = `https://localhost:${server.port}`;
      // All four wait for the one connection's handshake, then go at once.
      const run = await runList(strategy(name), [
        { url: `${origin}/sync.js`, priority: 'blocking', resourceType: 'script' },
        { url: `${origin}/img.gif`, priority: 'image', resourceType: 'image' },
        { url: `${origin}/imported.css`, priority: 'blocking', resourceType: 'stylesheet' },
        { url: `${origin}/async.js`, priority: 'script', resourceType: 'script' },
      ], { ca: cert });
      expect(run.stats.connectionsOpened).toBe(1);
      expect(seen.map((s) => [s.path, s.httpVersion])).toEqual([['/imported.css', '2.0'], ['/sync.js', '2.0'], ['/async.js', '2.0'], ['/img.gif', '2.0']]);
    } finally {
      await server.close();
    }
  });

  test("'h2': 30 requests multiplexed on one HTTP/2 connection", async () => {
    const seen: Seen[] = [];
    const server = await startHttp2Server(handler(seen, 10));
    try {
      const origin = `https://localhost:${server.port}`;
      const run = await runList(strategy('h2'), paths.map((p) => ({ url: origin + p })), { ca: cert });
      expectBodiesExact(run);
      expect(run.results.every((r) => r.protocol === 'h2')).toBe(true);
      expect(run.handshakes).toHaveLength(1);
      expect(run.handshakes[0]?.protocol).toBe('h2');
      expect(run.stats.connectionsOpened).toBe(1);
      expect(new Set(run.results.map((r) => r.connectionId)).size).toBe(1);
      // The server's view.
      expect(server.connections()).toBe(1);
      expect(server.sessions()).toBe(1);
      expect(server.streams()).toBe(N);
      expect(server.tls.map((t) => t.alpn)).toEqual(['h2']);
      expect(seen.every((s) => s.httpVersion === '2.0')).toBe(true);
      expect(seen.map((s) => s.path).sort()).toEqual([...paths].sort());
      // Multiplexed, not serialised: requests were in flight together (the server delays each by
      // 10 ms, so a serial load would have every request sent after the previous one finished).
      const sorted = [...run.results].sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
      const overlapped = sorted.some((r, i) => i > 0 && (r.sentAt ?? 0) < (sorted[i - 1]?.doneAt ?? 0));
      expect(overlapped).toBe(true);
    } finally {
      await server.close();
    }
  });

  test("'getlist' against the same server also uses one HTTP/2 connection", async () => {
    const seen: Seen[] = [];
    const server = await startHttp2Server(handler(seen, 10));
    try {
      const origin = `https://localhost:${server.port}`;
      const run = await runList(strategy('getlist'), paths.map((p) => ({ url: origin + p })), { ca: cert });
      expectBodiesExact(run);
      expect(run.results.every((r) => r.protocol === 'h2')).toBe(true);
      expect(run.handshakes.map((h) => h.protocol)).toEqual(['h2']);
      expect(server.connections()).toBe(1);
      expect(server.sessions()).toBe(1);
      expect(server.streams()).toBe(N);
    } finally {
      await server.close();
    }
  });

  test("'browser' (HTTP/2 off) against the same server falls back to HTTP/1.1 on up to 6 connections", async () => {
    const seen: Seen[] = [];
    const server = await startHttp2Server(handler(seen, 10));
    try {
      const origin = `https://localhost:${server.port}`;
      const run = await runList(strategy('browser'), paths.map((p) => ({ url: origin + p })), { ca: cert });
      expectBodiesExact(run);
      expect(run.results.every((r) => r.protocol === 'http/1.1')).toBe(true);
      expect(run.handshakes.every((h) => h.protocol === 'http/1.1')).toBe(true);
      expect(run.handshakes.length).toBeGreaterThan(1);
      expect(run.handshakes.length).toBeLessThanOrEqual(6);
      expect(server.connections()).toBe(run.handshakes.length);
      expect(server.sessions()).toBe(0);
      expect(server.streams()).toBe(0);
      expect(server.tls.every((t) => t.alpn === 'http/1.1')).toBe(true);
      expect(seen.every((s) => s.httpVersion === '1.1')).toBe(true);
    } finally {
      await server.close();
    }
  });

  test("'getlist' against an https server without h2: learns HTTP/1.1 from ALPN, then opens more connections", async () => {
    const seen: Seen[] = [];
    const server = await startHttpsServer(handler(seen, 10));
    try {
      const origin = `https://localhost:${server.port}`;
      const run = await runList(strategy('getlist'), paths.map((p) => ({ url: origin + p })), { ca: cert });
      expectBodiesExact(run);
      expect(run.results.every((r) => r.protocol === 'http/1.1')).toBe(true);
      expect(run.handshakes.every((h) => h.protocol === 'http/1.1')).toBe(true);
      expect(server.tls.every((t) => t.alpn === 'http/1.1')).toBe(true);
      expect(server.connections()).toBeGreaterThan(1);
      expect(server.connections()).toBeLessThanOrEqual(6);
      expect(run.handshakes.length).toBe(server.connections());
      // Learned, then opened: the server chose http/1.1 for the first connection, and so answered
      // its ClientHello, before it accepted a second TCP connection. (Its handshake completes when
      // the client's Finished arrives, with the first request.)
      expect(server.events.filter((e) => e !== 'tls').slice(0, 3)).toEqual(['tcp', 'alpn', 'tcp']);
    } finally {
      await server.close();
    }
  });
});
