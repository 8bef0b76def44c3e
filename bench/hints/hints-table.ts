/**
 * The hints bench's table (bench/hints/main.ts): one row per cell — each browser alone against it with
 * getlist (paired runs), the bound variants, the path verdict, the server's request counts.
 */
import type { HintsBrowser } from './hints-args';
import type { HintsOverhead } from './hints-overhead';
import type { HintsContender, HintsRun } from './hints-session';

/** Each browser alone and with getlist; a run makes the pair back to back (order alternating by run). */
export const pair = (b: HintsBrowser): [HintsContender, HintsContender] => [b, `${b}+getlist`];
/** A largest contentful paint as a table shows it: an image's file name, else the element's tag. */
export function lcpName(element: string): string {
  return /^https?:/.test(element) ? element.replace(/^.*\//, '') : element;
}

/** The LCP elements of a contender's runs, most frequent first: ` (p0.gif ×3)`; empty when no run recorded one. */
function lcpElements(runs: readonly HintsRun[]): string {
  const counts = new Map<string, number>();
  for (const name of runs.flatMap((r) => (r.lcpElement ? [lcpName(r.lcpElement)] : []))) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts.size === 0 ? '' : ` (${[...counts].sort((x, y) => y[1] - x[1]).map(([n, k]) => `${n} ×${k}`).join(', ')})`;
}

/** A browser's two bound variants of a page: `+ideal` (late resources preloaded), `+all` (every subresource, high priority). */
export const bounds = (b: HintsBrowser): [HintsContender, HintsContender] => [`${b}+ideal`, `${b}+all`];

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** The median of a metric over runs, runs without it left out. */
function medianOf(rs: readonly HintsRun[], f: (r: HintsRun) => number | null): number {
  return median(rs.map(f).filter((x): x is number => x !== null));
}

/** The range of the paired ratios b[i] / a[i] of a metric, ` [min–max]`; empty under two pairs. */
function pairedRange(a: readonly HintsRun[], b: readonly HintsRun[], f: (r: HintsRun) => number | null): string {
  const paired: number[] = [];
  a.forEach((r, i) => {
    const u = f(r);
    const other = b[i];
    const v = other ? f(other) : null;
    if (u !== null && v !== null && u > 0) paired.push(v / u);
  });
  return paired.length > 1 ? ` [${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)}]` : '';
}

export interface Cell {
  link: string;
  page: string;
  browser: HintsBrowser;
  late: boolean;
  /** `[alone, +getlist]` runs, index i of each from the same pair. */
  runs: Partial<Record<HintsContender, HintsRun[]>>;
  errors: string[];
  overhead?: HintsOverhead;
  /** 1-minute load average when the cell started and when it ended (a shared machine). */
  load?: [number, number];
}

/**
 * Runs are pairs (both contenders back to back, order alternating): a metric's spread is the
 * range of the paired ratios +getlist / alone, beside the ratio of the medians.
 */
function ratioCell(a: readonly HintsRun[], b: readonly HintsRun[], f: (r: HintsRun) => number | null): string {
  const x = medianOf(a, f);
  const y = medianOf(b, f);
  return `${Math.round(x)} / ${Math.round(y)} / **${(y / x).toFixed(2)}**${pairedRange(a, b, f)}`;
}

/** When the late-found resources were done unhinted, against the page's completion (medians). */
function lateCell(a: readonly HintsRun[]): string {
  const ends = a.flatMap((r) => (r.lateEndMs !== undefined ? [r.lateEndMs] : []));
  return ends.length === 0 ? '—' : `${Math.round(median(ends))} of ${Math.round(median(a.map((r) => r.completeMs)))}`;
}

/** The extension with its hints switched off, against the browser alone: the extension's own cost. */
function offCell(a: readonly HintsRun[], off: readonly HintsRun[] | undefined): string {
  if (!off || off.length === 0) return '—';
  const r = (f: (x: HintsRun) => number | null) => (medianOf(off, f) / medianOf(a, f)).toFixed(2);
  return `${r((x) => x.completeMs)} / ${r((x) => x.fcpMs)}`;
}

/**
 * A browser on one of the page's bound variants (`+ideal`, `+all`) against the browser alone: complete
 * ratio [paired range], FCP and LCP ratios, its extra / duplicate requests (its document's path read
 * as the page's); undefined complete when the variant was not run.
 */
function boundCell(a: readonly HintsRun[], bound: readonly HintsRun[] | undefined): { cell: string; complete?: number; fcp?: number } {
  if (!bound || bound.length === 0) return { cell: '—' };
  const ratio = (f: (r: HintsRun) => number | null) => medianOf(bound, f) / medianOf(a, f);
  const complete = ratio((r) => r.completeMs);
  const baseline = new Set(a.flatMap((r) => r.paths));
  const extra = new Set(bound.flatMap((r) => r.paths.map(asBasePath).filter((p) => !baseline.has(p))));
  const dups = bound.reduce((n, r) => n + r.duplicates.length, 0);
  const fcp = ratio((r) => r.fcpMs);
  return { cell: `**${complete.toFixed(2)}**${pairedRange(a, bound, (r) => r.completeMs)} / ${fcp.toFixed(2)} / ${ratio((r) => r.lcpMs).toFixed(2)}; ${extra.size} / ${dups}`, complete, fcp };
}

/** FCP ratio a bound may read and still count as "no worse" (the 5-run noise of FCP on these links). */
const FCP_NO_WORSE = 1.05;

/**
 * The `+ideal` (late resources preloaded) and `+all` (every subresource, high priority) columns, and
 * whether the hints goal — complete ≤ 0.80 × alone with first paint no worse (FCP ≤ FCP_NO_WORSE ×) —
 * is within reach of hinting: by getlist's load or a bound that meets both; else the best complete, and what it cost first paint.
 */
export function boundCells(c: Cell, a: readonly HintsRun[], hinted: readonly HintsRun[]): string {
  const [idealOf, allOf] = bounds(c.browser);
  const ideal = boundCell(a, c.runs[idealOf]);
  const all = boundCell(a, c.runs[allOf]);
  // getlist's own load is hinting too: where it meets the goal, the goal is reachable whatever the bounds read.
  const run = [boundCell(a, hinted), ideal, all].filter((b): b is typeof b & { complete: number; fcp: number } => b.complete !== undefined && b.fcp !== undefined);
  const meets = run.filter((b) => b.complete <= 0.8 && b.fcp <= FCP_NO_WORSE).sort((x, y) => x.complete - y.complete)[0];
  const best = [...run].sort((x, y) => x.complete - y.complete)[0];
  const verdict = meets ? `yes: ${meets.complete.toFixed(3)}` : best ? `no: best ${best.complete.toFixed(3)}${best.complete <= 0.8 ? ` at FCP ${best.fcp.toFixed(2)}` : ''}` : '—';
  return `${ideal.cell} | ${all.cell} | ${verdict}`;
}

/** A bound variant's document path read as the page's own (ideal-hints.ts). */
function asBasePath(p: string): string {
  return p.replace(/\.(?:ideal|all)\.html$/, '.html');
}

function pathCell(b: readonly HintsRun[]): string {
  const paths = b.flatMap((r) => (r.path ? [r.path] : []));
  if (paths.length === 0) return '—';
  const bound = paths.filter((p) => p.bandwidthBound).length;
  return `${median(paths.map((p) => p.criticalRtts)).toFixed(1)} RTTs, ${bound}/${paths.length} bw-bound`;
}

export function table(cells: readonly Cell[]): string {
  const rows = [
    '| browser | link | page | late | late-found done (alone, ms) | runs | path (critical bytes in RTTs) | complete ms (alone / +getlist / ratio [paired range]) | FCP ms | LCP ms | ideal hints (late preloaded) ÷ alone: complete [paired range] / FCP / LCP; extra / dup | all preloaded, fetchpriority=high ÷ alone: the same | complete ≤ 0.80 with FCP no worse (≤ 1.05) reachable by hinting (getlist or either bound) | hints | server requests (alone / +getlist) | extra | duplicates | hintsFor µs | getlist, hints off: complete / FCP ratio to alone | load avg (start → end) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of cells) {
    const [alone, hinted] = pair(c.browser);
    const a = c.runs[alone] ?? [];
    const b = c.runs[hinted] ?? [];
    const baseline = new Set(a.flatMap((r) => r.paths));
    const extra = new Set(b.flatMap((r) => r.paths.filter((p) => !baseline.has(p))));
    const dups = b.reduce((n, r) => n + r.duplicates.length, 0);
    rows.push(
      `| ${c.browser} | ${c.link} | ${c.page} | ${c.late ? 'yes' : 'no'} | ${lateCell(a)} | ${Math.min(a.length, b.length)} | ${pathCell(b)} | ${ratioCell(a, b, (r) => r.completeMs)} | ${ratioCell(a, b, (r) => r.fcpMs)} | ${ratioCell(a, b, (r) => r.lcpMs)}${lcpElements(a)}${lcpElements(b)} | ${boundCells(c, a, b)} | ${median(b.map((r) => r.hints ?? 0))} | ${medianOf(a, (r) => r.serverRequests)} / ${medianOf(b, (r) => r.serverRequests)} | ${extra.size} | ${dups} | ${c.overhead?.perNavigationUs ?? '—'} | ${offCell(a, c.runs[`${c.browser}+getlist-off`])} | ${c.load ? `${c.load[0]} → ${c.load[1]}` : '—'} |`,
    );
  }
  return rows.join('\n');
}
