import { main } from '../../native-host/cli/main';
import { startDemoServer, type DemoServer } from '../../native-host/demo/demo-server';
import { getPage, MCMANUS_159_NAME } from '../../native-host/demo/corpus';
import { pageStructure } from '../../bench/model/page-structure';
import { PRIMARY_ORIGIN } from '../../bench/corpus/bench-corpus';
import { lowerBound } from '../../src/bound/lower-bound';
import type { PageStructure } from '../../src/bound/page-structure';
import { runStructure } from '../../src/bound/run-bound';
import { boundLines, runBoundJson } from '../../native-host/cli/run-bound-lines';
import type { RunJson } from '../../src/run';

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => void (out += s), err: (s: string) => void (err += s) }, out: () => out, err: () => err };
}

/** Each request by key: its origin, size, level and its parents' keys (independent of listing order). */
function shape(s: PageStructure, key: (k: string) => string = (k) => k, origin: (o: string) => string = (o) => o) {
  return new Map(s.requests.map((r) => [key(r.key), {
    origin: origin(r.origin), size: r.size, level: r.level, parents: r.parents.map((p) => key((s.requests[p] as { key: string }).key)),
  }]));
}

let demo: DemoServer;
beforeAll(async () => {
  demo = await startDemoServer();
});
afterAll(async () => {
  await demo.close();
});

describe('getlist load beside its lower bound', () => {
  // A corpus page whose style sheet names images: document → sheet → image is three levels.
  const page = () => getPage(MCMANUS_159_NAME);

  test('the structure a run finds is the one the bench builds from the corpus manifest, so both give the same bound', async () => {
    const c = capture();
    expect(await main(['load', `${demo.origin}${page().path}`, '--strategy', 'getlist', '--json'], c.io)).toBe(0);
    const run = (JSON.parse(c.out()) as { runs: RunJson[] }).runs[0] as RunJson;
    const found = runStructure(run)?.structure as PageStructure;
    // The bench names the page's single origin by host name, without scheme or port.
    const bench = pageStructure(MCMANUS_159_NAME, { scriptInserted: false });
    const named = (k: string) => k.replace(demo.origin, PRIMARY_ORIGIN);
    expect(shape(found, named, () => PRIMARY_ORIGIN)).toEqual(shape(bench));
    expect(found.depth).toBe(3);
    for (const link of [{ rttMs: 40, downBitsPerSec: 0 }, { rttMs: 80, downBitsPerSec: 10e6 }]) {
      expect(lowerBound(found, link).totalMs).toBeCloseTo(lowerBound(bench, link).totalMs, 6);
    }
  });

  test('--json carries each run\'s bound on its own round trip, and the text shows it under the table', async () => {
    const url = `${demo.origin}${page().path}`;
    const j = capture();
    expect(await main(['load', url, '--strategy', 'browser,getlist', '--json'], j.io)).toBe(0);
    for (const run of (JSON.parse(j.out()) as { runs: Array<RunJson & { bound: { totalMs: number; rttMs: number; gap: Record<string, number> } }> }).runs) {
      const fastest = Math.min(...run.handshakes.map((h) => h.tcpMs).filter((ms) => ms > 0));
      // The bound's round trip is the fastest TCP handshake, given in hundredths of a millisecond.
      expect(run.bound.rttMs).toBe(Math.round(fastest * 100) / 100);
      const structure = runStructure(run)?.structure as PageStructure;
      expect(run.bound.totalMs).toBeCloseTo(lowerBound(structure, { rttMs: run.bound.rttMs, downBitsPerSec: 0 }).totalMs, 1);
      const g = run.bound.gap;
      expect((g.discoveryMs ?? 0) + (g.handshakesMs ?? 0) + (g.queueingMs ?? 0) + (g.serverMs ?? 0) + (g.bandwidthMs ?? 0)).toBeCloseTo(g.gapMs ?? NaN, 1);
      expect(run.requests.filter((r) => r.foundBy === null)).toHaveLength(1);
    }
    const t = capture();
    expect(await main(['load', url, '--strategy', 'getlist', '--rtt', '50'], t.io)).toBe(0);
    const n = String.raw`-?\d+(\.\d+)?`;
    expect(t.out()).toMatch(new RegExp(`getlist\\s+run 1: bound ${n} ms \\(getlist ÷ bound \\d+\\.\\d\\d\\); gap: discovery ${n}, handshakes ${n}, queueing ${n}(, server ${n})?, bandwidth ${n} ms`));
  });

  test('a run that timed no handshake has no bound: said so, and null in JSON', async () => {
    const c = capture();
    expect(await main(['load', `${demo.origin}${page().path}`, '--strategy', 'getlist', '--json'], c.io)).toBe(0);
    const run = { ...((JSON.parse(c.out()) as { runs: RunJson[] }).runs[0] as RunJson), handshakes: [] };
    expect(runBoundJson(run)).toBeNull();
    expect(boundLines([{ run, repeat: 1 }])).toBe('  getlist   run 1: bound not known (no round trip measured)');
    expect(runBoundJson(run, { rttMs: 30 })?.rttMs).toBe(30);
  });

  test.each([['--rtt', '0'], ['--rtt', 'fast'], ['--rate', '-1']])('load %s %s is a usage error', async (flag, value) => {
    const c = capture();
    expect(await main(['load', `${demo.origin}${page().path}`, '--strategy', 'getlist', flag, value], c.io)).toBe(2);
    expect(c.err()).toMatch(/E_USAGE/);
  });
});
