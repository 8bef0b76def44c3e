/**
 * `node dist/bench/report.js <results.json> [<results.json> …] [--out DIR] [--figures DIR]` — turns
 * one or more results files of the packet-level benchmark (bench/run/results-schema.ts) into
 * bench/RESULTS.md and the figures bench/results/figure-pm95.svg and figure-rtt.svg.
 *
 * Several files (e.g. the full matrix run in parts) are merged by bench/report/merge-results.ts:
 * cells in the order given, each attributed to its file; a (page, link) in two files, or files of
 * different modes or schema versions, are refused.
 *
 * Defaults write into the checkout: RESULTS.md to `bench/`, figures to `bench/results/`. A bad
 * file or command line prints its code and a sentence, exit code 2.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { BenchResults } from './run/results-schema';
import { parseResults, ReportError } from './report/load-results';
import { mergeResults } from './report/merge-results';
import { resultsMarkdown } from './report/results-markdown';
import { pm95Figure, rttFigure } from './report/svg-figures';
import { readExplanations } from './report/explanations';
import { helpText, parseCommandLine, type CommandSpec } from './cli/command-line';

export interface ReportArgs {
  /** Results files, in the order their cells are reported. */
  inputs: string[];
  outDir: string;
  figuresDir: string;
  /** A JSON file of explanations for missed goals (see bench/report/explanations.ts). */
  why: string | undefined;
}

export const REPORT_COMMAND: CommandSpec = {
  usage: 'node dist/bench/report.js <results.json> [<results.json> …] [options]',
  positionals: true,
  options: {
    out: { type: 'string', value: 'DIR', default: 'bench', help: 'where RESULTS.md goes' },
    figures: { type: 'string', value: 'DIR', default: '<--out>/results', help: 'where figure-pm95.svg and figure-rtt.svg go' },
    why: { type: 'string', value: 'FILE', help: 'explanations of missed goals, {"<cell> | <target>": "why"}, e.g. bench/why.json' },
  },
  notes: [
    'A results file is a raw one written by bench.js, a summary (bench/results/*.json), or either gzipped.',
    'Several files are merged into one report, e.g. the full matrix run in parts: cells in the order',
    'given, each attributed to its file. The same page @ link in two files (E_REPORT_DUPLICATE_CELL),',
    'or files of different modes or schema versions (E_REPORT_INPUT), are refused.',
    '--summarize DIR writes, for each file given, DIR/<name>.json (its summary) and DIR/raw/<name>.json.gz',
    '(its runs, compressed) instead of the report.',
  ],
};

const usage = (message: string): ReportError => new ReportError('E_REPORT_USAGE', message);

export function parseReportArgs(argv: readonly string[]): ReportArgs {
  const { values: v, positionals, help } = parseCommandLine(argv, REPORT_COMMAND, usage);
  if (help) throw new ReportError('E_REPORT_USAGE', helpText(REPORT_COMMAND), true);
  if (positionals.length === 0) throw usage('expected one or more results files, e.g. bench/results/bench-quick-latest.json; got none (try --help)');
  const outDir = typeof v.out === 'string' ? v.out : 'bench';
  return {
    inputs: positionals,
    outDir,
    figuresDir: typeof v.figures === 'string' ? v.figures : join(outDir, 'results'),
    why: typeof v.why === 'string' ? v.why : undefined,
  };
}

function readResults(path: string): BenchResults {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `cannot read ${path}: ${(err as Error).message}`);
  }
  return parseResults(text, path);
}

/** Writes the report; returns the paths written and the explanations that matched no missed goal. */
export function writeReport(args: ReportArgs): string[] {
  const results = mergeResults(args.inputs.map((path) => ({ path, results: readResults(path) })));
  const explanations = args.why === undefined ? undefined : readExplanations(args.why);
  mkdirSync(args.figuresDir, { recursive: true });
  const written: string[] = [];
  const figures: string[] = [];
  for (const [name, svg] of [['figure-pm95.svg', pm95Figure(results)], ['figure-rtt.svg', rttFigure(results)]] as const) {
    if (svg === undefined) continue;
    const path = join(args.figuresDir, name);
    writeFileSync(path, svg);
    written.push(path);
    figures.push(relative(resolve(args.outDir), resolve(path)).split('\\').join('/'));
  }
  mkdirSync(args.outDir, { recursive: true });
  const md = join(args.outDir, 'RESULTS.md');
  const unused: string[] = [];
  writeFileSync(md, resultsMarkdown(results, figures, explanations, unused, args.why));
  for (const key of unused) process.stderr.write(`report: --why: no missed goal matches ${JSON.stringify(key)} (stale explanation?)\n`);
  return [md, ...written];
}

if (require.main === module) {
  try {
    for (const p of writeReport(parseReportArgs(process.argv.slice(2)))) process.stdout.write(`wrote ${p}\n`);
  } catch (err) {
    if (!(err instanceof ReportError)) throw err;
    if (err.help) {
      process.stdout.write(`${err.message}\n`);
    } else {
      process.stderr.write(`report: ${err.code}: ${err.message}\n`);
      process.exitCode = 2;
    }
  }
}
