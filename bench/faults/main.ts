/**
 * `node dist/bench/faults.js [--faults stall,idle,h2] [--runs N] [--parallel P] [--strategies a,b,…] [--out FILE]`
 * — three fault families run N times per case and strategy on loopback, P loads at once, each
 * against its own fault injector:
 *
 * - `stall`: the stalled-response cases (test/support/stall-cases.ts). A row passes with 0 wrong
 *   bodies and 0 lost requests, the stalled resource failing with its own code, every other
 *   resource done before the stalled one's own timeout.
 * - `idle`: a keep-alive timeout racing the next request (test/support/idle-cases.ts), from 0 to
 *   15 ms. A row passes with 0 wrong bodies and 0 lost requests.
 * - `h2`: HTTP/2 stream faults (test/support/h2-stream-cases.ts): refused streams, a stream limit
 *   below the burst, a stream reset or a session destroyed mid-body, GOAWAY at a per-connection
 *   limit. A row passes with 0 wrong bodies, 0 lost requests, none sent more than MAX_SENDS times
 *   or answered more often than sent, and no more sessions than the case allows.
 *
 * Writes the counts per case and strategy to FILE and prints each family's table with its verdicts.
 */
import { writeFileSync } from 'node:fs';
import { intValue, listValue, type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { runMain } from '../cli/run-main';
import { OTHERS_DONE_MS, runStall, STALL_CODES, STALL_STRATEGIES, STALLS, type StallOutcome } from '../../test/support/stall-cases';
import { IDLE_STRATEGIES, IDLE_TIMEOUTS_MS, runIdle, type IdleOutcome } from '../../test/support/idle-cases';
import { H2_STRATEGIES, H2_STREAM_CASES, runH2Stream, type H2StreamOutcome } from '../../test/support/h2-stream-cases';
import { h2StreamRow, h2StreamTable, type H2StreamRow } from './h2-stream-table';
import { idleRow, idleTable, type IdleRow } from './idle-table';
import { stallRow, stallTable, type StallRow } from './stall-table';

const FAMILIES = ['stall', 'idle', 'h2'];
const ALL_STRATEGIES = [...new Set([...STALL_STRATEGIES, ...IDLE_STRATEGIES, ...H2_STRATEGIES])];

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/faults.js [options]',
  options: {
    faults: { type: 'string', value: 'a,b', default: FAMILIES.join(','), help: 'fault families, in the order run: stall (stalled responses), idle (keep-alive timeouts racing requests), h2 (HTTP/2 stream refusals, resets and GOAWAY)' },
    runs: { type: 'string', value: 'N', default: '200', help: 'loads per case and strategy' },
    parallel: { type: 'string', value: 'P', default: '20', help: 'loads at once, each with its own server' },
    strategies: { type: 'string', value: 'a,b,…', default: ALL_STRATEGIES.join(','), help: 'strategies, in the order run (a family runs those of them it has)' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/faults.json', help: 'the counts, as JSON' },
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return 0;
  const runs = intValue(cl.values.runs, 'runs', 200, 1, 100_000, benchUsage);
  const parallel = intValue(cl.values.parallel, 'parallel', 20, 1, 200, benchUsage);
  const strategies = listValue(cl.values.strategies) ?? ALL_STRATEGIES;
  const bad = strategies.filter((s) => !(ALL_STRATEGIES as readonly string[]).includes(s));
  if (bad.length > 0) throw benchUsage(`--strategies: unknown ${bad.join(', ')}; expected some of ${ALL_STRATEGIES.join(', ')}`);
  const families = listValue(cl.values.faults) ?? FAMILIES;
  const badFamilies = families.filter((f) => !FAMILIES.includes(f));
  if (badFamilies.length > 0) throw benchUsage(`--faults: unknown ${badFamilies.join(', ')}; expected some of ${FAMILIES.join(', ')}`);
  const out = String(cl.values.out ?? 'bench/results/faults.json');
  const rows: StallRow[] = [];
  const idleRows: IdleRow[] = [];
  const h2Rows: H2StreamRow[] = [];
  const started = new Date().toISOString();
  const save = () => writeFileSync(out, `${JSON.stringify({ date: started, argv, runs, parallel, othersDoneGoalMs: OTHERS_DONE_MS, rows, idleRows, h2Rows }, null, 1)}\n`);
  /** `runs` outcomes of `one`, `parallel` at a time. */
  const many = async <T>(one: () => Promise<T>): Promise<T[]> => {
    const outcomes: T[] = [];
    for (let run = 0; run < runs; run += parallel) outcomes.push(...await Promise.all(Array.from({ length: Math.min(parallel, runs - run) }, one)));
    return outcomes;
  };
  for (const family of families) {
    if (family === 'stall') {
      for (const stall of STALLS) {
        for (const name of STALL_STRATEGIES.filter((s) => strategies.includes(s))) {
          const outcomes: StallOutcome[] = await many(() => runStall(name, stall));
          const row = stallRow(stall.name, name, outcomes, STALL_CODES, OTHERS_DONE_MS);
          rows.push(row);
          process.stderr.write(`${stall.name} / ${name}: ${row.runs} runs, ${row.wrongBodies} wrong bodies, ${row.lost} lost, victim ${JSON.stringify(row.victimCodes)}, others done max ${row.othersDoneMaxMs} ms\n`);
          save();
        }
      }
      process.stdout.write(`${stallTable(rows)}\n\n`);
    } else if (family === 'h2') {
      for (const c of H2_STREAM_CASES) {
        for (const name of H2_STRATEGIES.filter((s) => strategies.includes(s))) {
          const outcomes: H2StreamOutcome[] = await many(() => runH2Stream(name, c));
          const row = h2StreamRow(c, name, outcomes);
          h2Rows.push(row);
          process.stderr.write(`${c.name} / ${name}: ${row.runs} runs, ${row.resends} resends, ${row.wrongBodies} wrong bodies, ${row.lost} lost, ${row.overSent + row.unanswered} over-sent or unanswered, sessions max ${row.sessionsMax}\n`);
          save();
        }
      }
      process.stdout.write(`${h2StreamTable(h2Rows, parallel)}\n\n`);
    } else {
      for (const ms of IDLE_TIMEOUTS_MS) {
        for (const name of IDLE_STRATEGIES.filter((s) => strategies.includes(s))) {
          const outcomes: IdleOutcome[] = await many(() => runIdle(name, ms));
          const row = idleRow(ms, name, outcomes);
          idleRows.push(row);
          process.stderr.write(`idle close after ${ms} ms / ${name}: ${row.runs} runs, ${row.resends} resends, ${row.wrongBodies} wrong bodies, ${row.lost} lost ${JSON.stringify(row.lostCodes)}\n`);
          save();
        }
      }
      process.stdout.write(`${idleTable(idleRows, parallel)}\n\n`);
    }
  }
  return [...rows, ...idleRows, ...h2Rows].every((r) => r.verdict === 'PASS') ? 0 : 1;
}

runMain('faults', () => main(process.argv.slice(2)));
