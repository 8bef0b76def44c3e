/**
 * `node dist/bench/faults.js [--runs N] [--parallel P] [--strategies a,b,…] [--out FILE]` — the
 * stalled-response cases (test/support/stall-cases.ts) run N times per case and strategy on
 * loopback, P loads at once, each against its own fault injector. Writes the counts per case and
 * strategy to FILE and prints a table with the goal's verdict: 0 wrong bodies and 0 lost requests,
 * the stalled resource failing with its own code, every other resource done before the stalled
 * one's own timeout.
 */
import { writeFileSync } from 'node:fs';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { OTHERS_DONE_MS, runStall, STALL_CODES, STALL_STRATEGIES, STALLS, type StallOutcome } from '../../test/support/stall-cases';
import { stallRow, stallTable, type StallRow } from './stall-table';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/faults.js [options]',
  options: {
    runs: { type: 'string', value: 'N', default: '200', help: 'loads per case and strategy' },
    parallel: { type: 'string', value: 'P', default: '20', help: 'loads at once, each with its own server' },
    strategies: { type: 'string', value: 'a,b,…', default: STALL_STRATEGIES.join(','), help: 'strategies, in the order run' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/faults-stall.json', help: 'the counts, as JSON' },
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return 0;
  const runs = intValue(cl.values.runs, 'runs', 200, 1, 100_000, benchUsage);
  const parallel = intValue(cl.values.parallel, 'parallel', 20, 1, 200, benchUsage);
  const strategies = listValue(cl.values.strategies) ?? STALL_STRATEGIES;
  const bad = strategies.filter((s) => !(STALL_STRATEGIES as readonly string[]).includes(s));
  if (bad.length > 0) throw benchUsage(`--strategies: unknown ${bad.join(', ')}; expected some of ${STALL_STRATEGIES.join(', ')}`);
  const out = String(cl.values.out ?? 'bench/results/faults-stall.json');
  const rows: StallRow[] = [];
  const started = new Date().toISOString();
  for (const stall of STALLS) {
    for (const name of STALL_STRATEGIES.filter((s) => strategies.includes(s))) {
      const outcomes: StallOutcome[] = [];
      for (let run = 0; run < runs; run += parallel) {
        outcomes.push(...await Promise.all(Array.from({ length: Math.min(parallel, runs - run) }, () => runStall(name, stall))));
      }
      const row = stallRow(stall.name, name, outcomes, STALL_CODES, OTHERS_DONE_MS);
      rows.push(row);
      process.stderr.write(`${stall.name} / ${name}: ${row.runs} runs, ${row.wrongBodies} wrong bodies, ${row.lost} lost, victim ${JSON.stringify(row.victimCodes)}, others done max ${row.othersDoneMaxMs} ms\n`);
      writeFileSync(out, `${JSON.stringify({ date: started, argv, runs, parallel, othersDoneGoalMs: OTHERS_DONE_MS, rows }, null, 1)}\n`);
    }
  }
  process.stdout.write(`${stallTable(rows)}\n`);
  return rows.every((r) => r.verdict === 'PASS') ? 0 : 1;
}

runMain('faults', () => main(process.argv.slice(2)));
