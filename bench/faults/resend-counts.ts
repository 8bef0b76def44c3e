/**
 * What a long run of one fault case counts over its loads when every request must arrive and
 * only re-sending may cost anything: resends, wrong bodies, lost requests by code, load times.
 */
export interface ResendOutcome {
  wrongBodies: readonly string[];
  lost: ReadonlyArray<readonly [string, string]>;
  resends: number;
  totalMs: number;
}

export interface ResendCounts {
  runs: number;
  /** Sends beyond each request's first, over every run. */
  resends: number;
  wrongBodies: number;
  lost: number;
  /** Each lost request's code → times, over every run. */
  lostCodes: Record<string, number>;
  loadMedianMs: number;
  loadMaxMs: number;
}

export function resendCounts(outcomes: readonly ResendOutcome[]): ResendCounts {
  const lostCodes: Record<string, number> = {};
  for (const o of outcomes) for (const [, code] of o.lost) lostCodes[code] = (lostCodes[code] ?? 0) + 1;
  const times = outcomes.map((o) => o.totalMs).sort((a, b) => a - b);
  return {
    runs: outcomes.length,
    resends: outcomes.reduce((n, o) => n + o.resends, 0),
    wrongBodies: outcomes.reduce((n, o) => n + o.wrongBodies.length, 0),
    lost: outcomes.reduce((n, o) => n + o.lost.length, 0),
    lostCodes,
    loadMedianMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    loadMaxMs: Math.round(times[times.length - 1] ?? 0),
  };
}

/** `lost` with its codes, as a table cell: `3 (E_X × 3)`. */
export function lostCell(c: ResendCounts): string {
  const codes = Object.entries(c.lostCodes).map(([code, n]) => `${code} × ${n}`).join(', ');
  return `${c.lost}${codes ? ` (${codes})` : ''}`;
}
