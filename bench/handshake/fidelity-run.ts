/**
 * One target of the handshake-fidelity benchmark: the same server, reached by curl and by
 * `getlist load`, each opening `parallel` connections at once, rounds interleaved (curl, getlist,
 * curl, …) so load on the machine hits both alike. TCP connect per connection:
 *
 * - curl: `time_connect − time_namelookup` of each transfer of `curl -Z --parallel-max N`;
 * - getlist: `tcpMs` of every handshake record of `getlist load --repeat R --json` (its
 *   `loopDelayMs` kept beside it: the most event-loop delay that record may include), once with
 *   TCP timed by the connect timer (the default) and once with `--connect-in loop`, on getlist's
 *   own event loop, the page's work included. The first
 *   run of each process is kept apart as "cold": its connects wait behind the process's first
 *   compile of the code they run, which a long-running host pays once, not per page.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { BenchRunError } from '../cli/bench-run-error';
import { childOutput } from '../run/child-output';
import { firstLoadRun } from '../run/getlist-contender';

export interface FidelityTarget {
  /** Row label, e.g. `loopback` or `link 50 ms`. */
  name: string;
  /** The link's RTT, or 0 on loopback. */
  rttMs: number;
  /** The page `getlist load` loads. */
  pageUrl: string;
  /** Resource URLs curl fetches, one per connection. */
  resourceUrls: readonly string[];
  /** Runs a command where the client lives (loopback: here; link: the client namespace). */
  exec: (cmd: string, args: readonly string[], opts: SpawnOptions) => ChildProcess;
}

export interface FidelitySamples {
  curlTcpMs: number[];
  /** Runs after the first of each process, TCP connects made and timed by the connect timer. */
  getlistTcpMs: number[];
  getlistLoopDelayMs: number[];
  /** First run of each process. */
  getlistColdTcpMs: number[];
  /** The same loads with `--connect-in loop`: TCP timed on getlist's own, busy, event loop. */
  loopTcpMs: number[];
  loopLoopDelayMs: number[];
  /** Each warm handshake's `totalMs` (asked for → usable) and each warm run's page time, per mode: what the hand-over costs. */
  getlistHandshakeTotalMs: number[];
  loopHandshakeTotalMs: number[];
  getlistPageMs: number[];
  loopPageMs: number[];
}

export interface FidelityRunOptions {
  cliPath: string;
  rounds: number;
  /** Connections opening at once. */
  parallel: number;
  strategy: string;
  timeoutMs: number;
  progress: (line: string) => void;
}

export async function curlConnects(t: FidelityTarget, parallel: number, timeoutMs: number): Promise<number[]> {
  const urls = t.resourceUrls.slice(0, parallel);
  const args = ['-s', '-Z', '--parallel-immediate', '--parallel-max', String(parallel), '-w', '%{time_namelookup} %{time_connect}\\n'];
  for (const u of urls) args.push('-o', '/dev/null', u);
  const out = await childOutput(t.exec('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] }), timeoutMs, 'curl');
  if (out.code !== 0) throw new BenchRunError('E_RUN_FAILED', `curl exited ${out.code ?? out.signal}: ${out.stderr.trim().slice(0, 200)}`);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' ').map(Number))
    .filter((p) => p.length === 2 && p.every(Number.isFinite))
    .map(([lookup, connect]) => ((connect as number) - (lookup as number)) * 1000);
}

type Connect = { tcpMs: number; loopDelayMs: number; totalMs: number };
type LoadRun = { pageMs: number; connects: Connect[] };

/** One `getlist load --repeat 3`: the connects of each run, the first (cold) run first. */
export async function getlistConnects(t: FidelityTarget, o: FidelityRunOptions, connectIn: 'timer' | 'loop' = 'timer'): Promise<LoadRun[]> {
  const args = [o.cliPath, 'load', t.pageUrl, '--strategy', o.strategy, '--connections', String(o.parallel), '--repeat', '3', '--json', '--timeout', String(o.timeoutMs), '--connect-in', connectIn];
  const out = await childOutput(t.exec(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }), o.timeoutMs + 15_000, 'getlist load');
  if (out.code !== 0) throw new BenchRunError('E_RUN_FAILED', `getlist load exited ${out.code ?? out.signal}: ${out.stderr.trim().split('\n').pop()?.slice(0, 200) ?? ''}`);
  firstLoadRun(out.stdout); // throws E_RUN_BAD_OUTPUT unless it is `getlist load --json` output
  const { runs } = JSON.parse(out.stdout) as { runs: Array<{ totalMs?: unknown; handshakes?: Array<{ tcpMs?: unknown; loopDelayMs?: unknown; totalMs?: unknown }> }> };
  return runs.map((run) => ({
    pageMs: Number(run.totalMs),
    connects: (run.handshakes ?? []).map((h) => ({ tcpMs: Number(h.tcpMs), loopDelayMs: Number(h.loopDelayMs), totalMs: Number(h.totalMs) })),
  }));
}


/** Each warm run's page time, and each of its connects' TCP, loop delay and handshake total. */
function keep(runs: readonly LoadRun[], pageMs: number[], tcpMs: number[], loopDelayMs: number[], totalMs: number[]): void {
  for (const run of runs) {
    pageMs.push(run.pageMs);
    for (const h of run.connects) {
      tcpMs.push(h.tcpMs);
      loopDelayMs.push(h.loopDelayMs);
      totalMs.push(h.totalMs);
    }
  }
}

export async function runFidelityTarget(t: FidelityTarget, o: FidelityRunOptions): Promise<FidelitySamples> {
  const s: FidelitySamples = {
    curlTcpMs: [], getlistTcpMs: [], getlistLoopDelayMs: [], getlistColdTcpMs: [],
    loopTcpMs: [], loopLoopDelayMs: [], getlistHandshakeTotalMs: [], loopHandshakeTotalMs: [], getlistPageMs: [], loopPageMs: [],
  };
  for (let round = 1; round <= o.rounds; round++) {
    const curl = await curlConnects(t, o.parallel, o.timeoutMs);
    const [cold, ...warm] = await getlistConnects(t, o, 'timer');
    const [, ...loopWarm] = await getlistConnects(t, o, 'loop');
    s.curlTcpMs.push(...curl);
    s.getlistColdTcpMs.push(...(cold?.connects ?? []).map((h) => h.tcpMs));
    keep(warm, s.getlistPageMs, s.getlistTcpMs, s.getlistLoopDelayMs, s.getlistHandshakeTotalMs);
    keep(loopWarm, s.loopPageMs, s.loopTcpMs, s.loopLoopDelayMs, s.loopHandshakeTotalMs);
    const tcp = (runs: readonly LoadRun[]) => runs.map((r) => fmt(r.connects.map((h) => h.tcpMs))).join(' | ');
    o.progress(`${t.name} round ${round}/${o.rounds}: curl ${fmt(curl)} | getlist warm ${tcp(warm)} | in-loop warm ${tcp(loopWarm)}`);
  }
  return s;
}

function fmt(ms: readonly number[]): string {
  return ms.map((v) => v.toFixed(2)).join(' ');
}
