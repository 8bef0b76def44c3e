/**
 * The stalled-response long run's counts per case and strategy, and its table. A row passes when
 * no other resource got a wrong body or was lost, the stalled one failed with one of its own codes
 * in every run, and every run's other resources were done before `othersDoneGoalMs`.
 */
import type { StallOutcome } from '../../test/support/stall-cases';

export interface StallRow {
  stall: string;
  strategy: string;
  runs: number;
  /** Other resources handed a body not their own, over every run. */
  wrongBodies: number;
  /** Other resources that failed or got no result, over every run. */
  lost: number;
  /** How the stalled resource ended: code (or `ok`, `wrong`, `missing`) → runs. */
  victimCodes: Record<string, number>;
  othersDoneMedianMs: number;
  othersDoneMaxMs: number;
  totalMaxMs: number;
  verdict: 'PASS' | 'FAIL';
}

export function stallRow(stall: string, strategy: string, outcomes: readonly StallOutcome[], codes: readonly string[], othersDoneGoalMs: number): StallRow {
  const victimCodes: Record<string, number> = {};
  for (const o of outcomes) victimCodes[o.victim] = (victimCodes[o.victim] ?? 0) + 1;
  const done = outcomes.map((o) => o.othersDoneMs).sort((a, b) => a - b);
  const wrongBodies = outcomes.reduce((n, o) => n + o.wrongBodies.length, 0);
  const lost = outcomes.reduce((n, o) => n + o.lost.length, 0);
  const othersDoneMaxMs = Math.round(done[done.length - 1] ?? 0);
  const victimOwn = Object.keys(victimCodes).every((c) => codes.includes(c));
  return {
    stall, strategy, runs: outcomes.length, wrongBodies, lost, victimCodes,
    othersDoneMedianMs: Math.round(done[Math.floor(done.length / 2)] ?? 0),
    othersDoneMaxMs,
    totalMaxMs: Math.round(Math.max(0, ...outcomes.map((o) => o.totalMs))),
    verdict: wrongBodies === 0 && lost === 0 && victimOwn && othersDoneMaxMs < othersDoneGoalMs ? 'PASS' : 'FAIL',
  };
}

export function stallTable(rows: readonly StallRow[]): string {
  const lines = [
    '| stalled response | strategy | runs | wrong bodies | others lost | the stalled one | others done, median / max ms | verdict |',
    '|---|---|---:|---:|---:|---|---:|---:|',
  ];
  for (const r of rows) {
    const codes = Object.entries(r.victimCodes).map(([c, n]) => `${c} × ${n}`).join(', ');
    lines.push(`| ${r.stall} | ${r.strategy} | ${r.runs} | ${r.wrongBodies} | ${r.lost} | ${codes} | ${r.othersDoneMedianMs} / ${r.othersDoneMaxMs} | ${r.verdict} |`);
  }
  return lines.join('\n');
}
