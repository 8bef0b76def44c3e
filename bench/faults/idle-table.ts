/**
 * The idle-close long run's counts per keep-alive timeout and strategy, and its table. A row
 * passes when no request got a wrong body and none was lost: a request an idle close raced is
 * sent again, and only that costs anything.
 */
import type { IdleOutcome } from '../../test/support/idle-cases';
import { lostCell, resendCounts, type ResendCounts } from './resend-counts';

export interface IdleRow extends ResendCounts {
  idleCloseMs: number;
  strategy: string;
  verdict: 'PASS' | 'FAIL';
}

export function idleRow(idleCloseMs: number, strategy: string, outcomes: readonly IdleOutcome[]): IdleRow {
  const counts = resendCounts(outcomes);
  return { idleCloseMs, strategy, ...counts, verdict: counts.wrongBodies === 0 && counts.lost === 0 ? 'PASS' : 'FAIL' };
}

export function idleTable(rows: readonly IdleRow[], parallel: number): string {
  const lines = [
    '| keep-alive timeout | strategy | loads at once | runs | resends | wrong bodies | lost | load, median / max ms | verdict |',
    '|---:|---|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const r of rows) lines.push(`| ${r.idleCloseMs} ms | ${r.strategy} | ${parallel} | ${r.runs} | ${r.resends} | ${r.wrongBodies} | ${lostCell(r)} | ${r.loadMedianMs} / ${r.loadMaxMs} | ${r.verdict} |`);
  return lines.join('\n');
}
