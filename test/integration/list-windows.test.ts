import type http2 from 'node:http2';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { strategy, type Strategy } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { startDelayProxy } from '../support/delay-proxy';
import { bodyFor } from '../support/raw-http-server';
import { testCert } from '../support/tls-cert';
import { startHttp2Server } from '../support/tls-servers';

/**
 * A revisit's learned list gets HTTP/2 windows at t = 0 (src/scheduler/list-windows.ts), read off
 * the server's own log: which session carried which stream, and when each session's first stream
 * came. One h2 origin serves a page and its ten 12 kB images behind a relay that holds every chunk
 * 120 ms each way (a 240 ms round trip). A first load learns the page's list, the origin's protocol
 * and the link's rate; the revisit asks for the list at once.
 *
 * The relay accepts TCP itself, so the round trip a load remembers from the TCP handshake is the
 * relay's, not the path's (path-pacing.ts reads a relay's path off time to first byte for the same
 * reason), and every first byte would read a round trip late, as if queued (queue-delay.ts). The
 * test writes the path's round trip into the memory before each load, as a load over a real far
 * path records it from its handshake.
 */

const IMAGES = Array.from({ length: 10 }, (_, i) => `/i${i}.gif`);
const IMAGE_BYTES = 12_000;
const ONE_WAY_MS = 120;

interface Stream {
  session: number;
  path: string;
  at: number;
}

async function startSite() {
  const streams: Stream[] = [];
  const ids = new WeakMap<http2.Http2Session, number>();
  let sessionsSeen = 0;
  let bodyBytes = 0;
  const server = await startHttp2Server((req, res) => {
    const session = (req as http2.Http2ServerRequest).stream.session;
    if (session && !ids.has(session)) ids.set(session, sessionsSeen++);
    const path = req.url ?? '/';
    streams.push({ session: session ? (ids.get(session) as number) : -1, path, at: performance.now() });
    const html = path === '/';
    const body = html ? `<!DOCTYPE html><html><head><title>t</title></head><body>${IMAGES.map((p) => `<img src="${p}" width="10" height="10">`).join('')}<!--${'x'.repeat(40_000)}--></body></html>` : bodyFor(path, IMAGE_BYTES);
    bodyBytes += Buffer.byteLength(body);
    res.setHeader('content-type', html ? 'text/html' : 'image/gif');
    res.end(body);
  });
  const proxy = await startDelayProxy(server.port, ONE_WAY_MS);
  return {
    url: `https://localhost:${proxy.port}/`,
    origin: `https://localhost:${proxy.port}`,
    streams,
    /** Body bytes the server sent. */
    bodyBytes: () => bodyBytes,
    reset: () => {
      streams.length = 0;
      sessionsSeen = 0;
      bodyBytes = 0;
    },
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

/** `adjust`: changes what the first load left, or returns the memory the revisit starts from instead. */
async function revisit(s: Strategy, adjust: (memory: InMemoryOriginMemory, origin: string) => InMemoryOriginMemory | void = () => undefined) {
  const site = await startSite();
  try {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: site.origin, rttMs: 2 * ONE_WAY_MS });
    const first = await loadPage({ url: site.url, strategy: s, memory, transport: { ca: testCert().cert } });
    expect(first.errors).toBe(0);
    const learned = memory.get(site.origin);
    const sentBytes = site.bodyBytes();
    memory.put({ origin: site.origin, rttMs: 2 * ONE_WAY_MS });
    const next = adjust(memory, site.origin) ?? memory;
    site.reset();
    const run = await loadPage({ url: site.url, strategy: s, memory: next, transport: { ca: testCert().cert } });
    return { learned, sentBytes, run, streams: [...site.streams] };
  } finally {
    await site.close();
  }
}

const sessionsOf = (streams: readonly Stream[]) => [...new Set(streams.map((s) => s.session))].sort((a, b) => a - b);

describe("a revisit's learned list opens its HTTP/2 windows at t = 0 (list-windows.ts)", () => {
  test('getlist: the first load remembers the link; the revisit spreads the list over several sessions, opened together, each carrying a fair share', async () => {
    const { learned, run, streams, sentBytes } = await revisit(strategy('getlist'));
    // What the first load learned: the origin speaks h2, and the most it received over a round trip
    // (the relay's is under a millisecond, so over the shortest window, 100 ms): more than nothing,
    // and no more than every body byte the server sent arriving within that window.
    expect(learned).toMatchObject({ protocol: 'h2' });
    expect(learned?.peakBytesPerMs ?? 0).toBeGreaterThan(0);
    expect(learned?.peakBytesPerMs ?? Infinity).toBeLessThanOrEqual(sentBytes / 100);
    // The images came in one burst a round trip after the document, and no first byte came later
    // than its round trip: a floor under the link, not its rate.
    expect(learned?.peakHeld).toBe(false);
    expect(run.errors).toBe(0);
    expect(run.requests.filter((r) => r.url.endsWith('.gif') && r.speculative === 'used')).toHaveLength(IMAGES.length);
    for (const r of run.requests.filter((x) => x.url.endsWith('.gif'))) expect(r.bytes).toBe(IMAGE_BYTES);
    // The server's view: the document and every image once (and /favicon.ico, as a browser asks), over more than one session.
    expect(streams.map((s) => s.path).sort()).toEqual(['/', '/favicon.ico', ...IMAGES].sort());
    const sessions = sessionsOf(streams);
    expect(sessions.length).toBeGreaterThan(1);
    expect(sessions.length).toBeLessThanOrEqual(6);
    expect(new Set(run.requests.map((r) => r.connectionId)).size).toBe(sessions.length);
    // Opened together at t = 0: every session's first stream came within half a round trip of the
    // first one, not a handshake (two round trips) later.
    const firstAt = sessions.map((id) => Math.min(...streams.filter((s) => s.session === id).map((s) => s.at)));
    expect(Math.max(...firstAt) - Math.min(...firstAt)).toBeLessThan(ONE_WAY_MS);
    // Dealt by bytes: no session carries more than two images beyond an even share of them.
    const images = streams.filter((s) => s.path.endsWith('.gif'));
    for (const id of sessions) expect(images.filter((s) => s.session === id).length).toBeLessThanOrEqual(Math.ceil(IMAGES.length / sessions.length) + 1);
  });

  test("with --h2-connections 1 (http2.connectionsForDemand 1), as with 'h2', the revisit keeps one session", async () => {
    for (const s of [strategy('getlist', { http2: { connectionsForDemand: 1 } }), strategy('h2')]) {
      const { run, streams } = await revisit(s);
      expect(run.errors).toBe(0);
      expect(sessionsOf(streams)).toHaveLength(1);
    }
  });

  test('without a remembered peak, or on a near path, the revisit keeps one session', async () => {
    const noRate = await revisit(strategy('getlist'), (memory) => {
      const json = memory.toJSON();
      const without = new InMemoryOriginMemory();
      without.load(json.origins.map(({ peakBytesPerMs: _, ...facts }) => facts), json.pages);
      return without;
    });
    expect(noRate.run.errors).toBe(0);
    expect(sessionsOf(noRate.streams)).toHaveLength(1);
    const near = await revisit(strategy('getlist'), (memory, origin) => memory.put({ origin, rttMs: 2 }));
    expect(near.run.errors).toBe(0);
    expect(sessionsOf(near.streams)).toHaveLength(1);
  });
});
