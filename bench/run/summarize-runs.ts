/** Per-field median, min and max over a contender's runs; failed runs (with `error`) are left out. */
import { median } from '../../src/stats/median';
import type { RunResult, RunSummary } from './results-schema';

const FIELDS = ['totalMs', 'meanTtfbMs', 'connectionsOpened', 'requestsPerConnection', 'errors'] as const;

function summarise(runs: readonly RunResult[], pick: (xs: number[]) => number): RunSummary {
  const ok = runs.filter((r) => r.error === undefined);
  const out = {} as RunSummary;
  for (const f of FIELDS) {
    const xs = ok.map((r) => r[f]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    out[f] = xs.length === 0 ? null : round(pick(xs));
  }
  return out;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function summariseRuns(runs: readonly RunResult[]): { median: RunSummary; min: RunSummary; max: RunSummary } {
  return {
    median: summarise(runs, median),
    min: summarise(runs, (xs) => Math.min(...xs)),
    max: summarise(runs, (xs) => Math.max(...xs)),
  };
}
