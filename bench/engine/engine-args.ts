/**
 * The command line of `npm run bench:engine` (`node dist/bench/engine.js`). Every mistake is
 * `E_BENCH_USAGE` (exit 2).
 */
import { listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BenchRunError } from '../cli/bench-run-error';

export const ENGINE_BENCHMARKS = ['scheduler', 'loopback', 'demo'] as const;
export type EngineBenchmark = (typeof ENGINE_BENCHMARKS)[number];

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const ENGINE_COMMAND: CommandSpec = {
  usage: 'node dist/bench/engine.js [--json] [--only a,b]',
  options: {
    json: { type: 'boolean', help: 'print the results document on stdout instead of the tables' },
    only: {
      type: 'string', value: 'a,b', default: ENGINE_BENCHMARKS.join(','),
      help: 'run a subset; partial results go to bench/results/tmp/engine-partial.json, not engine-latest.json',
    },
  },
  notes: [
    'scheduler: overhead per request at 10,000 queued; loopback: getlist vs plain undici throughput;',
    'demo: the demo pages at 100 ms RTT, getlist vs http10 / browser / pipelined (about a minute).',
    'Prints one PASS/MISS line per goal; exit status 1 only if a benchmark crashes, 2 on usage (E_BENCH_USAGE).',
  ],
};

export type EngineArgs = { mode: 'help' } | { mode: 'run'; json: boolean; only: Set<EngineBenchmark> };

export function parseEngineArgs(argv: readonly string[]): EngineArgs {
  const { values: v, help } = parseCommandLine(argv, ENGINE_COMMAND, usage);
  if (help) return { mode: 'help' };
  const picked = listValue(v.only) ?? [...ENGINE_BENCHMARKS];
  const bad = picked.filter((p) => !(ENGINE_BENCHMARKS as readonly string[]).includes(p));
  if (bad.length > 0 || picked.length === 0) throw usage(`--only takes a list of ${ENGINE_BENCHMARKS.join(', ')}; got ${JSON.stringify(v.only)}`);
  return { mode: 'run', json: v.json === true, only: new Set(picked as EngineBenchmark[]) };
}
