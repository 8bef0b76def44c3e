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
 * Options:
 *   --json             print the results document on stdout instead of the tables
 *   --only=a,b         run a subset: scheduler, loopback, demo (partial results are saved to
 *                      bench/results/tmp/ instead of replacing bench/results/engine-latest.json)
 *
 * Progress goes to stderr. A full run takes about 70 s (half of it http10 loading mcmanus-159).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CodedError } from '../src/errors/coded-error';
import { runDemoComparison } from './engine/demo-comparison';
import { judgeGoals, type EngineResults } from './engine/goals';
import { runLoopbackThroughput } from './engine/loopback-throughput';
import { collectMeta, loadNow } from './engine/meta';
import { formatReport } from './engine/report';
import { runSchedulerOverhead } from './engine/scheduler-overhead';
import { progress } from './engine/stats';

const BENCHMARKS = ['scheduler', 'loopback', 'demo'] as const;
type Benchmark = (typeof BENCHMARKS)[number];

/** A bad command line: reported without a stack, exit code 2. */
class UsageError extends CodedError<'E_USAGE'> {
  constructor(message: string) {
    super('E_USAGE', message);
  }
}

interface Args {
  json: boolean;
  only: Set<Benchmark>;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { json: false, only: new Set(BENCHMARKS) };
  for (const a of argv) {
    if (a === '--json') args.json = true;
    else if (a.startsWith('--only=')) {
      const picked = a.slice('--only='.length).split(',').filter(Boolean);
      const bad = picked.filter((p) => !(BENCHMARKS as readonly string[]).includes(p));
      if (bad.length > 0 || picked.length === 0) throw new UsageError(`--only takes a list of ${BENCHMARKS.join(', ')}; got ${a}`);
      args.only = new Set(picked as Benchmark[]);
    } else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node dist/bench/engine.js [--json] [--only=scheduler,loopback,demo]\n');
      process.exit(0);
    } else throw new UsageError(`unknown option ${a} (try --help)`);
  }
  return args;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
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

  const full = args.only.size === BENCHMARKS.length;
  const file = resolve(full ? 'bench/results/engine-latest.json' : 'bench/results/tmp/engine-partial.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  progress(`results written to ${file}`);

  process.stdout.write(args.json ? `${JSON.stringify(doc, null, 2)}\n` : `\n${formatReport(results, goals, meta)}\n`);
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`bench:engine: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`bench:engine crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
