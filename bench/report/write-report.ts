/**
 * The report's command line and what it writes (`node dist/bench/report.js`, main.ts): one or more
 * results files of the packet-level benchmark (bench/run/results-schema.ts) become bench/RESULTS.md
 * and the figures bench/results/figure-pm95.svg and figure-rtt.svg. A results file may be raw
 * (bench.js's, every run) or a summary (results-summary.ts), plain or gzipped; the report is the
 * same. `--summarize DIR` turns raw files into the summary and gzipped raw file that git keeps
 * (bench/README.md, "Results files").
 *
 * Several files (e.g. the full matrix run in parts) are merged by merge-results.ts: cells in the
 * order given, each attributed to its file; a (page, link) in two files, or files of different
 * modes or schema versions, are refused.
 *
 * Defaults write into the checkout: RESULTS.md to `bench/`, figures to `bench/results/`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseResults, readResults, ReportError, resultsText } from './load-results';
import { mergeResults } from './merge-results';
import { resultsMarkdown } from './results-markdown';
import { summaryFileText } from './results-summary';
import type { BenchResults } from '../run/results-schema';
import { pm95Figure, rttFigure } from './svg-figures';
import { parseExplanations, type Explanations } from './explanations';
import { helpText, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { zooMarkdown, type ZooMemberResult } from '../zoo/zoo-table';
import { NAV_SECTION, navSectionBody, type NavResultsFile } from '../navigate/nav-section';
import { replaceSection } from '../cli/markdown-section';
import { BROWSER_HANDSHAKE_HEADING, browserHandshakeSection, type BrowserHandshakeResults } from '../browser-handshake/results-section';
import { CONNECTIONS_HEADING, connectionsSection, type ConnectionsResults } from '../connections/connections-table';

export interface ReportArgs {
  /** Results files, in the order their cells are reported. */
  inputs: string[];
  outDir: string;
  figuresDir: string;
  /** A JSON file of explanations for missed goals (see bench/report/explanations.ts). */
  why: string | undefined;
  /** Write each input's summary and gzipped raw file into this directory instead of the report. */
  summarize?: string | undefined;
  /** Also a table per page @ link in RESULTS.md. */
  cells?: boolean;
  /** The zoo bench's results file (zoo.js `--out`, plain or gzipped): a table per server in RESULTS.md. */
  zoo?: string;
  /** navigate.js's results files: "The next page before the click" in RESULTS.md. */
  navigate?: string;
  /** connections.js's results file: "Connections against the servers' log" in RESULTS.md. */
  connections?: string;
  /** browser-handshake.js's results file: "The browser's own handshakes against the link" in RESULTS.md. */
  browserHandshake?: string;
}

export const REPORT_COMMAND: CommandSpec = {
  usage: 'node dist/bench/report.js <results.json> [<results.json> …] [options]',
  positionals: true,
  options: {
    out: { type: 'string', value: 'DIR', default: 'bench', help: 'where RESULTS.md goes' },
    figures: { type: 'string', value: 'DIR', default: '<--out>/results', help: 'where figure-pm95.svg and figure-rtt.svg go' },
    why: { type: 'string', value: 'FILE', help: 'explanations of missed goals, {"<cell> | <target>": "why"}, e.g. bench/why.json' },
    summarize: { type: 'string', value: 'DIR', help: 'instead of the report, write DIR/<name>.json (summary) and DIR/raw/<name>.json.gz per raw file' },
    cells: { type: 'boolean', help: 'also a table per page @ link: every contender\'s median, min, max, TTFB, connections, ÷ bound' },
    navigate: { type: 'string', value: 'FILE,…', help: 'also "The next page before the click": the navigation bench\'s table from navigate.js\'s results files' },
    connections: { type: 'string', value: 'FILE', help: 'also "Connections against the servers\' log": the popup\'s connection figures beside the servers\' from connections.js\'s results file' },
    'browser-handshake': { type: 'string', value: 'FILE', help: 'also "The browser\'s own handshakes against the link" from browser-handshake.js\'s results file' },
    zoo: { type: 'string', value: 'FILE,…', help: 'also "The server zoo": a table per server from zoo.js\'s results files (plain or gzipped); a page @ link in a later file replaces its earlier run' },
  },
  notes: [
    'A results file is a raw one written by bench.js, a summary (bench/results/*.json), or either gzipped.',
    'Several files are merged into one report, e.g. the full matrix run in parts: cells in the order',
    'given, each attributed to its file. The same page @ link in two files (E_REPORT_DUPLICATE_CELL),',
    'or files of different modes or schema versions (E_REPORT_INPUT), are refused.',
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
    ...(typeof v.summarize === 'string' ? { summarize: v.summarize } : {}),
    ...(v.cells === true ? { cells: true } : {}),
    ...(typeof v.zoo === 'string' ? { zoo: v.zoo } : {}),
    ...(typeof v.navigate === 'string' ? { navigate: v.navigate } : {}),
    ...(typeof v.connections === 'string' ? { connections: v.connections } : {}),
    ...(typeof v['browser-handshake'] === 'string' ? { browserHandshake: v['browser-handshake'] } : {}),
  };
}

