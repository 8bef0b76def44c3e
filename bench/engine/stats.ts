/** Small numeric helpers shared by the benchmarks. */
import { readFileSync } from 'node:fs';

export { median } from '../../src/stats/median';

/** Rounds to `digits` decimal places (JSON output stays readable). */
export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * The nearest-rank `q` quantile of the finite values of `xs` (the smallest value with at least
 * q of them at or below it: p50 of 1…10 is 5, p90 is 9), or NaN when there are none.
 */
export function nearestRank(xs: readonly number[], q: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number) : Number.NaN;
}

/** Progress goes to stderr so `--json` keeps stdout machine-readable. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * CPU time (user + system, ms) of this process's main thread, or undefined off Linux. Unlike
 * `process.cpuUsage()` it excludes worker threads, so a client can be measured while its server
 * runs in a worker. Read from the scheduler's own accounting (`schedstat`, nanoseconds), else from
 * `stat` (one scheduler tick, usually 10 ms: 1.25 µs per request over 8,000 requests).
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
    if (Number.isFinite(ns) && ns > 0) return ns / 1e6;
  } catch {
    // No schedstat (kernel without CONFIG_SCHED_INFO): ticks below.
  }
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}
