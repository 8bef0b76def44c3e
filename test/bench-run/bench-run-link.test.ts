/**
 * One tiny cell end to end: a 20 ms link, nginx in the server namespace, pm95-2544-1 loaded by
 * getlist (https) and by real Chromium (http), one run each. Root only.
 */
import { join } from 'node:path';
import { runLink } from '../../bench/run/run-link';
import { runBench } from '../../bench/matrix/run-matrix';
import type { BenchResults } from '../../bench/run/results-schema';
import { describeBrowserCell } from '../bench-link/netns-gate';

const root = join(__dirname, '..', '..');
const cliPath = join(root, 'bin', 'getlist.js');

describeBrowserCell(root, 'bench run: one cell on a real link', () => {
  test('getlist (http), getlist-tls (https) and chromium-h1 load pm95-2544-1; the access log sees every request', async () => {
    const lines: string[] = [];
    const { cells, info } = await runLink({
      plan: { link: 'spdy-dsl-20-0', cells: [{ page: 'pm95-2544-1', contenders: ['getlist', 'getlist-tls', 'chromium-h1'] }] },
      runs: 1, cliPath, timeoutMs: 20_000, progress: (l) => lines.push(l),
    });
    expect(info?.congestionControl).toBe('reno');
    const cell = cells[0];
    expect(cell?.error).toBeUndefined();
    expect(cell?.pageInfo.requests).toBe(2);
    const byName = new Map(cell?.contenders.map((c) => [c.contender, c]));
    expect(cell?.contenders.map((c) => [c.contender, c.scheme])).toEqual([['getlist', 'http'], ['getlist-tls', 'https'], ['chromium-h1', 'http']]);
    const getlist = byName.get('getlist-tls')?.runs[0];
    const plain = byName.get('getlist')?.runs[0];
    const chromium = byName.get('chromium-h1')?.runs[0];
    expect(getlist?.error).toBeUndefined();
    expect(chromium?.error).toBeUndefined();
    expect(getlist).toMatchObject({ errors: 0, serverRequests: 2, connectionsOpened: 1, protocols: ['h2'] });
    // Over http, getlist's first visit opens the document origin's connections beside the
    // document's (zero-RTT starts), so the image goes on a second, idle connection.
    expect(plain).toMatchObject({ errors: 0, serverRequests: 2, connectionsOpened: 2 });
    expect(plain?.protocols).not.toContain('h2');
    expect(chromium).toMatchObject({ errors: 0, serverRequests: 2, cdpRequests: 2, protocols: ['http/1.1'] });
    // CDP covers everything Resource Timing does. Resource Timing counts from the navigation's
    // start, before the document's request is sent (a few ms, more on a loaded machine); a request
    // CDP missed at the end would take a round trip (20 ms) off its total: half of one is allowed.
    expect(chromium?.totalMs).toBeGreaterThanOrEqual((chromium?.resourceTimingTotalMs ?? Infinity) - 10);
    // Two requests over a 20 ms link cannot finish in under two round trips.
    expect(getlist?.totalMs).toBeGreaterThanOrEqual(40);
    expect(chromium?.totalMs).toBeGreaterThanOrEqual(40);
  }, 30_000);

  test('--jobs 2: two links at once, results in plan order, a partial results file after each link', async () => {
    const partials: BenchResults[] = [];
    const results = await runBench({
      plan: { mode: 'quick', runs: 1, links: [
        { link: 'spdy-dsl-20-0', cells: [{ page: 'pm95-2544-1', contenders: ['getlist'] }] },
        { link: 'spdy-dsl-40-0', cells: [{ page: 'pm95-2544-1', contenders: ['getlist'] }] },
      ] },
      jobs: 2, cliPath, timeoutMs: 20_000, command: 'test', progress: () => undefined,
      onLinkDone: (p) => partials.push(p),
    });
    expect(results.meta.jobs).toBe(2);
    expect(results.cells.map((c) => c.link)).toEqual(['spdy-dsl-20-0', 'spdy-dsl-40-0']);
    for (const c of results.cells) expect(c.contenders[0]?.runs[0]).toMatchObject({ errors: 0, serverRequests: 2 });
    // Each link really crossed its own emulated RTT: 2 requests take at least 2 round trips.
    expect(results.cells[1]?.contenders[0]?.runs[0]?.totalMs).toBeGreaterThanOrEqual(80);
    expect(partials.map((p) => p.cells.length)).toEqual([1, 2]);
  }, 30_000);
});
