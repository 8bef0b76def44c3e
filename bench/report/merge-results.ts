/**
 * Several results files as one report. The full matrix takes ~11 hours on two cores, so it is run as
 * several invocations (different links, different `--jobs`), each writing its own file. The report
 * concatenates their cells in the order the files are given and keeps, for every cell, the file it
 * came from, so RESULTS.md can say where each number was measured.
 *
 * A cell is identified by (page, link). Two files holding the same cell are refused
 * (`E_REPORT_DUPLICATE_CELL`), never settled by picking one; so are files of different modes or
 * schema versions, or files that run a contender over different schemes (`E_REPORT_INPUT`).
 */
import { basename, resolve } from 'node:path';
import type { BenchMeta } from '../run/results-schema';
import type { ResultsSummary, CellSummary } from './results-summary';
import { ReportError } from './load-results';

export interface ResultsSource {
  /** 1-based position among the files given: "run 1", "run 2", … */
  run: number;
  /** The path as given on the command line; undefined when the results did not come from a file. */
  path: string | undefined;
  /** The path's basename, as printed in the report. */
  file: string | undefined;
  meta: BenchMeta;
  /** The file's cells: the same objects as in the merged `cells`. */
  cells: readonly CellSummary[];
}

/**
 * Cells of one or more files, shaped as one results file so the tables, goals and figures read it
 * unchanged. `meta` is the first file's, except: `date` is the earliest start, `elapsedMs` the sum,
 * `runs` and `jobs` the largest of the files'. The other fields (commit, command, machine, versions,
 * TCP settings) may differ between files: read them per cell with {@link metaOf}, or per file from
 * `sources`.
 */
export interface MergedResults extends ResultsSummary {
  /** The files in the order given; every cell of `cells` belongs to exactly one. */
  sources: readonly ResultsSource[];
}

const cellName = (c: CellSummary): string => `${c.page} @ ${c.link}`;
const shown = (s: ResultsSource): string => s.path ?? `run ${s.run}`;

function isMerged(results: ResultsSummary): results is MergedResults {
  return Array.isArray((results as Partial<MergedResults>).sources);
}

/** The files behind `results`; a plain results file is one source with no path. */
export function sourcesOf(results: ResultsSummary): readonly ResultsSource[] {
  if (isMerged(results)) return results.sources;
  return [{ run: 1, path: undefined, file: undefined, meta: results.meta, cells: results.cells }];
}

/** The source a cell came from (the only one for a plain results file). */
export function sourceOf(results: ResultsSummary, cell: CellSummary): ResultsSource | undefined {
  return sourcesOf(results).find((s) => s.cells.includes(cell));
}

/** The meta of the file a cell came from: its TCP settings are the ones the cell ran with. */
export function metaOf(results: ResultsSummary, cell: CellSummary): BenchMeta {
  return sourceOf(results, cell)?.meta ?? results.meta;
}

/** The links a source contributed, each once, in the order of its cells. */
export function linksOf(source: ResultsSource): string[] {
  return [...new Set(source.cells.map((c) => c.link))];
}

/** `2026-11-22T13:46:03.120Z` → `2026-11-22T13:46Z`; anything else unchanged. */
export function shortDate(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d)(:\d\d(\.\d+)?)?Z$/.exec(iso);
  return m ? `${m[1]}Z` : iso;
}

export function jobsText(meta: BenchMeta): string {
  const jobs = meta.jobs ?? 1;
  return `${jobs} link${jobs === 1 ? '' : 's'} at a time`;
}

/** For figure footnotes: `quick run, <date>` for one file, `2 full runs merged (<date>, <date>)` for more. */
export function runsLabel(results: ResultsSummary): string {
  const sources = sourcesOf(results);
  if (sources.length === 1) return `${results.meta.mode} run, ${results.meta.date}`;
  return `${sources.length} ${results.meta.mode} runs merged (${sources.map((s) => shortDate(s.meta.date)).join(', ')})`;
}

