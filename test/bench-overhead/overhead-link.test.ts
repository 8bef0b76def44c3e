/**
 * The overhead bench over the packet-level link: `--link` parsing, the site server's start-up
 * handshake (real child processes), and, as root, the site in the server namespace reached from
 * the client namespace across the emulated link, checked against the link's configured RTT and
 * the page the site serves.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { startLink } from '../../bench/link/link-emulator';
import { parseOverheadArgs } from '../../bench/overhead/overhead-args';
import { awaitSiteOrigin, startLinkSite } from '../../bench/overhead/overhead-link-site';
import { parseOverheadLink } from '../../bench/overhead/overhead-link-spec';
import { pageHtml } from '../../bench/overhead/overhead-site';
import { parseVariant } from '../../bench/overhead/overhead-variants';
import { formatCpuTable, formatTable, overheadCell } from '../../bench/overhead/overhead-table';
import { emptyCpu } from '../../bench/overhead/process-cpu';
import { describeNetns } from '../bench-link/netns-gate';

describe('--link', () => {
  it('takes RTT/RATE (Mbit/s, or none for no cap) and preset names', () => {
    expect(parseOverheadLink('40/none')).toEqual({ name: '40 ms, no cap', params: { rttMs: 40, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 } });
    expect(parseOverheadLink('100/20')).toEqual({ name: '100 ms, 20 Mbit/s', params: { rttMs: 100, downBitsPerSec: 20_000_000, upBitsPerSec: 20_000_000, loss: 0 } });
    expect(parseOverheadLink('12.5/0.75').params).toMatchObject({ rttMs: 12.5, downBitsPerSec: 750_000 });
    expect(parseOverheadLink('mcmanus-100')).toEqual({ name: 'mcmanus-100', params: { rttMs: 100, downBitsPerSec: 20_000_000, upBitsPerSec: 20_000_000, loss: 0 } });
  });

  it.each([
    ['40/x', 'the rate must be a number'],
    ['/20', 'the RTT must be a number'],
    ['-5/20', 'the RTT must be a number'],
    ['40/0', 'below 0.001'],
    ['20000/none', 'more than 10000 ms'],
  ])('%s is a usage error saying what was expected', (spec, why) => {
    expect(() => parseOverheadLink(spec)).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining(why) }));
    expect(() => parseOverheadLink(spec)).toThrow(/RTT\/RATE/);
  });

  it('an unknown name is E_BENCH_UNKNOWN_LINK naming the presets', () => {
    expect(() => parseOverheadLink('dsl')).toThrow(expect.objectContaining({ code: 'E_BENCH_UNKNOWN_LINK', message: expect.stringContaining('mcmanus-100') }));
  });

  it('the command line: loopback by default, a list of links, the same link twice refused, --serve-site hidden', () => {
    const loopback = parseOverheadArgs([]);
    expect(loopback).toMatchObject({ runs: 8, settleMs: 1200, sizes: [20, 600], links: [], withHost: true, json: false });
    // The variants are overhead-variants.ts's to name: compared with what it parses.
    expect(loopback.variants).toEqual([parseVariant('full')]);
    const linked = parseOverheadArgs(['--link', '40/none,100/20', '--variants', 'full,none', '--runs', '3']);
    expect(linked.links.map((l) => l.name)).toEqual(['40 ms, no cap', '100 ms, 20 Mbit/s']);
    expect(linked.variants).toEqual(['full', 'none'].map(parseVariant));
    expect(linked.runs).toBe(3);
    expect(() => parseOverheadArgs(['--link', '40/20,40/20.0'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: '--link: 40 ms, 20 Mbit/s is given twice' }));
    expect(() => parseOverheadArgs(['--link', '40/none', '--link', '100/none'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE' }));
    expect(() => parseOverheadArgs(['--runs', '0'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('--runs') }));
    const help = parseOverheadArgs(['--help']).help ?? '';
    expect(help).toContain('--link L,…');
    expect(help).not.toContain('--serve-site');
    expect(parseOverheadArgs(['--serve-site', '198.19.0.1:80']).serveSite).toBe('198.19.0.1:80');
  });
});

describe('the table', () => {
  const load = (loadMs: number) => ({ loadMs, domContentLoadedMs: loadMs / 2, responseStartMs: loadMs / 10, resources: 20, scriptMs: 0, scriptAtLoadMs: 0, taskMs: 0, cpuAtLoad: emptyCpu(), cpu: emptyCpu() });
  it('says on which link each cell ran and the load average meanwhile; loopback when no link', () => {
    const linked = overheadCell(20, 'full', [load(200), load(210)], [load(220), load(230)], { link: '40 ms, no cap', loadAverage: [1.5, 2.25] });
    expect(linked).toMatchObject({ link: '40 ms, no cap', loadAverage: [1.5, 2.25], loadRatio: 1.098 });
    const loopback = overheadCell(20, 'full', [load(100)], [load(100)]);
    const rows = formatTable([linked, loopback]).split('\n');
    expect(rows[0]).toMatch(/^\s*link\s+resources\s+extension \(off\)\s+runs\s+load avg/);
    expect(rows[1]).toMatch(/^40 ms, no cap\s+20\s+full\s+2\s+1\.5→2\.25\s+205 /);
    expect(rows[2]).toMatch(/^\s+loopback\s+20\s+full\s+1\s+100 /);
    expect(formatCpuTable([linked]).split('\n')[1]).toMatch(/^40 ms, no cap\s+20\s+full/);
  });
});

describe("the site server's start-up", () => {
  const node = (script: string) => spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });

  it('resolves with the origin the server prints once it listens', async () => {
    await expect(awaitSiteOrigin(node('console.log(JSON.stringify({ origin: "http://198.19.0.1" })); setTimeout(() => {}, 200)'))).resolves.toBe('http://198.19.0.1');
  });

  it.each([
    ['exits first, quoting its stderr', 'console.error("EADDRINUSE 198.19.0.1:80"); process.exit(3)', /exited \(status 3\) before it listened: EADDRINUSE 198\.19\.0\.1:80/],
    ['prints something else', 'console.log("listening"); setTimeout(() => {}, 5000)', /printed "listening"/],
    ['prints an origin that is no http origin', 'console.log(JSON.stringify({ origin: "file:///x" })); setTimeout(() => {}, 5000)', /not \{"origin"/],
    ['says nothing in time (and is killed)', 'setTimeout(() => {}, 5000)', /did not listen within 300 ms/],
  ])('E_OVERHEAD_SITE when it %s', async (_, script, message) => {
    const child = node(script);
    const exited = new Promise((r) => child.once('exit', r));
    await expect(awaitSiteOrigin(child, 300)).rejects.toMatchObject({ code: 'E_OVERHEAD_SITE', message: expect.stringMatching(message) });
    await exited;
    expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
  });

  it('E_OVERHEAD_SITE when the command cannot be started', async () => {
    const child = spawn('/nonexistent/node', [], { stdio: ['pipe', 'pipe', 'pipe'] });
    await expect(awaitSiteOrigin(child, 2000)).rejects.toMatchObject({ code: 'E_OVERHEAD_SITE', message: expect.stringContaining('could not start') });
  });
});

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0] ?? '').filter(Boolean);
}

describeNetns('the overhead site on the packet-level link', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'getlist-overhead-site-'));
  const serveScript = join(outDir, 'serve-site.js');
  const siteCommand = (hostPort: string) => [process.execPath, serveScript, hostPort];
  beforeAll(() => {
    buildSync({
      stdin: { contents: `require(${JSON.stringify(join(__dirname, '..', '..', 'bench', 'overhead', 'overhead-link-site'))}).serveSite(process.argv[2]);`, resolveDir: __dirname, loader: 'js' },
      outfile: serveScript, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning',
    });
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  test('served from the server namespace, reached across the link in one RTT per round trip', async () => {
    const rttMs = 30;
    const site = await startLinkSite({ rttMs, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, { startLink, siteCommand });
    try {
      expect(site.origin).toBe('http://198.19.0.1');
      expect(site.info.rttMs).toBe(rttMs);
      // curl in the client namespace: connect time is one RTT of the emulated link, not loopback's.
      const out = execFileSync('ip', ['netns', 'exec', site.clientNs, 'curl', '-s', '-w', '\n%{http_code} %{time_connect} %{time_total}', site.url(3)], { encoding: 'utf8' });
      const [body, stats] = [out.slice(0, out.lastIndexOf('\n')), out.slice(out.lastIndexOf('\n') + 1)];
      const [code, connect, totalS] = stats.split(' ');
      expect(code).toBe('200');
      expect(body).toBe(pageHtml(3));
      expect(Number(connect) * 1000).toBeGreaterThanOrEqual(rttMs - 1);
      expect(Number(connect) * 1000).toBeLessThan(rttMs * 3);
      // Connect, then request → response: two round trips.
      expect(Number(totalS) * 1000).toBeGreaterThanOrEqual(2 * rttMs - 1);
    } finally {
      await site.close();
    }
    expect(namespaces()).not.toContain(site.clientNs);
  }, 30_000);

  test('a server that does not start is E_OVERHEAD_SITE, and the link is removed', async () => {
    const before = namespaces();
    await expect(startLinkSite({ rttMs: 5, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, {
      startLink,
      siteCommand: () => [process.execPath, '-e', 'console.error("no site here"); process.exit(4)'],
    })).rejects.toMatchObject({ code: 'E_OVERHEAD_SITE', message: expect.stringContaining('no site here') });
    expect(namespaces().sort()).toEqual(before.sort());
  }, 30_000);
});
