import { createHash } from 'node:crypto';
import { strategy, type Strategy } from '../../src/scheduler';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { loadPage } from '../../native-host/run/page-loader';
import { startFaultyOrigin, type FaultyOrigin } from '../support/faulty-origin';

/**
 * The order proofs a document-and-images origin can give (src/scheduler/order-probe.ts, the HEAD
 * pipelined ahead of its GET; src/scheduler/response-fingerprint.ts, two remembered bodies that
 * differ), against real sockets: a server that keeps order, one that answers every batch of
 * pipelined requests backwards, and one whose images change between visits. The server's log and
 * the bytes are the observers: every body kept is its resource's own, byte for byte.
 */

const TIMEOUTS = { requestTimeoutMs: 1000, requestTotalTimeoutMs: 3000 };
const PROBE_OFF = { pipelining: { orderProbe: false } };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function visit(server: FaultyOrigin, memory: InMemoryOriginMemory, s: Strategy) {
  const bodies = new Map<number, Buffer[]>();
  /** Heads the caller's hooks saw for HEADs: the scheduler's own probe must never reach them. */
  let hookedHeads = 0;
  const from = server.log.length;
  const run = await loadPage({
    url: `${server.origin}${server.documentPath}`,
    strategy: s,
    memory,
    timeoutMs: 15_000,
    transport: TIMEOUTS,
    // A retried attempt gets a new head, which starts its body over.
    observe: {
      onResponseHead: (d) => {
        if (d.request.method === 'HEAD') hookedHeads += 1;
        bodies.set(d.request.id, []);
      },
      onBody: (d, chunk) => bodies.get(d.request.id)?.push(chunk),
    },
  });
  const log = server.log.slice(from);
  // Every resource delivered, with its own bytes as the server holds them now.
  for (const res of server.resources) {
    const i = run.requests.findIndex((r) => new URL(r.url).pathname === res.path);
    const r = run.requests[i];
    expect({ path: res.path, error: r?.error?.code, status: r?.status }).toEqual({ path: res.path, error: undefined, status: 200 });
    expect({ path: res.path, sha: sha(Buffer.concat(bodies.get(i + 1) ?? [])) }).toEqual({ path: res.path, sha: sha(res.body) });
  }
  /** Images the server received on a connection while an earlier GET there was unanswered, as the log shows them (request index > 0 behind a GET image). */
  const imageBehindImage = log.filter((l, k) => l.method === 'GET' && l.path.endsWith('.gif') && log.slice(0, k).some((p) => p.connection === l.connection && p.method === 'GET' && p.path.endsWith('.gif') && p.index === l.index - 1))
    .filter((l) => run.requests.some((r) => new URL(r.url).pathname === l.path && r.pipelined));
  return { run, log, heads: log.filter((l) => l.method === 'HEAD'), imageBehindImage, hookedHeads };
}