/** A file the report writes: RESULTS.md, a figure, a summary, a gzipped raw file. */
export interface ReportFile {
  path: string;
  data: string | Buffer;
}

/** Reads a file; tests pass one that resolves paths against the checkout. */
export type ReadFile = (path: string) => Buffer;

/**
 * RESULTS.md and the figures, not yet written, and the explanations that matched no missed goal.
 * Inputs may be raw or summaries, plain or gzipped: the text is the same (load-results.ts).
 */
export function renderReport(args: ReportArgs, read: ReadFile = readFileSync): { files: ReportFile[]; unused: string[] } {
  const results = mergeResults(args.inputs.map((path) => ({ path, results: readResults(path, read) })));
  let explanations: Explanations | undefined;
  if (args.why !== undefined) {
    let text: string;
    try {
      text = read(args.why).toString('utf8');
    } catch (err) {
      throw new ReportError('E_REPORT_INPUT', `cannot read ${args.why}: ${(err as Error).message}`);
    }
    explanations = parseExplanations(text, args.why);
  }
  const figureFiles: ReportFile[] = [];
  const figures: string[] = [];
  for (const [name, svg] of [['figure-pm95.svg', pm95Figure(results)], ['figure-rtt.svg', rttFigure(results)]] as const) {
    if (svg === undefined) continue;
    const path = join(args.figuresDir, name);
    figureFiles.push({ path, data: svg });
    figures.push(relative(resolve(args.outDir), resolve(path)).split('\\').join('/'));
  }
  const unused: string[] = [];
  const matrix = resultsMarkdown(results, { figures, explanations, unused, whyPath: args.why, cells: args.cells === true, ...(args.zoo === undefined ? {} : { zoo: args.zoo }), ...(args.navigate === undefined ? {} : { navigate: args.navigate }), ...(args.connections === undefined ? {} : { connections: args.connections }), ...(args.browserHandshake === undefined ? {} : { browserHandshake: args.browserHandshake }) });
  const nav = args.navigate === undefined ? matrix : replaceSection(matrix, NAV_SECTION, navSectionBody(navResults(args.navigate, read)), 'Figures');
  const md = args.connections === undefined ? nav : replaceSection(nav, CONNECTIONS_HEADING, connectionsSection(connectionsResults(args.connections, read)).body, 'Figures');
  const withHandshakes = args.browserHandshake === undefined ? md : replaceSection(md, BROWSER_HANDSHAKE_HEADING, browserHandshakeSection(browserHandshakeResults(args.browserHandshake, read), args.browserHandshake).body, 'Figures');
  const zoo = args.zoo === undefined ? '' : `\n${zooSection(args.zoo, read)}`;
  return { files: [{ path: join(args.outDir, 'RESULTS.md'), data: withHandshakes + zoo }, ...figureFiles], unused };
}

/** browser-handshake.js's results file (`--out`). */
function browserHandshakeResults(path: string, read: ReadFile): BrowserHandshakeResults {
  let doc: Partial<BrowserHandshakeResults>;
  try {
    doc = JSON.parse(read(path).toString('utf8')) as Partial<BrowserHandshakeResults>;
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `--browser-handshake: cannot read ${path}: ${(err as Error).message}`);
  }
  if (doc.bench !== 'browser-handshake' || !Array.isArray(doc.rows) || typeof doc.trace !== 'object' || typeof doc.at !== 'string') throw new ReportError('E_REPORT_INPUT', `--browser-handshake: ${path} is not browser-handshake.js's --out file`);
  return doc as BrowserHandshakeResults;
}

