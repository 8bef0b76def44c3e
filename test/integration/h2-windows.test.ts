import type http2 from 'node:http2';
import { strategy, type Strategy } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { startDelayProxy, type DelayProxy } from '../support/delay-proxy';
import { bodyFor } from '../support/raw-http-server';
import { testCert } from '../support/tls-cert';
import { startHttp2Server } from '../support/tls-servers';

/**
 * More than one congestion window for an HTTP/2 origin (src/scheduler/h2-windows.ts), read off the
 * image server's own log: how many sessions it accepted, which stream each carried, in which order.
 * The page and its images are on two h2 origins, each behind a relay that delays every chunk
 * 120 ms each way (a 240 ms round trip on loopback, eight times http2.demandMinHandshakeMs, so that the
 * handshake stays past it after the scheduler takes out what a busy event loop added), so the document's handshake is slow and the
 * images are found while the image origin's first connection is still handshaking. The document
 * carries `padBytes` of comment so that its first flight can show the link's rate (load-path.ts):
 * windows open only where a flight has shown room for them.
 */

const IMAGES = Array.from({ length: 8 }, (_, i) => `/i${i}.gif`);
const IMAGE_BYTES = 6_000;

interface Stream {
  session: number;
  path: string;
}

async function startSite(oneWayMs: number, padBytes: number) {
  const streams: Stream[] = [];
  const ids = new WeakMap<http2.Http2Session, number>();
  let sessionsSeen = 0;
  const images = await startHttp2Server((req, res) => {
    const session = (req as http2.Http2ServerRequest).stream.session;
    // Sessions numbered in the order their first stream arrived.
    if (session && !ids.has(session)) ids.set(session, sessionsSeen++);
    streams.push({ session: session ? (ids.get(session) as number) : -1, path: req.url ?? '/' });
    res.setHeader('content-type', 'image/gif');
    res.end(bodyFor(req.url ?? '/', IMAGE_BYTES));
  });
  const imagesProxy = await startDelayProxy(images.port, oneWayMs);
  const imageOrigin = `https://localhost:${imagesProxy.port}`;
  const html = `<!DOCTYPE html><html><head><title>t</title></head><body>${IMAGES.map((p) => `<img src="${imageOrigin}${p}" width="10" height="10">`).join('')}<!--${'x'.repeat(padBytes)}--></body></html>`;
  const page = await startHttp2Server((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  const pageProxy: DelayProxy = await startDelayProxy(page.port, oneWayMs);
  return {
    url: `https://localhost:${pageProxy.port}/`,
    imageOrigin,
    images,
    streams,
    close: async () => {
      await pageProxy.close();
      await imagesProxy.close();
      await page.close();
      await images.close();
    },
  };
}

async function load(s: Strategy, oneWayMs = 120, padBytes = 40_000) {
  const site = await startSite(oneWayMs, padBytes);
  try {
    const run = await loadPage({ url: site.url, strategy: s, transport: { ca: testCert().cert } });
    const onImages = run.requests.filter((r) => r.url.startsWith(site.imageOrigin));
    return { run, onImages, sessions: site.images.sessions(), streams: [...site.streams] };
  } finally {
    await site.close();
  }
}

describe('HTTP/2 windows for demand (h2-windows.ts)', () => {
  test('getlist: images found while the image origin handshakes get connections of their own, dealt one per connection in document order', async () => {
    const { run, onImages, sessions, streams } = await load(strategy('getlist'));
    expect(run.errors).toBe(0);
    expect(onImages.map((r) => new URL(r.url).pathname).sort()).toEqual([...IMAGES].sort());
    expect(onImages.every((r) => r.protocol === 'h2')).toBe(true);
    // The server's view: more than one session (one window each), within the strategy's limit,
    // and the client's connection ids agree with it.
    expect(sessions).toBeGreaterThan(1);
    expect(sessions).toBeLessThanOrEqual(6);
    expect(new Set(onImages.map((r) => r.connectionId)).size).toBe(sessions);
    expect(streams.map((s) => s.path).sort()).toEqual([...IMAGES].sort());
    // Each session's first stream, in session order, is the next image in document order: the
    // most urgent requests each start a window rather than queue on the first connection up.
    const firsts = [...new Set(streams.map((s) => s.session))].sort((a, b) => a - b).map((id) => streams.find((s) => s.session === id)?.path);
    expect([...firsts].sort()).toEqual(IMAGES.slice(0, sessions).sort());
    for (const id of new Set(streams.map((s) => s.session))) expect(streams.filter((s) => s.session === id).length).toBeLessThanOrEqual(Math.ceil(IMAGES.length / sessions));
  });

  test("'h2' (one connection until ALPN answers, as browsers) puts the same images on one session", async () => {
    const { run, onImages, sessions, streams } = await load(strategy('h2'));
    expect(run.errors).toBe(0);
    expect(sessions).toBe(1);
    expect(new Set(onImages.map((r) => r.connectionId)).size).toBe(1);
    expect(streams.map((s) => s.path).sort()).toEqual([...IMAGES].sort());
  });

  test('getlist on a path whose handshakes are quicker than http2.demandMinHandshakeMs keeps one session', async () => {
    const { run, sessions } = await load(strategy('getlist', { http2: { demandMinHandshakeMs: 10_000 } }));
    expect(run.errors).toBe(0);
    expect(sessions).toBe(1);
  });

  test('getlist keeps one session when no response of the load was long enough to show the link\'s rate (a 1 kB document)', async () => {
    const { run, sessions, streams } = await load(strategy('getlist'), 30, 0);
    expect(run.errors).toBe(0);
    expect(sessions).toBe(1);
    expect(streams.map((s) => s.path).sort()).toEqual([...IMAGES].sort());
  });
});
