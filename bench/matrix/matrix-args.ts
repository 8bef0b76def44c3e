/**
 * The command line of `node dist/bench/bench.js`: which plan (quick or full), trimmed to the links
 * and pages asked for, how many links at once, and where the results go. Every mistake is
 * `E_BENCH_USAGE` (exit 2), found before any namespace is made.
 */
import { join } from 'node:path';
import { intValue, listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BenchRunError } from '../cli/bench-run-error';
import { fullPlan, quickPlan, type BenchPlan } from '../run/bench-matrix';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const BENCH_COMMAND: CommandSpec = {
  usage: 'node dist/bench/bench.js --quick|--full [options]',
  options: {
    quick: { type: 'boolean', help: 'the quick plan: a representative subset, under five minutes' },
    full: { type: 'boolean', help: 'the full matrix: 87 cells, about 11 hours of link time' },
    runs: { type: 'string', value: 'N', default: '5 with --full; 3 with --quick, 2 on its DSL link', help: 'loads per contender per cell, 1 to 50' },
    links: { type: 'string', value: 'a,b,…', default: 'every link of the plan', help: 'only these link presets, run in the order given' },
    pages: { type: 'string', value: 'a,b,…', default: 'every page of the plan', help: 'only these pages' },
    jobs: { type: 'string', value: 'N', default: '1', help: 'links run at once, 1 to 16; only for bandwidth-bound cells (bench/README.md)' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/bench-<quick|full>-latest.json', help: 'the results file, rewritten after every link' },
  },
  notes: [
    "getlist's strategies and real Chromium on emulated links against nginx origins (bench/README.md).",
    'Needs Linux, and root or unprivileged user namespaces, nginx and Chromium. Progress goes to stderr.',
    'Exit status: 0 every cell ran; 1 a cell failed or the run broke; 2 usage (E_BENCH_USAGE); 128+n on signal n.',
  ],
};

export type BenchArgs =
  | { mode: 'help' }
  | { mode: 'run'; plan: BenchPlan; jobs: number; out: string };

function planFrom(v: Record<string, string | boolean | undefined>): BenchPlan {
  if ((v.quick === true) === (v.full === true)) throw usage('give exactly one of --quick or --full (try --help)');
  const runs = v.runs === undefined ? undefined : intValue(v.runs, 'runs', 0, 1, 50, usage);
  const plan = v.quick === true ? quickPlan(runs) : fullPlan(runs);
  const links = listValue(v.links);
  const pages = listValue(v.pages);
  for (const [name, list] of [['links', links], ['pages', pages]] as const) {
    if (list !== undefined && list.length === 0) throw usage(`--${name} needs a comma-separated value`);
  }
  // With --links, links run in the order given (put the cells that matter most first).
  const rank = (name: string): number => (links === undefined ? 0 : links.indexOf(name));
  const unknown = links?.filter((l) => !plan.links.some((p) => p.link === l)) ?? [];
  if (unknown.length > 0) throw usage(`--links: ${unknown.join(', ')} not in the ${plan.mode} plan`);
  plan.links = plan.links
    .filter((l) => links === undefined || links.includes(l.link))
    .sort((a, b) => rank(a.link) - rank(b.link))
    .map((l) => ({ ...l, cells: l.cells.filter((c) => pages === undefined || pages.includes(c.page)) }))
    .filter((l) => l.cells.length > 0);
  if (plan.links.length === 0) throw usage('no cell left after --links/--pages');
  return plan;
}

/** `root` is the checkout, where the default results file goes. */
export function parseBenchArgs(argv: readonly string[], root: string): BenchArgs {
  const { values: v, help } = parseCommandLine(argv, BENCH_COMMAND, usage);
  if (help) return { mode: 'help' };
  const plan = planFrom(v);
  return {
    mode: 'run',
    plan,
    jobs: intValue(v.jobs, 'jobs', 1, 1, 16, usage),
    out: typeof v.out === 'string' ? v.out : join(root, 'bench', 'results', `bench-${plan.mode}-latest.json`),
  };
}
