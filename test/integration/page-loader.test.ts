import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strategy } from '../../src/scheduler';
import { getPage } from '../../native-host/demo/corpus';
import { startDemoServer } from '../../native-host/demo/demo-server';
import { loadPage } from '../../native-host/run/page-loader';

describe('loadPage (GETALL without the server\'s help)', () => {
  test.each(['getlist', 'browser'])('%s fetches exactly the page\'s resources, CSS-discovered ones included, each once', async (name) => {
    const server = await startDemoServer();
    try {
      const page = getPage('mcmanus-159');
      const run = await loadPage({ url: `${server.origin}${page.path}`, strategy: strategy(name) });
      // The page's GETs, each once; beside them only the framing probe's HEADs (order-probe.ts),
      // exactly as many as the run counts.
      const seen = server.requestLog.filter((r) => r.method !== 'HEAD').map((r) => r.path).sort();
      const expected = [page.path, ...page.resources.map((r) => r.path)].sort();
      expect(seen).toEqual(expected);
      expect(server.requestLog.filter((r) => r.method === 'HEAD').length).toBe(run.orderProbes);
      expect(server.requestLog.every((r) => r.method === 'GET' || r.method === 'HEAD')).toBe(true);
      expect(run.errors).toBe(0);
      // Late discovery: a resource named only inside a stylesheet is discovered once that sheet's
      // body arrives — after its first byte, never earlier.
      const lateUrls = page.resources.filter((r) => r.discoveredBy === 'css').map((r) => r.path);
      expect(lateUrls.length).toBeGreaterThan(0);
      const firstSheetByte = Math.min(...run.requests.filter((r) => r.resourceType === 'stylesheet').map((r) => r.discoveredMs + (r.ttfbMs ?? Infinity)));
      for (const p of lateUrls) {
        const req = run.requests.find((r) => new URL(r.url).pathname === p);
        expect(req?.discoveredMs).toBeGreaterThanOrEqual(firstSheetByte);
      }
      // The document is always requested first.
      expect(server.requestLog[0]?.path).toBe(page.path);
    } finally {
      await server.close();
    }
  });
});

describe('loadPage: getlist requests a stylesheet\'s @import at the sheet\'s first bytes (earlyImports)', () => {
  // `browser` models today's browsers, which read a sheet's @imports once the sheet is complete.
  test.each([['getlist', true], ['browser', false]])('%s: the imported sheet is requested before the importing sheet ended: %s', async (name, early) => {
    const log: string[] = [];
    let imported: () => void = () => undefined;
    const importRequested = new Promise<void>((resolve) => (imported = resolve));
    const server = createServer((req, res) => {
      log.push(`request ${req.url}`);
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html><head><link rel=stylesheet href="/a.css"></head><body><p class=x>text</p></body></html>');
      } else if (req.url === '/a.css') {
        res.writeHead(200, { 'content-type': 'text/css' });
        res.write('@charset "utf-8";\n@import url("/i.css");\n');
        // The rest of the sheet waits for the imported sheet's request (or gives up after 1.5 s).
        const timer = setTimeout(imported, 1500);
        void importRequested.then(() => {
          clearTimeout(timer);
          res.end('.x{color:red}\n');
          log.push('a.css ended');
        });
      } else if (req.url === '/i.css') {
        imported();
        res.writeHead(200, { 'content-type': 'text/css' });
        res.end('.y{color:blue}');
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await loadPage({ url: `http://127.0.0.1:${port}/`, strategy: strategy(name) });
      expect(run.errors).toBe(0);
      expect(log.filter((l) => l.startsWith('request'))).toEqual(expect.arrayContaining(['request /', 'request /a.css', 'request /i.css']));
      expect(log.indexOf('request /i.css') < log.indexOf('a.css ended')).toBe(early);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
