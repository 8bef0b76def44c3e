/**
 * `node dist/bench/overhead.js --pool a.json,b.json,…` — one paired figure from several runs.
 *
 * One run's paired DOMContentLoaded figure scatters from run to run by more than the effect it
 * looks for (bench/README.md, "Extension overhead"), and a mean of each run's median is not the
 * median of their pairs.
 * Each `--json` cell carries its pairs (overhead-table.ts `pairs`); this reads the files, joins the
 * pairs of the cells that measured the same thing (browser, link, page size, tab kind, build), and
 * computes the paired figures over all of them, with each run's own figure beside it.
 *
 * Invariant: only pairs are pooled, never medians; a cell without pairs (JSON of an older bench) is
 * refused with E_BENCH_USAGE, not silently left out.
 */
import { readJsonFile } from '../cli/results-file';
import { BenchRunError } from '../cli/bench-run-error';
import { aligned, est, pairedFigures, pairedGoal, type OverheadCell, type OverheadPaired, type OverheadPair } from './overhead-table';

export interface PooledCell {
  key: string;
  browser: string;
  link: string;
  resources: number;
  tab: string;
  variant: string;
  /** Each run pooled: its file, pairs and its own paired DCL ratio. */
  runs: Array<{ file: string; pairs: number; domContentLoadedRatio: number; domContentLoadedDeltaMs: number }>;
  pairs: number;
  paired: OverheadPaired;
}

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

/** Reads the `--json` outputs and pools them (throws E_BENCH_USAGE naming the file that is not one). */
export function poolFiles(files: readonly string[]): PooledCell[] {
  return poolCells(files.map((file) => ({ file, cells: readCells(file) })));
}

export function readCells(file: string): OverheadCell[] {
  const parsed = readJsonFile(file, (m) => usage(`--pool: ${m} (write it with --json)`));
  if (!Array.isArray(parsed) || !parsed.every(isCell)) throw usage(`--pool: ${file} is not the overhead bench's --json output (an array of cells)`);
  return parsed;
}

export function poolCells(sources: ReadonlyArray<{ file: string; cells: readonly OverheadCell[] }>): PooledCell[] {
  const pooled = new Map<string, { cell: Omit<PooledCell, 'pairs' | 'paired'>; pairs: OverheadPair[] }>();
  for (const { file, cells } of sources) {
    for (const c of cells) {
      if (!Array.isArray(c.pairs)) throw usage(`--pool: ${file} (${describe(c)}) has no per-pair loads: it was written before the bench kept them; run it again with --json`);
      const browser = c.browser ?? 'chromium';
      const link = c.link ?? 'loopback';
      const tab = c.tab ?? 'fresh';
      const key = [browser, link, c.resources, tab, c.variant].join('|');
      let entry = pooled.get(key);
      if (!entry) {
        entry = { cell: { key, browser, link, resources: c.resources, tab, variant: c.variant, runs: [] }, pairs: [] };
        pooled.set(key, entry);
      }
      if (!c.pairs.every(isPair)) throw usage(`--pool: ${file} (${describe(c)}) holds a pair without its load, DOMContentLoaded and first-byte times`);
      entry.pairs.push(...c.pairs);
      entry.cell.runs.push({ file, pairs: c.pairs.length, domContentLoadedRatio: c.paired.domContentLoadedRatio.value, domContentLoadedDeltaMs: c.paired.domContentLoadedDeltaMs.value });
    }
  }
  return [...pooled.values()].map(({ cell, pairs }) => ({
    ...cell,
    pairs: pairs.length,
    paired: pairedFigures(pairs.map((p) => p.plain), pairs.map((p) => p.extension)),
  }));
}

export function formatPooledTable(cells: readonly PooledCell[]): string {
  const head = ['link', 'browser', 'tab', 'resources', 'extension (off)', 'runs', 'pairs', 'load ratio [95% CI]', 'DCL ratio [95% CI]', 'DCL +ms [95% CI]', 'to 1st byte +ms', 'parse +ms', 'each run: DCL ratio (pairs)', 'goal'];
  const rows = cells.map((c) => [
    c.link,
    c.browser,
    c.tab,
    String(c.resources),
    c.variant,
    String(c.runs.length),
    String(c.pairs),
    est(c.paired.loadRatio, 3),
    est(c.paired.domContentLoadedRatio, 3),
    est(c.paired.domContentLoadedDeltaMs, 2),
    est(c.paired.responseStartDeltaMs, 2),
    est(c.paired.parseDeltaMs, 2),
    c.runs.map((r) => `${r.domContentLoadedRatio.toFixed(3)} (${r.pairs})`).join(', '),
    pairedGoal(c.paired),
  ]);
  const legend = [
    'Pooled: the pairs of every run given (--pool), joined per browser, link, page, tab kind and build; medians over all pairs [95 % bootstrap over pairs].',
    'each run: that run\'s own paired DCL ratio and its pairs, in the order given. goal: both pooled paired ratios ≤ 1.03.',
  ];
  return [aligned(head, rows), '', ...legend].join('\n');
}

function describe(c: OverheadCell): string {
  return `${c.browser ?? 'chromium'}, ${c.link ?? 'loopback'}, ${c.resources} resources, ${c.tab ?? 'fresh'} tab, ${c.variant}`;
}

function isCell(x: unknown): x is OverheadCell {
  if (typeof x !== 'object' || x === null) return false;
  const c = x as Partial<OverheadCell>;
  return typeof c.resources === 'number' && typeof c.variant === 'string' && typeof c.paired === 'object' && c.paired !== null;
}

function isPair(p: unknown): p is OverheadPair {
  const ok = (l: unknown) => typeof l === 'object' && l !== null && ['loadMs', 'domContentLoadedMs', 'responseStartMs'].every((k) => typeof (l as Record<string, unknown>)[k] === 'number');
  return typeof p === 'object' && p !== null && ok((p as OverheadPair).plain) && ok((p as OverheadPair).extension);
}
