/**
 * `node dist/bench/diagnosis.js [--iterations N] [--out FILE]` — what "where the time went" costs:
 * the popup's diagnosis of a recorded page (src/page/diagnosis/diagnose.ts: its structure from the
 * record, the lower bound and the ideal bound, the critical path, the gap) and the strip and gap
 * rows it draws, timed on a constructed 200-request page (bench/diagnosis/page-200.ts) and the
 * corpus's largest pages. V8 as in Chromium's extension pages; it runs in the popup, never in the
 * page, so the page's main thread spends nothing. Each diagnosis is timed twice: wall clock, and the
 * process's CPU time (what the diagnosis itself costs, without the time other processes held the
 * core; the machine's load average is recorded beside). Goal: CPU p99 ≤ 5 ms for the 200-request
 * page. Writes bench/results/diagnosis-latest.json (or --out).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { diagnose } from '../../src/page/diagnosis/diagnose';
import { gapRows, stripCells } from '../../src/page/diagnosis/path-strip';
import type { PageRecord } from '../../src/page/model/page-record';
import { getBenchPage, type BenchPage } from '../corpus/bench-corpus';
import { BenchRunError } from '../cli/bench-run-error';
import { intValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { nearestRank, round } from '../engine/stats';
import { page200 } from './page-200';
import { recordedBenchPage } from './recorded-bench-page';

const GOAL_P99_MS = 5;
const RTT_MS = 80;

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/diagnosis.js [--iterations N] [--out FILE]',
  notes: ['Time of the popup\'s "where the time went" diagnosis per page (p50, p99, max).'],
  options: {
    iterations: { type: 'string', value: 'N', help: 'timed diagnoses per page, after as many untimed', default: '500' },
    out: { type: 'string', value: 'FILE', help: 'results file', default: 'bench/results/diagnosis-latest.json' },
  },
};

interface Spread {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Row {
  page: string;
  requests: number;
  criticalPath: number;
  wall: Spread;
  cpu: Spread;
}

const spread = (xs: readonly number[]): Spread => ({ p50Ms: round(nearestRank(xs, 0.5), 3), p99Ms: round(nearestRank(xs, 0.99), 3), maxMs: round(Math.max(...xs), 3) });
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

function timePage(page: BenchPage, iterations: number): Row {
  const record: PageRecord = recordedBenchPage(page, RTT_MS);
  const once = () => {
    const d = diagnose(record);
    if (d.status !== 'ok') throw new BenchRunError('E_RUN_FAILED', `${page.name}: ${d.code}: ${d.message}`);
    stripCells(d);
    gapRows(d.gap);
    return d;
  };
  for (let i = 0; i < iterations; i++) once();
  const wall: number[] = [];
  const cpu: number[] = [];
  let d = once();
  for (let i = 0; i < iterations; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    d = once();
    wall.push(performance.now() - t0);
    cpu.push(cpuMs(process.cpuUsage(c0)));
  }
  return { page: page.name, requests: d.load.requests.length, criticalPath: d.criticalPath.length, wall: spread(wall), cpu: spread(cpu) };
}

async function main(argv: readonly string[]): Promise<number> {
  const args = benchCommandLine(argv, COMMAND);
  if (!args) return 0;
  const iterations = intValue(args.values.iterations, 'iterations', 500, 10, 100_000, benchUsage);
  const out = typeof args.values.out === 'string' ? args.values.out : 'bench/results/diagnosis-latest.json';
  const pages = [page200(), getBenchPage('almanac-p90'), getBenchPage('mcmanus-159'), getBenchPage('almanac-median')];
  const rows = pages.map((p) => timePage(p, iterations));
  const goalRow = rows[0] as Row;
  const goal = { cpuP99Ms: GOAL_P99_MS, requests: goalRow.requests, met: goalRow.cpu.p99Ms <= GOAL_P99_MS };
  const loadAverage = os.loadavg().map((x) => round(x, 2));
  writeFileSync(out, `${JSON.stringify({ bench: 'diagnosis', at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', loadAverage, rttMs: RTT_MS, iterations, rows, goal }, null, 2)}\n`);
  const ms3 = (s: Spread) => [s.p50Ms, s.p99Ms, s.maxMs].map((x) => `${x} ms`.padStart(9)).join(' ');
  process.stdout.write(`page              requests  path  ${'cpu p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}  ${'wall p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}\n`);
  for (const r of rows) process.stdout.write(`${r.page.padEnd(16)}  ${String(r.requests).padStart(8)}  ${String(r.criticalPath).padStart(4)}  ${ms3(r.cpu)}  ${ms3(r.wall)}\n`);
  process.stdout.write(`load average ${loadAverage.join(' ')} on ${os.cpus().length} cores\n`);
  process.stdout.write(`${goal.met ? 'PASS' : 'MISS'} CPU p99 ≤ ${GOAL_P99_MS} ms for a ${goal.requests}-request page\nresults: ${out}\n`);
  return 0;
}

runMain('diagnosis', () => main(process.argv.slice(2)));