function checkAgree(sources: readonly ResultsSource[]): void {
  const [first] = sources;
  if (first === undefined) return;
  for (const s of sources) {
    const mode: unknown = s.meta.mode;
    if (mode !== 'quick' && mode !== 'full') {
      throw new ReportError('E_REPORT_INPUT', `${shown(s)}: meta.mode should be "quick" or "full"; got ${JSON.stringify(mode) ?? 'nothing'}`);
    }
  }
  for (const s of sources.slice(1)) {
    if (s.meta.mode !== first.meta.mode) {
      throw new ReportError('E_REPORT_INPUT', `${shown(first)} is a ${first.meta.mode} run and ${shown(s)} a ${s.meta.mode} run; merge only full runs or only quick runs`);
    }
    if (s.meta.schemaVersion !== first.meta.schemaVersion) {
      throw new ReportError('E_REPORT_INPUT', `${shown(first)} has schema version ${first.meta.schemaVersion} and ${shown(s)} ${s.meta.schemaVersion}; files of different schema versions cannot be merged`);
    }
    for (const [contender, scheme] of Object.entries(s.meta.schemes ?? {})) {
      const other = (first.meta.schemes as Record<string, string> | undefined)?.[contender];
      if (other !== undefined && other !== scheme) {
        throw new ReportError('E_REPORT_INPUT', `${shown(first)} runs ${contender} over ${other} and ${shown(s)} over ${scheme}; its ratios would mix schemes`);
      }
    }
  }
}

function checkNoDuplicates(sources: readonly ResultsSource[]): void {
  const seen = new Map<string, ResultsSource>();
  for (const s of sources) {
    for (const c of s.cells) {
      const key = JSON.stringify([c.page, c.link]);
      const before = seen.get(key);
      if (before === s) {
        throw new ReportError('E_REPORT_DUPLICATE_CELL', `${shown(s)} holds cell ${cellName(c)} twice`);
      }
      if (before !== undefined) {
        throw new ReportError('E_REPORT_DUPLICATE_CELL', `cell ${cellName(c)} is in both ${shown(before)} (run ${before.run}) and ${shown(s)} (run ${s.run}); a cell must come from one run, so leave that link or page out of one of them`);
      }
      seen.set(key, s);
    }
  }
}

/**
 * Merges parsed results files, in the order given. Throws {@link ReportError}: `E_REPORT_USAGE` for
 * no input, `E_REPORT_INPUT` for a file given twice or files that do not agree (mode, schema
 * version, schemes), `E_REPORT_DUPLICATE_CELL` for a (page, link) in more than one place.
 */
export function mergeResults(inputs: ReadonlyArray<{ path: string; results: ResultsSummary }>): MergedResults {
  if (inputs.length === 0) throw new ReportError('E_REPORT_USAGE', 'no results file to report on');
  const paths = new Map<string, string>();
  for (const { path } of inputs) {
    const before = paths.get(resolve(path));
    if (before !== undefined) throw new ReportError('E_REPORT_INPUT', `${path} is given twice${before === path ? '' : ` (also as ${before})`}`);
    paths.set(resolve(path), path);
  }
  const sources: ResultsSource[] = inputs.map(({ path, results }, i) => ({
    run: i + 1,
    path,
    file: basename(path),
    meta: results.meta,
    cells: results.cells,
  }));
  checkAgree(sources);
  checkNoDuplicates(sources);
  const first = sources[0] as ResultsSource;
  const starts = sources.map((s) => s.meta.date);
  const earliest = starts.every((d) => Number.isFinite(Date.parse(d)))
    ? starts.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) : first.meta.date;
  return {
    meta: {
      ...first.meta,
      date: earliest,
      elapsedMs: sources.reduce((sum, s) => sum + s.meta.elapsedMs, 0),
      runs: Math.max(...sources.map((s) => s.meta.runs)),
      jobs: Math.max(...sources.map((s) => s.meta.jobs ?? 1)),
    },
    cells: sources.flatMap((s) => s.cells),
    sources,
  };
}
