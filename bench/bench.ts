/**
 * `node dist/bench/bench.js --quick|--full [--runs N] [--links a,b] [--pages a,b] [--out FILE]` —
 * the packet-level benchmark (bench/run/): getlist's strategies and real Chromium on emulated
 * links against nginx origins. Needs root (network namespaces). Writes
 * bench/results/bench-<quick|full>-latest.json and prints a summary; progress goes to stderr.
 */
import { join, resolve } from 'node:path';
import { BenchRunError } from './run/bench-run-error';
import { fullPlan, quickPlan, type BenchPlan } from './run/bench-matrix';
import { runBench, writeResults } from './run/bench-run';
import { formatSummary } from './run/summary-table';

function list(argv: readonly string[], flag: string): string[] | undefined {
  const i = argv.indexOf(flag);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new BenchRunError('E_BENCH_USAGE', `${flag} needs a comma-separated value`);
  return v.split(',').filter(Boolean);
}

function planFrom(argv: readonly string[]): BenchPlan {
  const quick = argv.includes('--quick');
  if (quick === argv.includes('--full')) throw new BenchRunError('E_BENCH_USAGE', 'give exactly one of --quick or --full');
  const runsArg = list(argv, '--runs')?.[0];
  const runs = runsArg === undefined ? undefined : Number(runsArg);
  if (runs !== undefined && !(Number.isInteger(runs) && runs >= 1 && runs <= 50)) throw new BenchRunError('E_BENCH_USAGE', `--runs must be an integer 1..50, got ${runsArg}`);
  const plan = quick ? quickPlan(runs) : fullPlan(runs);
  const links = list(argv, '--links');
  const pages = list(argv, '--pages');
  plan.links = plan.links
    .filter((l) => links === undefined || links.includes(l.link))
    .map((l) => ({ ...l, cells: l.cells.filter((c) => pages === undefined || pages.includes(c.page)) }))
    .filter((l) => l.cells.length > 0);
  if (plan.links.length === 0) throw new BenchRunError('E_BENCH_USAGE', 'no cell left after --links/--pages');
  return plan;
}

async function main(argv: readonly string[]): Promise<number> {
  const plan = planFrom(argv);
  const root = resolve(__dirname, '..', '..');
  const out = list(argv, '--out')?.[0] ?? join(root, 'bench', 'results', `bench-${plan.mode}-latest.json`);
  const results = await runBench({
    plan,
    // dist/getlist.js only exports main(); bin/getlist.js is the launcher that calls it.
    cliPath: join(root, 'bin', 'getlist.js'),
    timeoutMs: plan.mode === 'quick' ? 60_000 : 180_000,
    command: ['node', 'dist/bench/bench.js', ...argv].join(' '),
    progress: (line) => process.stderr.write(`[bench] ${line}\n`),
  });
  writeResults(out, results);
  process.stdout.write(`${formatSummary(results)}\nwrote ${out}\n`);
  return results.cells.some((c) => c.error) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err as { code?: string; message?: string };
    process.stderr.write(`bench: ${e.code ?? 'E_BENCH_INTERNAL'}: ${e.message ?? String(err)}\n`);
    process.exit(e.code === 'E_BENCH_USAGE' ? 2 : 1);
  },
);
