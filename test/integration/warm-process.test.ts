import { strategy } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { warmDiscoveryWhileWaiting, warmUpStepsLeft } from '../../native-host/run/discovery-warm-up';
import { drainImmediates } from '../support/immediates';
import { startHttpServer } from '../support/tls-servers';

const BODIES: Record<string, [string, string]> = {
  '/styled': ['text/html', '<!doctype html><html><head><link rel=stylesheet href="/a.css"></head><body><p class=x>text</p></body></html>'],
  '/a.css': ['text/css', '.x{background:url(/bg.gif)}\n'],
  '/bg.gif': ['image/gif', 'GIF89a'],
};

// A fresh process (this file's own module registry). Loopback round trips are too short for any
// warm-up step to run, so what a load leaves behind is all that changes the count.
describe('a process whose load scanned a page does not warm up again', () => {
  test('a load that failed before any document was scanned leaves the warm-up to come; one that scanned a page ends it', async () => {
    const server = await startHttpServer((req, res) => {
      const [type, body] = BODIES[req.url ?? ''] ?? ['text/plain', ''];
      res.writeHead(type === 'text/plain' ? 404 : 200, { 'content-type': type }).end(body);
    }, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${server.port}`;
      await expect(loadPage({ url: `${base}/missing`, strategy: strategy('getlist') })).rejects.toMatchObject({ code: 'E_HTTP_STATUS' });
      expect(warmUpStepsLeft()).toBeUndefined();
      const run = await loadPage({ url: `${base}/styled`, strategy: strategy('getlist') });
      expect(run.requests.map((r) => r.url.slice(base.length)).sort()).toEqual(['/a.css', '/bg.gif', '/favicon.ico', '/styled']);
      expect(warmUpStepsLeft()).toBe(0);
      // A wait long enough for steps now runs none.
      warmDiscoveryWhileWaiting(100);
      await drainImmediates();
      expect(warmUpStepsLeft()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
