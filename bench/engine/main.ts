/**
 * `npm run bench:engine` — the engine's performance goals, measured side by side in one run:
 *
 * 1. scheduler overhead per request at 10,000 queued requests (bench/engine/scheduler-overhead.ts);
 * 2. loopback throughput of `getlist` vs plain undici at the same connections and depth
 *    (bench/engine/loopback-throughput.ts);
 * 3. page load time on the demo site at 100 ms RTT, `getlist` vs http10 / browser / pipelined
 *    (bench/engine/demo-comparison.ts).
 *
 * Prints tables and one PASS/MISS line per goal. Exits non-zero only if a benchmark crashes; a
 * missed goal is a result, not an error.
 *
 * `--json` prints the results document instead of the tables; `--only a,b` runs a subset, saved to
 * bench/results/tmp/ instead of replacing bench/results/engine-latest.json. `--help` lists the
 * options with their defaults (bench/engine/engine-args.ts).
 *
 * Progress goes to stderr; bench/README.md gives a full run's length.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { helpText } from '../cli/command-line';
import { ENGINE_BENCHMARKS, ENGINE_COMMAND, parseEngineArgs } from './engine-args';
import { runDemoComparison } from './demo-comparison';
import { judgeGoals, type EngineResults } from './engine-goals';
import { isContenderWorker, serveContender } from './contender-worker';
import { runLoopbackThroughput } from './loopback-throughput';
import { collectMeta, loadNow } from './meta';
import { formatReport } from './engine-report';
import { runSchedulerOverhead } from './scheduler-overhead';
import { progress } from './stats';
import { runMain } from '../cli/run-main';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const args = parseEngineArgs(argv);
  if (args.mode === 'help') {
    process.stdout.write(`${helpText(ENGINE_COMMAND)}\n`);
    return 0;
  }
  const startedAt = new Date();
  const loadAtStart = loadNow();
  const t0 = performance.now();
  const results: EngineResults = {};
  if (args.only.has('scheduler')) {
    progress('scheduler overhead…');
    results.schedulerOverhead = runSchedulerOverhead();
  }
  if (args.only.has('loopback')) {
    progress('loopback throughput…');
    results.loopbackThroughput = await runLoopbackThroughput();
  }
  if (args.only.has('demo')) {
    progress('demo site at 100 ms RTT (about a minute; http10 on mcmanus-159 alone takes ~35 s)…');
    results.demo = await runDemoComparison();
  }
  const elapsedMs = performance.now() - t0;
  const goals = judgeGoals(results);
  const meta = collectMeta(startedAt, elapsedMs, argv, loadAtStart);
  const doc = { meta, goals, ...results };

  const full = args.only.size === ENGINE_BENCHMARKS.length;
  const file = resolve(full ? 'bench/results/engine-latest.json' : 'bench/results/tmp/engine-partial.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  progress(`results written to ${file}`);

  process.stdout.write(args.json ? `${JSON.stringify(doc, null, 2)}\n` : `\n${formatReport(results, goals, meta)}\n`);
  return 0;
}

// A loopback contender's worker thread runs this same bundle (contender-worker.ts).
if (isContenderWorker()) serveContender();
else runMain('bench:engine', main);