/** connections.js's results file (`--out`). */
function connectionsResults(path: string, read: ReadFile): ConnectionsResults {
  let doc: Partial<ConnectionsResults>;
  try {
    doc = JSON.parse(read(path).toString('utf8')) as Partial<ConnectionsResults>;
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `--connections: cannot read ${path}: ${(err as Error).message}`);
  }
  if (doc.bench !== 'connections' || !Array.isArray(doc.loads) || typeof doc.at !== 'string') throw new ReportError('E_REPORT_INPUT', `--connections: ${path} is not connections.js's --out file`);
  return doc as ConnectionsResults;
}

/** navigate.js's results files, comma-separated, in the order given. */
function navResults(paths: string, read: ReadFile): NavResultsFile[] {
  return paths.split(',').filter(Boolean).map((path) => {
    try {
      return { ...(JSON.parse(resultsText(read(path), path)) as Omit<NavResultsFile, 'file'>), file: path };
    } catch (err) {
      throw new ReportError('E_REPORT_INPUT', `--navigate: cannot read ${path}: ${(err as Error).message}`);
    }
  });
}

/** "The server zoo" from zoo.js's results files, comma-separated; a member's page @ link in a later file replaces its earlier run. */
function zooSection(paths: string, read: ReadFile): string {
  const members = new Map<string, ZooMemberResult>();
  for (const path of paths.split(',').filter(Boolean)) {
    let doc: { members?: unknown };
    try {
      doc = JSON.parse(resultsText(read(path), path)) as { members?: unknown };
    } catch (err) {
      throw new ReportError('E_REPORT_INPUT', `--zoo: cannot read ${path}: ${(err as Error).message}`);
    }
    if (!Array.isArray(doc.members)) throw new ReportError('E_REPORT_INPUT', `--zoo: ${path} has no "members" list (is it zoo.js's --out file?)`);
    for (const m of doc.members as ZooMemberResult[]) {
      // A later run of a member replaces its cells page by page (and its error, if it ran again).
      const earlier = members.get(m.member);
      const later = new Map(m.cells.map((c) => [`${c.page}@${c.link}`, c]));
      const cells = earlier === undefined ? m.cells : [...earlier.cells.map((c) => later.get(`${c.page}@${c.link}`) ?? c), ...m.cells.filter((c) => !earlier.cells.some((e) => e.page === c.page && e.link === c.link))];
      members.set(m.member, { ...m, cells });
    }
  }
  return zooMarkdown([...members.values()], paths.split(',').join(', '));
}

/**
 * For each raw results file (plain or gzipped), its summary `dir/<name>.json` and the raw file
 * gzipped, `dir/raw/<name>.json.gz` (decompressing it gives back the file bench.js wrote, byte for
 * byte). A summary given as input is refused: its runs are gone.
 */
export function renderSummaries(inputs: readonly string[], dir: string, read: ReadFile = readFileSync): ReportFile[] {
  return inputs.flatMap((path) => {
    let bytes: Buffer;
    try {
      bytes = read(path);
    } catch (err) {
      throw new ReportError('E_REPORT_INPUT', `cannot read ${path}: ${(err as Error).message}`);
    }
    const text = resultsText(bytes, path);
    const summary = parseResults(text, path);
    const doc = JSON.parse(text) as BenchResults; // parseResults checked it
    if (doc.cells.some((c) => c.contenders.some((k) => !Array.isArray(k.runs)))) {
      throw new ReportError('E_REPORT_INPUT', `${path} is already a summary; summarize the raw file (e.g. ${join(dirname(path), 'raw', basename(path))}.gz)`);
    }
    const name = basename(path).replace(/\.gz$/, '').replace(/\.json$/, '');
    const raw = `raw/${name}.json.gz`;
    return [
      { path: join(dir, `${name}.json`), data: summaryFileText(summary, raw) },
      { path: join(dir, raw), data: gzipSync(Buffer.from(text, 'utf8'), { level: 9 }) },
    ];
  });
}

function writeFiles(files: readonly ReportFile[]): string[] {
  for (const f of files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.data);
  }
  return files.map((f) => f.path);
}

/** Writes the report (or, with `summarize`, the summaries); returns the paths written. */
export function writeReport(args: ReportArgs): string[] {
  if (args.summarize !== undefined) return writeFiles(renderSummaries(args.inputs, args.summarize));
  const { files, unused } = renderReport(args);
  const written = writeFiles(files);
  for (const key of unused) process.stderr.write(`report: --why: no missed goal matches ${JSON.stringify(key)} (stale explanation?)\n`);
  return written;
}