describe('first visit: a HEAD pipelined ahead of its GET', () => {
  // HTTP/1.1 is persistent unless the server says otherwise (RFC 9112 §9.3): nginx says
  // `Connection: keep-alive`, Go's net/http and Caddy say nothing, and both are proven alike.
  test.each([true, false])('an origin that keeps order is proven on the first visit by one HEAD (counted in the run), then pipelines image behind image (Connection: keep-alive said: %s)', async (announceKeepAlive) => {
    const server = await startFaultyOrigin({ announceKeepAlive, noDelay: true }, 16, 0, true);
    try {
      const memory = new InMemoryOriginMemory();
      const v = await visit(server, memory, strategy('getlist'));
      expect(v.heads).toHaveLength(1);
      expect(v.run.orderProbes).toBe(1);
      // The caller never sees the probe (a page load would scan its empty answer as the body).
      expect(v.hookedHeads).toBe(0);
      // Its GET of the same URL came right behind it on the same connection.
      const head = v.heads[0];
      expect(v.log.find((l) => l.connection === head?.connection && l.index === (head?.index ?? -2) + 1)).toMatchObject({ method: 'GET', path: head?.path });
      expect(memory.get(server.origin)?.pipelining).toBe('good');
      expect(v.imageBehindImage.length).toBeGreaterThan(0);
      expect(v.run.demotions).toEqual([]);
      // The HEAD is no result: one per resource and the document.
      expect(v.run.requests).toHaveLength(server.resources.length + 1);
    } finally {
      await server.close();
    }
  });

  test('an origin that answers out of order is caught by the HEAD\'s framing on the first visit: demoted, every body its own', async () => {
    const server = await startFaultyOrigin({ outOfOrder: true, announceKeepAlive: true, noDelay: true }, 16, 0, true);
    try {
      const memory = new InMemoryOriginMemory();
      const v = await visit(server, memory, strategy('getlist'));
      expect(v.heads).toHaveLength(1);
      expect(v.run.demotions.map((d) => d.reason)).toEqual(['desync']);
      expect(memory.get(server.origin)?.pipelining).toBe('bad');
      expect(v.imageBehindImage).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('revisit: fingerprint pairs (no HEAD)', () => {
  test('an origin that keeps order is not proven on the first visit but is on the revisit, by two images whose remembered bodies differ', async () => {
    const server = await startFaultyOrigin({ announceKeepAlive: true, noDelay: true }, 16, 0, true);
    try {
      const memory = new InMemoryOriginMemory();
      const first = await visit(server, memory, strategy('getlist', PROBE_OFF));
      expect(first.imageBehindImage).toEqual([]);
      expect(memory.get(server.origin)?.pipelining).toBeUndefined();
      const again = await visit(server, memory, strategy('getlist', PROBE_OFF));
      expect(again.heads).toEqual([]);
      expect(memory.get(server.origin)?.pipelining).toBe('good');
      expect(again.imageBehindImage.length).toBeGreaterThan(0);
      expect(again.run.demotions).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test('an origin that answers out of order: the revisit\'s first pair comes back swapped, is discarded and fetched again alone, and the origin is demoted', async () => {
    const server = await startFaultyOrigin({ outOfOrder: true, announceKeepAlive: true, noDelay: true }, 16, 0, true);
    try {
      const memory = new InMemoryOriginMemory();
      await visit(server, memory, strategy('getlist', PROBE_OFF));
      const again = await visit(server, memory, strategy('getlist', PROBE_OFF));
      expect(again.run.demotions.map((d) => d.reason)).toContain('fingerprint-swap');
      expect(memory.get(server.origin)?.pipelining).toBe('bad');
      // Each image of a swapped pair was asked for twice: once pipelined (discarded), once alone.
      const asked = new Map<string, number>();
      for (const l of again.log) asked.set(l.path, (asked.get(l.path) ?? 0) + 1);
      expect([...asked.values()].filter((n) => n === 2).length).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
  });

  test('images changed between visits, on an origin that answers out of order: no remembered body matches, so every pair is discarded and fetched again alone — the new bytes, each its own, no proof', async () => {
    const server = await startFaultyOrigin({ outOfOrder: true, announceKeepAlive: true, noDelay: true }, 16, 0, true);
    try {
      const memory = new InMemoryOriginMemory();
      await visit(server, memory, strategy('getlist', PROBE_OFF));
      server.change((path) => path.endsWith('.gif'));
      const again = await visit(server, memory, strategy('getlist', PROBE_OFF));
      expect(memory.get(server.origin)?.pipelining).not.toBe('good');
      expect(again.run.requests.filter((r) => r.attempts > 1).length).toBeGreaterThanOrEqual(2);
      // What is remembered now is the new bytes.
      const res = server.resources[3];
      expect(memory.fingerprint(`${server.origin}${res?.path}`)).toBe(`${res?.body.length}:${createHash('sha256').update(res?.body ?? Buffer.alloc(0)).digest('base64')}`);
    } finally {
      await server.close();
    }
  });
});
