import { gzipSync } from 'node:zlib';
import { strategy, type StrategyName } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { startRawServer } from '../support/raw-http-server';

/**
 * A compressed response that is the last on its connection: the server closes the connection
 * right after it (`Connection: close`, a spent request budget, a keep-alive timeout of a few ms).
 * The body is decoded after undici has it whole, so the close can be seen while the decoder still
 * runs; the response is complete all the same, and must be delivered once, on its first attempt,
 * its decoded bytes the page's own.
 */
const STRATEGIES: StrategyName[] = ['getlist', 'pipelined', 'browser', 'serial', 'http10'];
const TEXT = `<!doctype html><html><head><title>t</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/a.css"></head><body>${'<p>getlist</p>'.repeat(2000)}</body></html>`;
const CSS = `body { margin: 0 }\n${'p { color: #123 }\n'.repeat(500)}`;

test.each(STRATEGIES)('%s: a gzip document and style sheet, each followed at once by the server\'s close, arrive whole on their first attempt', async (name) => {
  const server = await startRawServer((req) => {
    const css = req.path === '/a.css';
    const body = gzipSync(Buffer.from(css ? CSS : TEXT));
    return {
      headers: { 'content-type': css ? 'text/css' : 'text/html', 'content-encoding': 'gzip', connection: 'close' },
      body,
      closeAfter: true,
    };
  });
  try {
    const decoded = new Map<string, Buffer[]>();
    const run = await loadPage({
      url: `${server.origin}/`, strategy: strategy(name), timeoutMs: 10_000,
      observe: { onResponseHead: (d) => decoded.set(d.request.url, []), onBody: (d, chunk) => decoded.get(d.request.url)?.push(Buffer.from(chunk)) },
    });
    expect(run.requests.map((r) => [new URL(r.url).pathname, r.status, r.attempts, r.error?.code])).toEqual([['/', 200, 1, undefined], ['/a.css', 200, 1, undefined]]);
    expect(Buffer.concat(decoded.get(`${server.origin}/`) ?? []).toString()).toBe(TEXT);
    expect(Buffer.concat(decoded.get(`${server.origin}/a.css`) ?? []).toString()).toBe(CSS);
    expect(server.requests.map((r) => r.path)).toEqual(['/', '/a.css']);
  } finally {
    await server.close();
  }
});
