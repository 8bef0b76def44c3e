import { existsSync } from 'node:fs';
import { getBenchPage, type OriginBaseUrl } from '../../bench/corpus/bench-corpus';
import { startOrigins, type Origins } from '../../bench/origins/start-origins';
import { loadPage } from '../../native-host/run/page-loader';
import { strategy } from '../../src/scheduler';
import { describeWithNginx, eventually, loopback } from './nginx-gate';

const PAGE = 'almanac-median';

describeWithNginx('getlist against nginx origins: almanac-median over 10 loopback origins', () => {
  const page = getBenchPage(PAGE);
  let origins: Origins;

  beforeAll(async () => {
    origins = await startOrigins({ bindings: loopback(page.origins), pages: [PAGE] });
  });
  afterAll(async () => {
    const dir = origins?.dir;
    await origins?.stop();
    if (dir !== undefined) expect(existsSync(dir)).toBe(false);
  });

  /** Manifest entries keyed by the URL the page links them under (what loadPage reports). */
  function expectedByUrl(scheme: 'http' | 'https'): Map<string, number> {
    const base: OriginBaseUrl = (o) => origins.urls[o]?.[scheme] ?? '';
    const out = new Map<string, number>([[`${base(page.document.origin)}${page.document.path}`, page.document.size]]);
    // getlist has no script engine: script-inserted images are what a browser adds on top.
    for (const r of page.resources) if (r.discoveredBy !== 'script') out.set(`${base(r.origin)}${r.path}`, r.size);
    return out;
  }

  test.each([
    ['getlist', 'http'],
    ['getlist', 'https'],
    ['h2', 'https'],
  ] as const)('%s over %s: every request succeeds with the manifest\'s bytes', async (name, scheme) => {
    const sizes = new Map([page.document, ...page.resources].map((r) => [`${r.origin}${r.path}`, r.size]));
    const sizeOf = (e: { origin: string; path: string }) => sizes.get(`${e.origin}${e.path}`);
    const logBefore = origins.accessLog().length;
    const run = await loadPage({ url: origins.pageUrl(PAGE, scheme), strategy: strategy(name), transport: { ca: origins.caPem }, timeoutMs: 20_000 });
    const expected = expectedByUrl(scheme);
    expect(run.errors).toBe(0);
    expect(run.requests.map((r) => [r.url, r.status, r.bytes]).sort())
      .toEqual([...expected].map(([url, size]) => [url, 200, size]).sort());
    // Late discovery worked: fonts (@font-face) and CSS backgrounds were found and fetched.
    expect(run.requests.filter((r) => r.resourceType === 'font')).toHaveLength(page.resources.filter((r) => r.kind === 'font').length);
    if (scheme === 'https') {
      // Every https origin offers h2; both strategies negotiate it.
      expect(new Set(run.requests.map((r) => r.protocol))).toEqual(new Set(['h2']));
      expect(run.connectionsOpened).toBe(page.origins.length);
    } else {
      expect(new Set(run.requests.map((r) => r.protocol))).toEqual(new Set(['http/1.1']));
    }
    // What nginx logged for this run agrees: each URL once, the manifest's bytes, the protocol seen.
    // Beside the GETs, only the getlist framing probe's HEADs (src/scheduler/order-probe.ts),
    // exactly as many as the run counts, each of a URL of the page.
    const all = await eventually(() => origins.accessLog().slice(logBefore), (l) => l.length >= expected.size + run.orderProbes);
    const heads = all.filter((e) => e.method === 'HEAD');
    expect(heads.map((e) => [e.status, sizeOf(e) !== undefined])).toEqual(heads.map(() => [200, true]));
    expect(heads).toHaveLength(run.orderProbes);
    const log = all.filter((e) => e.method !== 'HEAD');
    expect(log).toHaveLength(expected.size);
    for (const e of log) expect([e.path, e.status, e.bytes]).toEqual([e.path, 200, sizeOf(e)]);
    expect(new Set(log.map((e) => e.protocol))).toEqual(new Set([scheme === 'https' ? 'HTTP/2.0' : 'HTTP/1.1']));
    // Persistent connections: some connection carried more than one request.
    expect(Math.max(...log.map((e) => e.connectionRequests))).toBeGreaterThan(1);
  });
});
