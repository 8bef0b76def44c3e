/**
 * `getlist demo` over the packet-level link, end to end: the built dist/bench/demo-link.js runs the
 * demo server in the server namespace and two strategies' loads in the client namespace. What the
 * user-space relay of `getlist demo` cannot show: every measured TCP connect takes one real RTT.
 * Root only; needs the built dist/ (npm run build). GETLIST_DEMO_LINK_JS may point at another
 * bundle of bench/demo/main.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDemoLinkArgs } from '../../bench/demo/demo-link-options';
import type { demoLinkJson } from '../../bench/demo/demo-link-report';
import { netnsSkipReason } from '../bench-link/netns-gate';

const root = join(__dirname, '..', '..');
const demoLinkJs = process.env.GETLIST_DEMO_LINK_JS ?? join(root, 'dist', 'bench', 'demo-link.js');
const cliPath = join(root, 'bin', 'getlist.js');
/** mcmanus-100: 100 ms, 20 Mbit/s each way, so a SYN or SYN-ACK never queues long behind data. */
const LINK = 'mcmanus-100';
const RTT_MS = 100;

type DemoLinkJson = ReturnType<typeof demoLinkJson>;

function skipReason(): string | undefined {
  const netns = netnsSkipReason();
  if (netns !== undefined) return netns;
  if (!existsSync(join(root, 'dist', 'getlist.js'))) return 'dist/getlist.js is not built (npm run build)';
  if (!existsSync(demoLinkJs)) return `${demoLinkJs} is not built (npm run build)`;
  return undefined;
}

function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [demoLinkJs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { stdout += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, pid: child.pid as number }));
  });
}

const namespacesOf = (pid: number): string[] =>
  spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.split('\n').map((l) => l.split(' ')[0] ?? '').filter((n) => n.startsWith(`gl-c-${pid}-`) || n.startsWith(`gl-s-${pid}-`));

describe('demo-link: command line', () => {
  test('defaults are those of getlist demo, on mcmanus-100', () => {
    expect(parseDemoLinkArgs([])).toEqual({ mode: 'run', options: {
      link: 'mcmanus-100', linkParams: { rttMs: 100, downBitsPerSec: 20_000_000, upBitsPerSec: 20_000_000, loss: 0 },
      pages: ['pm95', 'mcmanus-159'], strategies: ['http10', 'browser', 'pipelined', 'getlist'], repeat: 1, timeoutMs: 300_000, json: false, cliPath: undefined,
    } });
    expect(parseDemoLinkArgs(['--link=pm95', '--page', 'all', '--strategy', 'getlist,h2', '--repeat', '3', '--json'])).toMatchObject({ mode: 'run', options: {
      link: 'pm95', pages: ['pm95', 'mcmanus-159'], strategies: ['getlist', 'h2'], repeat: 3, json: true,
    } });
    expect(parseDemoLinkArgs(['--serve', '--host', '198.19.0.1', '--page', 'pm95'])).toEqual({ mode: 'serve', host: '198.19.0.1', port: 80, pages: ['pm95'] });
  });

  test.each([
    [['--link', 'dsl'], 'E_BENCH_UNKNOWN_LINK'],
    [['--page', 'nope'], 'E_BENCH_USAGE'],
    [['--strategy', 'fast'], 'E_BENCH_USAGE'],
    [['--repeat', '0'], 'E_BENCH_USAGE'],
    [['--rtt', '100'], 'E_BENCH_USAGE'],
    [['--json', '--json'], 'E_BENCH_USAGE'],
    [['--port', '8080'], 'E_BENCH_USAGE'],
    [['--serve'], 'E_BENCH_USAGE'],
  ])('%j is refused with %s', (argv, code) => {
    let caught: unknown;
    try {
      parseDemoLinkArgs(argv);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code });
  });
});

const reason = skipReason();
if (reason !== undefined) process.stdout.write(`skipping demo over the packet-level link: ${reason}\n`);
(reason === undefined ? describe : describe.skip)('demo-link: getlist demo over the packet-level link', () => {
  test(`pm95 on ${LINK}, browser and getlist: every request served, TCP connect = one real RTT`, async () => {
    const out = await run(['--link', LINK, '--page', 'pm95', '--strategy', 'browser,getlist', '--json', '--getlist', cliPath, '--timeout', '15000']);
    expect({ code: out.code, stderr: out.code === 0 ? '' : out.stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(out.stdout) as DemoLinkJson;
    expect(result.link).toMatchObject({ name: LINK, rttMs: RTT_MS, info: { congestionControl: 'reno' } });
    expect(result.pages.map((p) => [p.page, p.requests])).toEqual([['pm95-2544-10', 11]]);
    const page = result.pages[0] as DemoLinkJson['pages'][number];
    expect(page.runs.map((r) => r.strategy)).toEqual(['browser', 'getlist']);
    for (const r of page.runs) {
      expect(r.errors).toBe(0);
      expect(r.requests).toHaveLength(11);
      for (const q of r.requests) expect({ url: q.url, status: q.status, error: q.error }).toEqual({ url: q.url, status: 200, error: null });
      expect(r.handshakes.length).toBeGreaterThan(0);
    }

    // Real handshakes: never faster than the RTT, typically a few ms above it (the relay demo reads
    // ≈ 0). The upper bound on each one leaves room for a client busy parsing when its SYN-ACK lands.
    const connects = page.runs.flatMap((r) => r.handshakes.map((h) => h.tcpMs));
    for (const ms of connects) {
      expect(ms).toBeGreaterThanOrEqual(RTT_MS - 0.5);
      expect(ms).toBeLessThan(RTT_MS + 40);
    }
    expect(result.tcpConnect).toMatchObject({ connections: connects.length, linkRttMs: RTT_MS });
    expect(result.tcpConnect.medianMs).toBeLessThan(RTT_MS + 8);

    // A page over a 100 ms link takes several round trips; getlist is not slower than browser.
    const total = new Map(page.runs.map((r) => [r.strategy, r.totalMs]));
    const browser = total.get('browser') as number;
    const getlist = total.get('getlist') as number;
    expect(browser).toBeGreaterThanOrEqual(3 * RTT_MS);
    expect(getlist).toBeGreaterThanOrEqual(3 * RTT_MS);
    expect(getlist).toBeLessThanOrEqual(browser * 1.1 + 20);

    // The link (and the demo server that ran in it) went away with the process.
    expect(namespacesOf(out.pid)).toEqual([]);
  }, 30_000);
});
