/**
 * `node dist/bench/bench.js --quick|--full [--runs N] [--links a,b] [--pages a,b] [--jobs N] [--out FILE]` —
 * the packet-level benchmark (bench/run/): getlist's strategies and real Chromium on emulated
 * links against nginx origins. Runs as root, or rootless where unprivileged user namespaces are
 * allowed (bench/link/rootless.ts). Writes
 * bench/results/bench-<quick|full>-latest.json (rewritten after every link, so an interrupted run
 * keeps every link it finished) and prints a summary; progress goes to stderr. `--jobs N` runs N
 * links at once (see BenchRunOptions.jobs).
 */
import { join, resolve } from 'node:path';
import { BenchRunError } from './run/bench-run-error';
import { fullPlan, quickPlan, type BenchPlan } from './run/bench-matrix';
import { runBench, writeResults } from './run/bench-run';
import { killBrowsersSync } from './run/chromium-contender';
import { ensureLinkPrivileges } from './link/rootless';
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
  // With --links, links run in the order given (put the cells that matter most first).
  const rank = (name: string): number => (links === undefined ? 0 : links.indexOf(name));
  const unknown = links?.filter((l) => !plan.links.some((p) => p.link === l)) ?? [];
  if (unknown.length > 0) throw new BenchRunError('E_BENCH_USAGE', `--links: ${unknown.join(', ')} not in the ${plan.mode} plan`);
  plan.links = plan.links
    .filter((l) => links === undefined || links.includes(l.link))
    .sort((a, b) => rank(a.link) - rank(b.link))
    .map((l) => ({ ...l, cells: l.cells.filter((c) => pages === undefined || pages.includes(c.page)) }))
    .filter((l) => l.cells.length > 0);
  if (plan.links.length === 0) throw new BenchRunError('E_BENCH_USAGE', 'no cell left after --links/--pages');
  return plan;
}

async function main(argv: readonly string[]): Promise<number> {
  const plan = planFrom(argv);
  // Root: nothing to do. Otherwise re-runs this script in a private user namespace and exits with its status.
  await ensureLinkPrivileges();
  const root = resolve(__dirname, '..', '..');
  const out = list(argv, '--out')?.[0] ?? join(root, 'bench', 'results', `bench-${plan.mode}-latest.json`);
  const jobsArg = list(argv, '--jobs')?.[0];
  const jobs = jobsArg === undefined ? 1 : Number(jobsArg);
  if (!(Number.isInteger(jobs) && jobs >= 1 && jobs <= 16)) throw new BenchRunError('E_BENCH_USAGE', `--jobs must be an integer 1..16, got ${jobsArg}`);
  const results = await runBench({
    plan,
    jobs,
    onLinkDone: (partial) => writeResults(out, partial),
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

// Ctrl-C / SIGTERM / SIGHUP: kill the Chromium of a load in progress, then exit; the 'exit' handler
// of bench/link/cleanup-registry.ts removes the namespaces, devices and processes of every link.
// The results file already holds every finished link.
for (const [signal, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}: stopping; finished links are in the results file\n`);
    killBrowsersSync();
    process.exit(128 + n);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err as { code?: string; message?: string };
    const message = e.message ?? String(err);
    // LinkError messages already start with their code.
    process.stderr.write(`bench: ${message.startsWith(`${e.code}:`) ? message : `${e.code ?? 'E_BENCH_INTERNAL'}: ${message}`}\n`);
    process.exit(e.code === 'E_BENCH_USAGE' ? 2 : 1);
  },
);
