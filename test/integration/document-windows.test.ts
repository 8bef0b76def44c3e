import type http2 from 'node:http2';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { strategy } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { startDelayProxy } from '../support/delay-proxy';
import { bodyFor } from '../support/raw-http-server';
import { testCert } from '../support/tls-cert';
import { startHttp2Server } from '../support/tls-servers';

/**
 * A first visit's document origin gets more windows as the document's TLS handshake starts when
 * earlier loads showed the client's link roomy (native-host/run/document-windows.ts), read off the
 * server's own log: which session carried which stream. One h2 origin behind a relay that holds
 * every chunk 120 ms each way serves a page naming a sheet, a script and four images.
 *
 * The relay accepts TCP itself, so the TCP round trip a load measures is the relay's (under a
 * millisecond): the strategy takes any handshake as a far path (`demandMinHandshakeMs` 0), and the
 * memory's peak is one a link fast enough for that round trip would have shown.
 */

const IMAGES = ['/a.gif', '/b.gif', '/c.gif', '/d.gif'];
const ONE_WAY_MS = 120;

async function firstVisit(memory: InMemoryOriginMemory | undefined) {
  const streams: Array<{ session: number; path: string }> = [];
  const ids = new WeakMap<http2.Http2Session, number>();
  let sessions = 0;
  const server = await startHttp2Server((req, res) => {
    const session = (req as http2.Http2ServerRequest).stream.session;
    if (session && !ids.has(session)) ids.set(session, sessions++);
    const path = req.url ?? '/';
    streams.push({ session: session ? (ids.get(session) as number) : -1, path });
    const type = path === '/' ? 'text/html' : path.endsWith('.css') ? 'text/css' : path.endsWith('.js') ? 'text/javascript' : 'image/gif';
    const body = path === '/'
      ? `<!DOCTYPE html><html><head><title>t</title><link rel="stylesheet" href="/s.css"><script src="/j.js" defer></script></head><body>${IMAGES.map((p) => `<img src="${p}" width="10" height="10">`).join('')}</body></html>`
      : path.endsWith('.css') ? 'body { color: red }' : bodyFor(path, 6_000);
    res.setHeader('content-type', type);
    res.end(body);
  });
  const proxy = await startDelayProxy(server.port, ONE_WAY_MS);
  try {
    const run = await loadPage({ url: `https://localhost:${proxy.port}/`, strategy: strategy('getlist', { http2: { demandMinHandshakeMs: 0 } }), ...(memory ? { memory } : {}), transport: { ca: testCert().cert } });
    const sessionOf = (path: string) => streams.find((s) => s.path === path)?.session;
    return { run, sessions, sessionOf };
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** What a load of another site on a link this fast left: its peak, a floor under the link's rate. */
function linkSeen(peakBytesPerMs: number, peakHeld: boolean): InMemoryOriginMemory {
  const memory = new InMemoryOriginMemory();
  memory.put({ origin: 'https://elsewhere.test', protocol: 'h2', rttMs: 1, peakBytesPerMs, peakHeld });
  return memory;
}

describe('windows for a first visit\'s document origin (document-windows.ts)', () => {
  test('a roomy link seen on another site: three sessions; the sheet on the document\'s, the images and the deferred script on the others', async () => {
    const { run, sessions, sessionOf } = await firstVisit(linkSeen(1e12, false));
    expect(run.errors).toBe(0);
    expect(sessions).toBe(3);
    expect(sessionOf('/s.css')).toBe(sessionOf('/'));
    for (const p of [...IMAGES, '/j.js']) expect(sessionOf(p)).not.toBe(sessionOf('/'));
  }, 20_000);

  test('no memory of the link, or a held peak under a dozen windows a round trip: one session, as before', async () => {
    for (const memory of [undefined, new InMemoryOriginMemory(), linkSeen(1, true)]) {
      const { run, sessions } = await firstVisit(memory);
      expect(run.errors).toBe(0);
      expect(sessions).toBe(1);
    }
  }, 30_000);
});
