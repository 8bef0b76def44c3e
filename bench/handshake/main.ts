/**
 * `node dist/bench/handshake-fidelity.js [--rounds N] [--targets loopback,busy,50,100] [--cost] [--json]` —
 * how close getlist's TCP connect times are to curl's, side by side in one run:
 *
 * - loopback: getlist's demo server on 127.0.0.1, 6 connections opening at once, `--strategy`
 *   (default browser); goal: getlist's TCP p50 within +1 ms of curl's;
 * - busy: the same with the `getlist` strategy, whose page work keeps the event loop busy while
 *   connections open; same goal;
 * - `50`, `100`: the packet-level link of bench/link at that RTT (needs root or rootless user
 *   namespaces); goal: getlist's TCP p50 within +0..3 ms of the RTT.
 *
 * Every getlist load runs twice: TCP timed by the connect timer (what getlist does) and with
 * `--connect-in loop`, on getlist's own event loop (what it did before). Prints one row per
 * target: curl p50/p90, getlist p50/p90 and loop delay, the in-loop p50/p90, and what the hand-over
 * costs (each handshake's total and the page time, p50, per mode), and PASS/MISS per goal. `--json`
 * prints every sample too. `--serve` is internal: the demo server the link targets start in the
 * server namespace.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { getPage } from '../../native-host/demo/corpus';
import { median } from '../../src/stats/median';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { serveWhenAsked, startDemoServerIn, type DemoServerInNamespace } from '../demo/demo-server-process';
import { connectCost, formatCost } from './connect-cost';
import { runFidelityTarget, type FidelitySamples, type FidelityTarget } from './fidelity-run';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { nearestRank } from '../engine/stats';
import { runMain } from '../cli/run-main';

const PAGE = 'pm95-2544-30';
const PARALLEL = 6;
const HOST = 'fidelity.getlist.test';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/handshake-fidelity.js [--rounds N] [--targets loopback,busy,50,100] [--strategy S] [--cost] [--json]',
  notes: ['TCP connect time: getlist vs curl on loopback (idle and under the getlist strategy\'s load) and on the packet-level link, 6 connections opening at once.'],
  options: {
    rounds: { type: 'string', value: 'N', help: 'rounds per target, curl and getlist interleaved', default: '10' },
    targets: { type: 'string', value: 'a,b', help: 'loopback, busy and/or link RTTs in ms', default: 'loopback,busy,50,100' },
    strategy: { type: 'string', value: 'S', help: 'getlist strategy to load with (busy: always getlist)', default: 'browser' },
    json: { type: 'boolean', help: 'print the samples and summaries as JSON' },
    cost: { type: 'boolean', help: 'only what the connect timer costs per connection against connecting in the loop (in this process, loopback, 1 and 6 at once)' },
    serve: { type: 'boolean', help: 'internal: run the demo server (with --host, --port)', hidden: true },
    host: { type: 'string', value: 'ADDR', help: 'internal: --serve address', hidden: true },
    port: { type: 'string', value: 'N', help: 'internal: --serve port', hidden: true },
    page: { type: 'string', value: 'a,b', help: 'internal: --serve pages', hidden: true },
  },
};

type Spread = { n: number; p50: number; p90: number };

interface Row {
  target: string;
  rttMs: number;
  strategy: string;
  curl: Spread;
  getlist: Spread;
  cold: { n: number; p50: number };
  loopDelay: { p50: number; max: number };
  /** The same loads with TCP timed on getlist's own event loop (`--connect-in loop`). */
  inLoop: Spread;
  /** p50 of each handshake's `totalMs` and of the page time, connect timer vs in the loop: the hand-over's cost. */
  cost: { handshakeTotal: { timer: number; loop: number }; page: { timer: number; loop: number } };
  goal: string;
  pass: boolean;
}

const spread = (xs: readonly number[]): Spread => ({ n: xs.length, p50: median(xs), p90: nearestRank(xs, 0.9) });

export function fidelityRow(target: string, rttMs: number, strategy: string, s: FidelitySamples): Row {
  const curl = spread(s.curlTcpMs);
  const getlist = spread(s.getlistTcpMs);
  const cold = { n: s.getlistColdTcpMs.length, p50: median(s.getlistColdTcpMs) };
  const loopDelay = { p50: median(s.getlistLoopDelayMs), max: Math.max(...s.getlistLoopDelayMs.filter(Number.isFinite)) };
  const cost = {
    handshakeTotal: { timer: median(s.getlistHandshakeTotalMs), loop: median(s.loopHandshakeTotalMs) },
    page: { timer: median(s.getlistPageMs), loop: median(s.loopPageMs) },
  };
  const pass = rttMs === 0 ? getlist.p50 <= curl.p50 + 1 : getlist.p50 >= rttMs && getlist.p50 <= rttMs + 3;
  const goal = rttMs === 0 ? 'getlist p50 ≤ curl p50 + 1 ms' : `getlist p50 in [${rttMs}, ${rttMs + 3}] ms`;
  return { target, rttMs, strategy, curl, getlist, cold, loopDelay, inLoop: spread(s.loopTcpMs), cost, goal, pass };
}

