/**
 * Each `getlist load` run beside its own lower bound (src/bound/run-bound.ts): a line under the
 * table, and the `bound` of its JSON. A run that timed no handshake measured no round trip, and its
 * bound is not known: it is said so, never guessed.
 */
import { runBound, type RunBoundLink } from '../../src/bound/run-bound';
import type { Run } from '../../src/run';

export interface RunBoundJson {
  totalMs: number;
  rttMs: number;
  downBitsPerSec: number;
  limitedBy: string;
  lastUrl: string;
  gap: { gapMs: number; discoveryMs: number; handshakesMs: number; queueingMs: number; serverMs: number; bandwidthMs: number };
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
/** Whole ms, or hundredths below 10 ms (a loopback bound is a fraction of one); never "-0". */
const ms = (x: number): string => (Math.abs(x) < 10 ? round(x) + 0 : Math.round(x) + 0).toString();

/** The run's bound as `--json` carries it; null when its round trip is not known. */
export function runBoundJson(run: Run, link: RunBoundLink = {}): RunBoundJson | null {
  const b = runBound(run, link);
  if (b === undefined) return null;
  const g = b.gap;
  return {
    totalMs: round(b.totalMs), rttMs: round(b.rttMs), downBitsPerSec: b.downBitsPerSec, limitedBy: b.limitedBy, lastUrl: b.lastUrl,
    gap: { gapMs: round(g.gapMs), discoveryMs: round(g.discoveryMs), handshakesMs: round(g.handshakesMs), queueingMs: round(g.queueingMs), serverMs: round(g.serverMs), bandwidthMs: round(g.bandwidthMs) },
  };
}

/** One line per run: its bound, the run's total over it, and the gap's parts (server time shown when measured). */
export function boundLines(runs: ReadonlyArray<{ run: Run; repeat: number }>, link: RunBoundLink = {}): string {
  return runs.map(({ run, repeat }) => {
    const head = `  ${run.strategy.padEnd(9)} run ${repeat}: `;
    const b = runBoundJson(run, link);
    if (b === null) return `${head}bound not known (no round trip measured)`;
    const ratio = b.totalMs > 0 ? (run.totalMs / b.totalMs).toFixed(2) : '∞';
    const g = b.gap;
    const server = g.serverMs > 0 ? `, server ${ms(g.serverMs)}` : '';
    return `${head}bound ${ms(b.totalMs)} ms (${run.strategy} ÷ bound ${ratio}); gap: discovery ${ms(g.discoveryMs)}, handshakes ${ms(g.handshakesMs)}, queueing ${ms(g.queueingMs)}${server}, bandwidth ${ms(g.bandwidthMs)} ms`;
  }).join('\n');
}
