import { strategy } from '../../src/scheduler';
import { getPage } from '../../native-host/demo/corpus';
import { startDemoServer } from '../../native-host/demo/demo-server';
import { loadPage } from '../../native-host/load/page-loader';

describe('loadPage (GETALL without the server\'s help)', () => {
  test.each(['getlist', 'browser'])('%s fetches exactly the page\'s resources, CSS-discovered ones included, each once', async (name) => {
    const server = await startDemoServer();
    try {
      const page = getPage('mcmanus-159');
      const run = await loadPage({ url: `${server.origin}${page.path}`, strategy: strategy(name) });
      const seen = server.requestLog.map((r) => r.path).sort();
      const expected = [page.path, ...page.resources.map((r) => r.path)].sort();
      expect(seen).toEqual(expected);
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