function formatRows(rows: readonly Row[]): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '—');
  const head = ['target', 'strategy', 'curl n', 'curl p50', 'curl p90', 'getlist n', 'getlist p50', 'getlist p90', 'loop delay max', 'in-loop p50', 'in-loop p90', 'total p50 timer/loop', 'page p50 timer/loop', 'goal', ''];
  const body = rows.map((r) => [
    r.target, r.strategy, String(r.curl.n), f(r.curl.p50), f(r.curl.p90), String(r.getlist.n), f(r.getlist.p50), f(r.getlist.p90), f(r.loopDelay.max), f(r.inLoop.p50), f(r.inLoop.p90),
    `${f(r.cost.handshakeTotal.timer)} / ${f(r.cost.handshakeTotal.loop)}`, `${f(r.cost.page.timer)} / ${f(r.cost.page.loop)}`, r.goal, r.pass ? 'PASS' : 'MISS',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i <= 1 || i >= 13 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ').trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const v = args.values;
  const served = serveWhenAsked(v, PAGE, benchUsage);
  if (served) return served;
  const rounds = intValue(v.rounds, 'rounds', 10, 1, 1000, benchUsage);
  if (v.cost === true) {
    const cost = await connectCost(rounds, [1, PARALLEL]);
    process.stdout.write(v.json === true ? `${JSON.stringify({ cost })}\n` : `Connect cost on an idle loop, ${rounds} rounds (ms; CPU per connection)\n${formatCost(cost)}\n`);
    return 0;
  }
  const targets = listValue(v.targets) ?? ['loopback', 'busy', '50', '100'];
  const strategy = typeof v.strategy === 'string' ? v.strategy : 'browser';
  const root = resolve(__dirname, '..', '..');
  const cliPath = join(root, 'bin', 'getlist.js');
  const progress = (line: string) => process.stderr.write(`[fidelity] ${line}\n`);
  const page = getPage(PAGE);
  const run = { cliPath, rounds, parallel: PARALLEL, strategy, timeoutMs: 60_000, progress };
  const rows: Row[] = [];
  const samples: Record<string, FidelitySamples> = {};

  // busy: the getlist strategy's own load (discovery, dispatch, pipelined responses) on the loop while connections open.
  for (const [name, s] of [['loopback', strategy], ['busy', 'getlist']] as const) {
    if (!targets.includes(name)) continue;
    const local = { execInServer: (cmd: string, a: readonly string[], o: object) => spawn(cmd, a, o) };
    const server: DemoServerInNamespace = await startDemoServerIn(local, { entry: __filename, host: '127.0.0.1', port: 0, pages: [PAGE] });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const t: FidelityTarget = { name, rttMs: 0, pageUrl: origin + page.path, resourceUrls: page.resources.map((r) => origin + r.path), exec: (c, a, o) => spawn(c, a, o) };
      samples[name] = await runFidelityTarget(t, { ...run, strategy: s });
      rows.push(fidelityRow(name, 0, s, samples[name]));
    } finally {
      server.child.kill('SIGKILL');
    }
  }
  const rtts = targets.filter((t) => t !== 'loopback' && t !== 'busy').map((t) => intValue(t, 'targets', 50, 1, 2000, benchUsage));
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
      rows.push(fidelityRow(name, rttMs, strategy, samples[name]));
    } finally {
      await link.close().catch(() => undefined);
    }
  }
  process.stdout.write(v.json === true ? `${JSON.stringify({ page: PAGE, parallel: PARALLEL, strategy, rounds, rows, samples })}\n` : `TCP connect, ms (${PARALLEL} connections opening at once, ${rounds} rounds)\n${formatRows(rows)}\n`
    + 'getlist: TCP timed by the connect timer (the default); in-loop: the same loads with --connect-in loop, on getlist\'s own event loop\n'
    + 'p50/p90: the 2nd and 3rd run of each `getlist load --repeat 3` process (warm, as the host is); loop delay max: the records\' loopDelayMs (DNS and TLS only with the timer)\n'
    + 'total / page p50: each handshake\'s totalMs (asked for → usable) and each run\'s page time, timer / in-loop: what handing the socket over costs\n');
  return 0;
}

runMain('handshake-fidelity', () => main(process.argv.slice(2)));
