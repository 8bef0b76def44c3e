import type { StrategyName } from '../scheduler';
import type { HandshakeRecord } from '../stats/handshake';
import { Histogram } from '../stats/histogram';
import { median } from '../stats/median';
import { runFigures, type Run, type RunFigures } from './run-record';

/**
 * One strategy's result in a few numbers: a `replay-summary` entry, a stored page summary, a row of
 * a comparison table. The handshake percentiles are `null` when no connection was opened.
 */
export interface RunSummary extends RunFigures {
  strategy: StrategyName;
  /** Requests made (document included). */
  requests: number;
  handshakeP50Ms: number | null;
  handshakeP90Ms: number | null;
}

/** The summary of one run: its own figures, and the percentiles of its own handshakes. */
export function summarizeRun(run: Run): RunSummary {
  return {
    strategy: run.strategy,
    ...runFigures(run),
    requests: run.requests.length,
    ...handshakePercentiles(run.handshakes),
  };
}

/** The summary of a strategy's repeated runs. */
export interface StrategySummary extends RunSummary {
  /** How many runs it summarises. */
  runs: number;
}

/**
 * Groups runs by strategy (first-seen order). Each figure is the median over the group's runs,
 * except `errors`, the total over them (a failure in any run stays visible); handshakes of all the
 * group's runs are pooled for the percentiles. For a single run use `summarizeRun`.
 */
export function summarizeStrategies(runs: readonly Run[]): StrategySummary[] {
  const groups = new Map<StrategyName, Run[]>();
  for (const r of runs) groups.set(r.strategy, [...(groups.get(r.strategy) ?? []), r]);
  return [...groups].map(([strategy, rs]) => ({
    strategy,
    runs: rs.length,
    totalMs: median(rs.map((r) => r.totalMs)),
    meanTtfbMs: median(rs.map((r) => r.meanTtfbMs)),
    connectionsOpened: median(rs.map((r) => r.connectionsOpened)),
    requestsPerConnection: median(rs.map((r) => r.requestsPerConnection)),
    requests: median(rs.map((r) => r.requests.length)),
    bytes: median(rs.map((r) => r.bytes)),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    ...handshakePercentiles(rs.flatMap((r) => r.handshakes)),
  }));
}

/** p50 and p90 of the handshakes' total times (from the mergeable histogram); null for none. */
function handshakePercentiles(handshakes: readonly HandshakeRecord[]): Pick<RunSummary, 'handshakeP50Ms' | 'handshakeP90Ms'> {
  if (handshakes.length === 0) return { handshakeP50Ms: null, handshakeP90Ms: null };
  const h = new Histogram();
  for (const x of handshakes) h.record(x.totalMs);
  return { handshakeP50Ms: h.percentile(50), handshakeP90Ms: h.percentile(90) };
}
