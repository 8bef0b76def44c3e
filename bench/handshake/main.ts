/**
 * `node dist/bench/handshake-fidelity.js [--rounds N] [--targets loopback,50,100] [--json]` — how
 * close getlist's TCP connect times are to curl's, side by side in one run:
 *
 * - loopback: getlist's demo server on 127.0.0.1, 6 connections opening at once; goal: getlist's
 *   TCP p50 within +1 ms of curl's;
 * - `50`, `100`: the packet-level link of bench/link at that RTT (needs root or rootless user
 *   namespaces); goal: getlist's TCP p50 within +0..3 ms of the RTT.
 *
 * Prints one row per target: curl p50/p90, getlist p50/p90, getlist's `loopDelayMs` p50/max (the
 * most event-loop delay a record may include), and PASS/MISS per goal. `--serve` is internal: the
 * demo server the link targets start in the server namespace.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { getPage } from '../../native-host/demo/corpus';
import { median } from '../../src/stats/median';
import { helpText, intValue, listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { serveDemo, startDemoServerIn, type DemoServerInNamespace } from '../demo/demo-server-process';
import { runFidelityTarget, type FidelitySamples, type FidelityTarget } from './fidelity-run';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { BenchRunError } from '../cli/bench-run-error';
import { nearestRank } from '../engine/stats';
import { runMain } from '../cli/run-main';

const PAGE = 'pm95-2544-30';
const PARALLEL = 6;
const HOST = 'fidelity.getlist.test';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/handshake-fidelity.js [--rounds N] [--targets loopback,50,100] [--strategy S] [--json]',
  notes: ['TCP connect time: getlist vs curl on loopback and on the packet-level link, 6 connections opening at once.'],
  options: {
    rounds: { type: 'string', value: 'N', help: 'rounds per target, curl and getlist interleaved', default: '10' },
    targets: { type: 'string', value: 'a,b', help: 'loopback and/or link RTTs in ms', default: 'loopback,50,100' },
    strategy: { type: 'string', value: 'S', help: 'getlist strategy to load with', default: 'browser' },
    json: { type: 'boolean', help: 'print the samples and summaries as JSON' },
    serve: { type: 'boolean', help: 'internal: run the demo server (with --host, --port)', hidden: true },
    host: { type: 'string', value: 'ADDR', help: 'internal: --serve address', hidden: true },
    port: { type: 'string', value: 'N', help: 'internal: --serve port', hidden: true },
    page: { type: 'string', value: 'a,b', help: 'internal: --serve pages', hidden: true },
  },
};

interface Row {
  target: string;
  rttMs: number;
  curl: { n: number; p50: number; p90: number };
  getlist: { n: number; p50: number; p90: number };
  cold: { n: number; p50: number };
  loopDelay: { p50: number; max: number };
  goal: string;
  pass: boolean;
}

export function fidelityRow(target: string, rttMs: number, s: FidelitySamples): Row {
  const curl = { n: s.curlTcpMs.length, p50: median(s.curlTcpMs), p90: nearestRank(s.curlTcpMs, 0.9) };
  const getlist = { n: s.getlistTcpMs.length, p50: median(s.getlistTcpMs), p90: nearestRank(s.getlistTcpMs, 0.9) };
  const cold = { n: s.getlistColdTcpMs.length, p50: median(s.getlistColdTcpMs) };
  const loopDelay = { p50: median(s.getlistLoopDelayMs), max: Math.max(...s.getlistLoopDelayMs.filter(Number.isFinite)) };
  const pass = rttMs === 0 ? getlist.p50 <= curl.p50 + 1 : getlist.p50 >= rttMs && getlist.p50 <= rttMs + 3;
  const goal = rttMs === 0 ? 'getlist p50 ≤ curl p50 + 1 ms' : `getlist p50 in [${rttMs}, ${rttMs + 3}] ms`;
  return { target, rttMs, curl, getlist, cold, loopDelay, goal, pass };
}

function formatRows(rows: readonly Row[]): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '—');
  const head = ['target', 'curl n', 'curl p50', 'curl p90', 'getlist n', 'getlist p50', 'getlist p90', 'loop delay p50', 'loop delay max', 'cold p50', 'goal', ''];
  const body = rows.map((r) => [r.target, String(r.curl.n), f(r.curl.p50), f(r.curl.p90), String(r.getlist.n), f(r.getlist.p50), f(r.getlist.p90), f(r.loopDelay.p50), f(r.loopDelay.max), f(r.cold.p50), r.goal, r.pass ? 'PASS' : 'MISS']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 || i >= 10 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ').trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const usage = (m: string) => new BenchRunError('E_BENCH_USAGE', m);
  const args = parseCommandLine(argv, COMMAND, usage);
  if (args.help) {
    process.stdout.write(`${helpText(COMMAND)}\n`);
    return 0;
  }
  const v = args.values;
  if (v.serve === true) return serveDemo(String(v.host ?? '127.0.0.1'), intValue(v.port, 'port', 80, 0, 65535, usage), listValue(v.page) ?? [PAGE]);
  const rounds = intValue(v.rounds, 'rounds', 10, 1, 1000, usage);
  const targets = listValue(v.targets) ?? ['loopback', '50', '100'];
  const strategy = typeof v.strategy === 'string' ? v.strategy : 'browser';
  const root = resolve(__dirname, '..', '..');
  const cliPath = join(root, 'bin', 'getlist.js');
  const progress = (line: string) => process.stderr.write(`[fidelity] ${line}\n`);
  const page = getPage(PAGE);
  const run = { cliPath, rounds, parallel: PARALLEL, strategy, timeoutMs: 60_000, progress };
  const rows: Row[] = [];
  const samples: Record<string, FidelitySamples> = {};

  if (targets.includes('loopback')) {
    const local = { execInServer: (cmd: string, a: readonly string[], o: object) => spawn(cmd, a, o) };
    const server: DemoServerInNamespace = await startDemoServerIn(local, { entry: __filename, host: '127.0.0.1', port: 0, pages: [PAGE] });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const t: FidelityTarget = { name: 'loopback', rttMs: 0, pageUrl: origin + page.path, resourceUrls: page.resources.map((r) => origin + r.path), exec: (c, a, o) => spawn(c, a, o) };
      samples.loopback = await runFidelityTarget(t, run);
      rows.push(fidelityRow('loopback', 0, samples.loopback));
    } finally {
      server.child.kill('SIGKILL');
    }
  }
  const rtts = targets.filter((t) => t !== 'loopback').map((t) => intValue(t, 'targets', 50, 1, 2000, usage));
  if (rtts.length) await ensureLinkPrivileges();
  for (const rttMs of rtts) {
    const link = await startLink({ rttMs, hosts: 1, seed: 1 });
    try {
      const address = link.serverAddrs[0] as string;
      link.setClientHosts({ [HOST]: address });
      await startDemoServerIn(link, { entry: __filename, host: address, port: 80, pages: [PAGE] });
      const origin = `http://${HOST}`;
      const name = `link ${rttMs} ms`;
      const t: FidelityTarget = { name, rttMs, pageUrl: origin + page.path, resourceUrls: page.resources.map((r) => origin + r.path), exec: (c, a, o) => link.execInClient(c, a, o) };
      samples[name] = await runFidelityTarget(t, run);
      rows.push(fidelityRow(name, rttMs, samples[name]));
    } finally {
      await link.close().catch(() => undefined);
    }
  }
  process.stdout.write(v.json === true ? `${JSON.stringify({ page: PAGE, parallel: PARALLEL, strategy, rounds, rows, samples })}\n` : `TCP connect, ms (${PARALLEL} connections opening at once, ${rounds} rounds, getlist --strategy ${strategy})\n${formatRows(rows)}\n`
    + 'getlist p50/p90 and loop delay: the 2nd and 3rd run of each `getlist load --repeat 3` process (warm, as the host is); cold p50: the 1st run\n'
    + 'loop delay: the record\'s loopDelayMs, the event loop\'s busy time during the handshake — the most scheduling delay it may include\n');
  return 0;
}

runMain('handshake-fidelity', () => main(process.argv.slice(2)));
