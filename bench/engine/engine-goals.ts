/**
 * The engine's performance goals (bench/README.md, "The engine benchmark"), each judged on numbers measured in this run.
 * A missed goal is reported as MISS; it never fails the process.
 */
import type { DemoReport } from './demo-comparison';
import type { ThroughputReport } from './loopback-throughput';
import type { OverheadReport } from './scheduler-overhead';

export interface GoalResult {
  id: string;
  /** The printed line, without the verdict. */
  line: string;
  value: number;
  target: number;
  comparator: '<' | '>=';
  /** `undefined` when the benchmark producing it was not run or produced no number. */
  pass: boolean | undefined;
}

export interface EngineResults {
  schedulerOverhead?: OverheadReport;
  loopbackThroughput?: ThroughputReport;
  demo?: DemoReport;
}

function goal(id: string, line: string, value: number | undefined, comparator: '<' | '>=', target: number): GoalResult {
  const v = value ?? Number.NaN;
  const pass = Number.isFinite(v) ? (comparator === '<' ? v < target : v >= target) : undefined;
  return { id, line, value: v, target, comparator, pass };
}

export function judgeGoals(r: EngineResults): GoalResult[] {
  const goals: GoalResult[] = [];
  if (r.schedulerOverhead) {
    for (const origins of [1, 10]) {
      const c = r.schedulerOverhead.cases.find((x) => x.strategy === 'getlist' && x.origins === origins);
      const label = origins === 1 ? 'scheduler overhead' : `scheduler overhead (${origins} origins)`;
      goals.push(goal(`scheduler-overhead-${origins}`, `${label}: ${c?.usPerRequest.toFixed(2)} µs/request (goal < 20)`, c?.usPerRequest, '<', 20));
    }
  }
  if (r.loopbackThroughput) {
    for (const v of r.loopbackThroughput.variants) {
      const size = v.bodyBytes >= 1024 ? `${v.bodyBytes / 1024} KiB` : `${v.bodyBytes} B`;
      const label = v === r.loopbackThroughput.variants[0] ? 'loopback throughput' : `loopback throughput (${size} bodies)`;
      goals.push(goal(`loopback-${v.bodyBytes}`, `${label} getlist/undici = ${v.ratio.toFixed(2)} (goal ≥ 0.90${v === r.loopbackThroughput.variants[0] ? `, ${size} bodies` : ''})`, v.ratio, '>=', 0.9));
    }
  }
  const page = r.demo?.pages.find((p) => p.page === 'mcmanus-159');
  if (r.demo) {
    const rtt = r.demo.rttMs;
    const a = page?.ratios['http10/getlist'];
    const b = page?.ratios['browser/getlist'];
    goals.push(goal('demo-http10', `demo mcmanus-159 @${rtt} ms RTT http10/getlist = ${a?.toFixed(2)} (goal ≥ 2.5)`, a, '>=', 2.5));
    goals.push(goal('demo-browser', `demo mcmanus-159 @${rtt} ms RTT browser/getlist = ${b?.toFixed(2)} (goal ≥ 1.5)`, b, '>=', 1.5));
  }
  return goals;
}

export function verdict(g: GoalResult): string {
  return g.pass === undefined ? 'N/A' : g.pass ? 'PASS' : 'MISS';
}
