import { strategy, type StrategyName } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { main } from '../../native-host/cli/main';
import { makeResources } from '../support/faulty-origin';
import { responseBytes, segmentsOf, startScriptedOrigin, type ScriptedOrigin } from '../support/scripted-origin';

/**
 * A correct server whose `<img>`s include a tracking URL answered `200 text/html`, a missing one
 * answered `404 text/html` and one answered `200` with no type. A type that contradicts its
 * request is a reason to stop pipelining and fetch it again alone, never to fail it: every
 * strategy delivers every request, the tracker with its own HTML, and records the contradiction
 * on the request (`--json`, the popup's replay record).
 */

const RUNS = Number(process.env['GETLIST_FAULT_RUNS'] ?? 3);
const STRATEGIES: StrategyName[] = ['getlist', 'pipelined', 'browser', 'serial', 'http10'];
const images = makeResources(12, true);
const TRACKER = Buffer.from('<!doctype html><title>pixel</title><p>thanks</p>\n');
const MISSING = Buffer.from('<!doctype html><title>404</title><p>not here</p>\n');
const UNTYPED = Buffer.alloc(321, 0x55);
const odd = ['/track.gif', '/missing.gif', '/untyped.gif'];
const paths = [...images.slice(0, 4).map((r) => r.path), odd[0], ...images.slice(4, 8).map((r) => r.path), odd[1], ...images.slice(8).map((r) => r.path), odd[2]] as string[];
const doc = Buffer.from(`<!doctype html><html><head><title>t</title><link rel="icon" href="data:,"></head><body>\n${paths.map((p) => `<img src="${p}" alt="">`).join('\n')}\n</body></html>\n`);
/** Say `Connection: keep-alive`, as nginx does, so getlist's order probe runs and it pipelines. */
const KEEP = ['Connection', 'keep-alive'] as [string, string];

function answer(path: string): Buffer {
  if (path === '/') return responseBytes(200, [['Content-Type', 'text/html'], KEEP, ['Content-Length', String(doc.length)]], doc);
  if (path === '/track.gif') return responseBytes(200, [['Content-Type', 'text/html; charset=utf-8'], KEEP, ['Content-Length', String(TRACKER.length)]], TRACKER);
  if (path === '/missing.gif') return responseBytes(404, [['Content-Type', 'text/html'], KEEP, ['Content-Length', String(MISSING.length)]], MISSING, 'Not Found');
  if (path === '/untyped.gif') return responseBytes(200, [KEEP, ['Content-Length', String(UNTYPED.length)]], UNTYPED);
  const r = images.find((x) => x.path === path);
  if (!r) return responseBytes(404, [KEEP, ['Content-Length', '0']], undefined, 'Not Found');
  return responseBytes(200, [['Content-Type', r.contentType], KEEP, ['Content-Length', String(r.body.length)]], r.body);
}

const serve = (): Promise<ScriptedOrigin> => startScriptedOrigin((req) => segmentsOf(answer(req.path)));
const expectedBytes = (path: string) => (path === '/track.gif' ? TRACKER.length : path === '/missing.gif' ? MISSING.length : path === '/untyped.gif' ? UNTYPED.length : (images.find((r) => r.path === path)?.body.length ?? -1));

test.each(STRATEGIES)(`%s: over ${RUNS} loads no request fails; the tracker is delivered with its own HTML and its contradiction recorded`, async (name) => {
  for (let run = 0; run < RUNS; run++) {
    const server = await serve();
    try {
      const result = await loadPage({ url: `${server.origin}/`, strategy: strategy(name), timeoutMs: 15_000, transport: { requestTimeoutMs: 2000, requestTotalTimeoutMs: 4000 } });
      const got = result.requests.map((r) => ({ path: new URL(r.url).pathname, status: r.status, bytes: r.bytes, error: r.error?.code ?? null, contradicted: r.contradiction !== undefined }));
      const want = ['/', ...paths].map((path) => ({
        path,
        status: path === '/missing.gif' ? 404 : 200,
        bytes: path === '/' ? doc.length : expectedBytes(path),
        error: null,
        contradicted: path === '/track.gif',
      }));
      expect({ run, got: got.sort((a, b) => a.path.localeCompare(b.path)) }).toEqual({ run, got: want.sort((a, b) => a.path.localeCompare(b.path)) });
      // Fetched at most twice: once, and once again alone when it came with others in flight.
      expect(server.log.filter((l) => l.path === '/track.gif').length).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  }
});

test('`getlist load --json` carries the contradiction on the request, and the table lists it', async () => {
  const server = await serve();
  try {
    let out = '';
    const io = { out: (s: string) => void (out += s), err: () => undefined };
    expect(await main(['load', `${server.origin}/`, '--strategy', 'pipelined', '--json'], io as never)).toBe(0);
    const parsed = JSON.parse(out) as { runs: Array<{ requests: Array<{ url: string; error: unknown; contradiction?: string }> }> };
    const requests = parsed.runs[0]?.requests ?? [];
    expect(requests.filter((r) => r.error !== null)).toEqual([]);
    expect(requests.filter((r) => r.contradiction !== undefined).map((r) => new URL(r.url).pathname)).toEqual(['/track.gif']);
    expect(requests.find((r) => r.url.endsWith('/track.gif'))?.contradiction).toMatch(/^answered 200 text\/html; charset=utf-8 for a request of type image/);
    out = '';
    expect(await main(['load', `${server.origin}/`, '--strategy', 'pipelined'], io as never)).toBe(0);
    expect(out).toMatch(/1 response\(s\) contradicted their request's type:\n {2}pipelined +http:\/\/127\.0\.0\.1:\d+\/track\.gif — answered 200 text\/html/);
  } finally {
    await server.close();
  }
});
