/**
 * `node dist/bench/bench.js --quick|--full [--runs N] [--links a,b] [--pages a,b] [--jobs N] [--out FILE]`
 * (`--help` lists them with their defaults, bench/matrix/matrix-args.ts) —
 * the packet-level benchmark (bench/run/): getlist's strategies and real Chromium on emulated
 * links against nginx origins. Runs as root, or rootless where unprivileged user namespaces are
 * allowed (bench/link/rootless.ts). Writes
 * bench/results/bench-<quick|full>-latest.json (rewritten after every link, so an interrupted run
 * keeps every link it finished) and prints a summary; progress goes to stderr. `--jobs N` runs N
 * links at once (see BenchRunOptions.jobs).
 */
import { join, resolve } from 'node:path';
import { helpText } from '../cli/command-line';
import { BENCH_COMMAND, parseBenchArgs } from './matrix-args';
import { runBench, writeResults } from './run-matrix';
import { killBrowsersSync } from '../run/chromium-contender';
import { ensureLinkPrivileges } from '../link/rootless';
import { formatSummary } from './summary-table';
import { runMain, stopOnSignals } from '../cli/run-main';

async function main(argv: readonly string[]): Promise<number> {
  const root = resolve(__dirname, '..', '..');
  const args = parseBenchArgs(argv, root); // usage errors first: no rootless re-run for those
  if (args.mode === 'help') {
    process.stdout.write(`${helpText(BENCH_COMMAND)}\n`);
    return 0;
  }
  const { plan, jobs, out } = args;
  // Root: nothing to do. Otherwise re-runs this script in a private user namespace and exits with its status.
  await ensureLinkPrivileges();
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

// The results file already holds every finished link.
stopOnSignals('bench', 'stopping; finished links are in the results file', killBrowsersSync);
runMain('bench', () => main(process.argv.slice(2)));
