/**
 * The HTTP/2 stream faults' long run (test/support/h2-stream-cases.ts): counts per case and
 * strategy, and the table. A row passes when no request got a wrong body or was lost, none was
 * sent more than `MAX_SENDS` times or answered more often than sent, the server answered every
 * path, and no load opened more sessions than its case allows.
 */
import type { H2StreamCase, H2StreamOutcome } from '../../test/support/h2-stream-cases';
import { lostCell, resendCounts, type ResendCounts } from './resend-counts';

export interface H2StreamRow extends ResendCounts {
  fault: string;
  strategy: string;
  overSent: number;
  unanswered: number;
  sessionsMax: number;
  verdict: 'PASS' | 'FAIL';
}

export function h2StreamRow(c: H2StreamCase, strategy: string, outcomes: readonly H2StreamOutcome[]): H2StreamRow {
  const counts = resendCounts(outcomes);
  const overSent = outcomes.reduce((n, o) => n + o.overSent.length, 0);
  const unanswered = outcomes.reduce((n, o) => n + o.unanswered.length, 0);
  const sessionsMax = Math.max(0, ...outcomes.map((o) => o.sessions));
  const pass = counts.wrongBodies === 0 && counts.lost === 0 && overSent === 0 && unanswered === 0 && sessionsMax <= c.maxSessions;
  return { fault: c.name, strategy, ...counts, overSent, unanswered, sessionsMax, verdict: pass ? 'PASS' : 'FAIL' };
}

export function h2StreamTable(rows: readonly H2StreamRow[], parallel: number): string {
  const lines = [
    '| the origin | strategy | loads at once | runs | resends | wrong bodies | lost | over-sent | sessions, max | load, median / max ms | verdict |',
    '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|',
  ];
  for (const r of rows) lines.push(`| ${r.fault} | ${r.strategy} | ${parallel} | ${r.runs} | ${r.resends} | ${r.wrongBodies} | ${lostCell(r)} | ${r.overSent + r.unanswered} | ${r.sessionsMax} | ${r.loadMedianMs} / ${r.loadMaxMs} | ${r.verdict} |`);
  return lines.join('\n');
}
