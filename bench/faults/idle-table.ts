/**
 * The idle-close long run's counts per keep-alive timeout and strategy, and its table. A row
 * passes when no request got a wrong body and none was lost: a request an idle close raced is
 * sent again, and only that costs anything.
 */
import type { IdleOutcome } from '../../test/support/idle-cases';

export interface IdleRow {
  idleCloseMs: number;
  strategy: string;
  runs: number;
  /** Sends beyond each request's first, over every run: how often the close raced a request. */
  resends: number;
  wrongBodies: number;
  lost: number;
  /** Each lost request's code → times, over every run. */
  lostCodes: Record<string, number>;
  loadMedianMs: number;
  loadMaxMs: number;
  verdict: 'PASS' | 'FAIL';
}

export function idleRow(idleCloseMs: number, strategy: string, outcomes: readonly IdleOutcome[]): IdleRow {
  const lostCodes: Record<string, number> = {};
  for (const o of outcomes) for (const [, code] of o.lost) lostCodes[code] = (lostCodes[code] ?? 0) + 1;
  const times = outcomes.map((o) => o.totalMs).sort((a, b) => a - b);
  const wrongBodies = outcomes.reduce((n, o) => n + o.wrongBodies.length, 0);
  const lost = outcomes.reduce((n, o) => n + o.lost.length, 0);
  return {
    idleCloseMs, strategy, runs: outcomes.length,
    resends: outcomes.reduce((n, o) => n + o.resends, 0),
    wrongBodies, lost, lostCodes,
    loadMedianMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    loadMaxMs: Math.round(times[times.length - 1] ?? 0),
    verdict: wrongBodies === 0 && lost === 0 ? 'PASS' : 'FAIL',
  };
}

export function idleTable(rows: readonly IdleRow[], parallel: number): string {
  const lines = [
    '| keep-alive timeout | strategy | loads at once | runs | resends | wrong bodies | lost | load, median / max ms | verdict |',
    '|---:|---|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const r of rows) {
    const codes = Object.entries(r.lostCodes).map(([c, n]) => `${c} × ${n}`).join(', ');
    lines.push(`| ${r.idleCloseMs} ms | ${r.strategy} | ${parallel} | ${r.runs} | ${r.resends} | ${r.wrongBodies} | ${r.lost}${codes ? ` (${codes})` : ''} | ${r.loadMedianMs} / ${r.loadMaxMs} | ${r.verdict} |`);
  }
  return lines.join('\n');
}
