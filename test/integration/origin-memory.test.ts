import { strategy } from '../../src/scheduler';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { loadPage } from '../../native-host/run/page-loader';
import { bodyFor, startRawServer, type WireRequest } from '../support/raw-http-server';

const IMAGES = 12;
const html = (extraHead = ''): Buffer =>
  Buffer.from(`<!DOCTYPE html><html><head>${extraHead}</head><body>${Array.from({ length: IMAGES }, (_, i) => `<img src="/i${i}.gif">`).join('')}</body></html>`);

/** Requests of the page's images on the wire that were written before any response on their connection. */
const pipelinedAtOnce = (reqs: readonly WireRequest[]) => reqs.filter((r) => r.path.startsWith('/i') && r.responsesSentBefore === 0 && r.index > 0);

describe('origin memory and zero-RTT starts, on real sockets', () => {
  test('a revisit pipelines a remembered-good origin at full depth from its first request; the first visit probes', async () => {
    // The stylesheet is what lets the first visit prove the origin keeps order: an image written
    // behind it while it is unanswered, whose swap would contradict a Content-Type (images alone
    // can prove nothing: src/scheduler/content-type-check.ts isOrderProof).
    const sheet = '<link rel="stylesheet" href="/s.css">';
    const type = (path: string) => (path === '/' ? 'text/html' : path.endsWith('.css') ? 'text/css' : 'image/gif');
    const server = await startRawServer((req) => (req.path === '/' ? { body: html(sheet), headers: { 'content-type': type(req.path) } } : { body: bodyFor(req.path, 2_544), headers: { 'content-type': type(req.path) }, delayMs: 5 }));
    /** The document, its stylesheet and images, and the implicit `/favicon.ico` a desktop browser asks for (src/discovery). */
    const PAGE_REQUESTS = IMAGES + 3;
    try {
      const memory = new InMemoryOriginMemory();
      const g = strategy('getlist', { connections: { maxPerOrigin: 1 } });
      const first = await loadPage({ url: `${server.origin}/`, strategy: g, memory });
      expect(first.errors).toBe(0);
      const firstVisit = server.requests.splice(0);
      expect(memory.get(server.origin)).toMatchObject({ pipelining: 'good', protocol: 'http/1.1' });
      expect(memory.pageOrigins(`${server.origin}/`)).toEqual([{ origin: server.origin, requests: PAGE_REQUESTS }]);
      const revisit = await loadPage({ url: `${server.origin}/`, strategy: g, memory });
      expect(revisit.errors).toBe(0);
      const second = server.requests.splice(0);
      // First visit: at most the probe's depth of 2 before the first image response.
      expect(Math.max(0, ...pipelinedAtOnce(firstVisit).map((r) => r.index))).toBeLessThanOrEqual(2);
      // Revisit: the document and every image arrive on one connection before any image is answered.
      const conn = second[0]?.connection;
      expect(second.filter((r) => r.connection === conn && r.path.startsWith('/i')).every((r) => r.responsesSentBefore <= 1)).toBe(true);
      expect(second.filter((r) => r.connection === conn)).toHaveLength(PAGE_REQUESTS);
    } finally {
      await server.close();
    }
  });

  test('the learned list opens its connections at t = 0: the server accepts them before the document is answered', async () => {
    let connectionsBeforeDocument = -1;
    const server = await startRawServer((req) => {
      if (req.path !== '/') return { body: bodyFor(req.path, 500) };
      // Counted just before the document is written: no image is known to the client yet. The
      // document waits 300 ms so that a loaded machine still has the connections up by then; a
      // client that waits for the document to open them has 1 either way.
      setTimeout(() => (connectionsBeforeDocument = server.connections()), 280);
      return { body: html(), headers: { 'content-type': 'text/html' }, delayMs: 300 };
    });
    try {
      const memory = new InMemoryOriginMemory();
      memory.putPageOrigins(`${server.origin}/`, [{ origin: server.origin, requests: 13 }]);
      const run = await loadPage({ url: `${server.origin}/`, strategy: strategy('getlist'), memory });
      expect(run.errors).toBe(0);
      // Six connections accepted before the document was answered, none after; images spread over them.
      expect(connectionsBeforeDocument).toBe(6);
      expect(server.connections()).toBe(6);
      const imageConns = new Set(server.requests.filter((r) => r.path !== '/').map((r) => r.connection));
      expect(imageConns.size).toBeGreaterThan(1);
    } finally {
      await server.close();
    }
  });

  test('on a link remembered as open, a revisit opens first the origin whose learned share ends last, before the document\'s own', async () => {
    // The page's only other resource is a 120 kB script on a second origin: four rounds of slow
    // start against the document's one, so its connection is the one to start first.
    const scripts = await startRawServer((req) => ({ body: bodyFor(req.path, 120_000), headers: { 'content-type': 'text/javascript' } }));
    const server = await startRawServer((req) => (req.path === '/' ? { body: Buffer.from(`<!DOCTYPE html><html><head><script src="${scripts.origin}/app.js"></script></head><body></body></html>`), headers: { 'content-type': 'text/html' } } : { body: bodyFor(req.path, 100) }));
    try {
      const memory = new InMemoryOriginMemory();
      const g = strategy('getlist');
      const firstOpened = async () => {
        const run = await loadPage({ url: `${server.origin}/`, strategy: g, memory });
        expect(run.errors).toBe(0);
        return [...run.handshakes].sort((a, b) => a.connectionId - b.connectionId)[0]?.origin;
      };
      // A first visit knows only the document.
      expect(await firstOpened()).toBe(server.origin);
      expect(memory.pageList(`${server.origin}/`)?.resources.map((r) => r.url)).toContain(`${scripts.origin}/app.js`);
      // Loopback has no link to measure (peak-delivery.ts), so the one loads on a real path would
      // have left is given: 100 ms, and 1 Gbit/s or 10 Mbit/s, seen to queue.
      const remember = (peakBytesPerMs: number) => {
        for (const origin of [server.origin, scripts.origin]) memory.put({ origin, rttMs: 100, peakBytesPerMs, peakHeld: true });
      };
      remember(125_000);
      expect(await firstOpened()).toBe(scripts.origin);
      // On a link the list fills, the queue's order: the document's origin first.
      remember(1_250);
      expect(await firstOpened()).toBe(server.origin);
    } finally {
      await server.close();
      await scripts.close();
    }
  });

  test('<link rel=preconnect> opens a connection to its origin as soon as parsed, with no request on it', async () => {
    const other = await startRawServer((req) => ({ body: bodyFor(req.path, 10) }));
    const server = await startRawServer((req) => (req.path === '/' ? { body: html(`<link rel="preconnect" href="${other.origin}">`), headers: { 'content-type': 'text/html' } } : { body: bodyFor(req.path, 100) }));
    try {
      const withHints = await loadPage({ url: `${server.origin}/`, strategy: strategy('getlist') });
      expect(withHints.errors).toBe(0);
      expect(other.connections()).toBe(1);
      expect(other.requests).toHaveLength(0);
      await loadPage({ url: `${server.origin}/`, strategy: strategy('browser') });
      expect(other.connections()).toBe(1); // browser (no preconnect) opened none
    } finally {
      await server.close();
      await other.close();
    }
  });
});
