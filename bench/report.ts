/**
 * `node dist/bench/report.js <results.json> [--out DIR] [--figures DIR]` — turns a results file of
 * the packet-level benchmark (bench/run/results-schema.ts) into bench/RESULTS.md and the figures
 * bench/results/figure-pm95.svg and figure-rtt.svg.
 *
 * Defaults write into the checkout: RESULTS.md to `bench/`, figures to `bench/results/`. A bad
 * file or command line prints its code and a sentence, exit code 2.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseResults, ReportError } from './report/load-results';
import { resultsMarkdown } from './report/results-markdown';
import { pm95Figure, rttFigure } from './report/svg-figures';

export interface ReportArgs {
  input: string;
  outDir: string;
  figuresDir: string;
}

export function parseReportArgs(argv: readonly string[]): ReportArgs {
  const positional: string[] = [];
  let outDir = 'bench';
  let figuresDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new ReportError('E_REPORT_USAGE', `${a} needs a directory`);
      return v;
    };
    if (a === '--out') outDir = value();
    else if (a === '--figures') figuresDir = value();
    else if (a === '--help' || a === '-h') throw new ReportError('E_REPORT_USAGE', 'usage: node dist/bench/report.js <results.json> [--out DIR] [--figures DIR]');
    else if (a.startsWith('-')) throw new ReportError('E_REPORT_USAGE', `unknown option ${a} (try --help)`);
    else positional.push(a);
  }
  if (positional.length !== 1) throw new ReportError('E_REPORT_USAGE', `expected one results file, e.g. bench/results/bench-quick-latest.json; got ${positional.length}`);
  return { input: positional[0] as string, outDir, figuresDir: figuresDir ?? join(outDir, 'results') };
}

/** Writes the report; returns the paths written. */
export function writeReport(args: ReportArgs): string[] {
  const results = parseResults(readFileSync(args.input, 'utf8'));
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
  writeFileSync(md, resultsMarkdown(results, figures));
  return [md, ...written];
}

if (require.main === module) {
  try {
    for (const p of writeReport(parseReportArgs(process.argv.slice(2)))) process.stdout.write(`wrote ${p}\n`);
  } catch (err) {
    if (!(err instanceof ReportError)) throw err;
    process.stderr.write(`report: ${err.code}: ${err.message}\n`);
    process.exitCode = 2;
  }
}
