/** Medians, spreads and ratios of the overhead benchmark's interleaved runs, as a table and as JSON. */
import { median } from '../../src/stats/median';
import type { OverheadLoad, OverheadTab } from './overhead-load';
import { pairedDifference, pairedRatio, quantile, ratioInterval, type PairedEstimate } from './overhead-stats';
import { PROCESS_ROLES, type CpuByRole } from './process-cpu';

/** Where a cell ran, and how busy the machine was meanwhile. */
export interface OverheadCellContext {
  /** `loopback`, or the packet-level link's name (overhead-link-spec.ts). */
  link: string;
  /** 1-minute load average when the cell's loads started and when they ended. */
  loadAverage: [number, number];
  /** @default 'chromium' */
  browser?: 'chromium' | 'firefox';
  /** A new tab per load, or the browser's one warm tab (overhead-load.ts). @default 'fresh' */
  tab?: OverheadTab;
}

/**
 * Figures of the loads made side by side (run i of the extension's browser against run i of the
 * browser alone, adjacent in the interleaved order): medians over pairs with 95 % bootstrap
 * intervals over pairs (overhead-stats.ts pairedEstimate). What drifts between runs cancels.
 */
export interface OverheadPaired {
  loadRatio: PairedEstimate;
  domContentLoadedRatio: PairedEstimate;
  /** Extension − alone, ms. */
  domContentLoadedDeltaMs: PairedEstimate;
  /** Navigation start → the document's first byte, extension − alone, ms: tab, process, connection. */
  responseStartDeltaMs: PairedEstimate;
  /** DOMContentLoaded − responseStart, extension − alone, ms: parsing the page and what runs in it. */
  parseDeltaMs: PairedEstimate;
}

export interface OverheadCell extends Partial<OverheadCellContext> {
  resources: number;
  /** `full`, or the pieces the extension build had switched off (bench/overhead/overhead-variants.ts). */
  variant: string;
  runs: number;
  plain: OverheadMedians;
  extension: OverheadMedians;
  /** extension / plain, medians. */
  loadRatio: number;
  /** 95 % bootstrap interval of `loadRatio`. */
  loadRatioInterval: [number, number];
  domContentLoadedRatio: number;
  domContentLoadedRatioInterval: [number, number];
  /** Median extension minus median plain main-thread script time, after the settle wait: the content script's share. */
  contentScriptMs: number;
  /** The same at the load event: the share that can delay the page. */
  contentScriptAtLoadMs: number;
  paired: OverheadPaired;
  /**
   * Every pair's milestones, in run order: what `--pool` (overhead-pool.ts) pools across runs into
   * one paired median. Absent from JSON written before the bench kept pairs.
   */
  pairs?: OverheadPair[];
}

/** The milestones of one load, as a pair keeps them (ms from navigation start). */
export type PairedLoad = Pick<OverheadLoad, 'loadMs' | 'domContentLoadedMs' | 'responseStartMs'>;

/** Run i of the browser alone and run i of the extension's browser, loaded side by side. */
export interface OverheadPair {
  plain: PairedLoad;
  extension: PairedLoad;
}

export interface OverheadMedians {
  loadMs: number;
  /** First and third quartile of the load times. */
  loadQuartiles: [number, number];
  domContentLoadedMs: number;
  domContentLoadedQuartiles: [number, number];
  /** Navigation start → the document's first byte. */
  responseStartMs: number;
  scriptMs: number;
  scriptAtLoadMs: number;
  taskMs: number;
  /** Process-tree CPU by role to the load event, and its total (medians of each, ms). */
  cpuAtLoad: CpuByRole;
  cpuAtLoadTotalMs: number;
  /** The same to the end of the settle wait. */
  cpuTotalMs: number;
}

const total = (c: CpuByRole) => PROCESS_ROLES.reduce((sum, r) => sum + c[r], 0);

export function medians(loads: readonly OverheadLoad[]): OverheadMedians {
  const m = (f: (l: OverheadLoad) => number) => round(median(loads.map(f)));
  const q = (f: (l: OverheadLoad) => number): [number, number] => [round(quantile(loads.map(f), 0.25)), round(quantile(loads.map(f), 0.75))];
  return {
    loadMs: m((l) => l.loadMs),
    loadQuartiles: q((l) => l.loadMs),
    domContentLoadedMs: m((l) => l.domContentLoadedMs),
    domContentLoadedQuartiles: q((l) => l.domContentLoadedMs),
    responseStartMs: m((l) => l.responseStartMs),
    scriptMs: m((l) => l.scriptMs),
    scriptAtLoadMs: m((l) => l.scriptAtLoadMs),
    taskMs: m((l) => l.taskMs),
    cpuAtLoad: Object.fromEntries(PROCESS_ROLES.map((r) => [r, m((l) => l.cpuAtLoad[r])])) as CpuByRole,
    cpuAtLoadTotalMs: m((l) => total(l.cpuAtLoad)),
    cpuTotalMs: m((l) => total(l.cpu)),
  };
}

export function overheadCell(resources: number, variant: string, plain: readonly OverheadLoad[], extension: readonly OverheadLoad[], context?: OverheadCellContext): OverheadCell {
  const p = medians(plain);
  const e = medians(extension);
  const interval = (f: (l: OverheadLoad) => number): [number, number] => ratioInterval(plain.map(f), extension.map(f)).map((x) => round(x, 3)) as [number, number];
  return {
    ...context,
    resources,
    variant,
    runs: Math.min(plain.length, extension.length),
    plain: p,
    extension: e,
    loadRatio: round(e.loadMs / p.loadMs, 3),
    loadRatioInterval: interval((l) => l.loadMs),
    domContentLoadedRatio: round(e.domContentLoadedMs / p.domContentLoadedMs, 3),
    domContentLoadedRatioInterval: interval((l) => l.domContentLoadedMs),
    contentScriptMs: round(e.scriptMs - p.scriptMs),
    contentScriptAtLoadMs: round(e.scriptAtLoadMs - p.scriptAtLoadMs),
    paired: pairedFigures(plain, extension),
    pairs: Array.from({ length: Math.min(plain.length, extension.length) }, (_, i) => ({ plain: milestones(plain[i] as OverheadLoad), extension: milestones(extension[i] as OverheadLoad) })),
  };
}

const milestones = (l: PairedLoad): PairedLoad => ({ loadMs: l.loadMs, domContentLoadedMs: l.domContentLoadedMs, responseStartMs: l.responseStartMs });

export function pairedFigures(plain: readonly PairedLoad[], extension: readonly PairedLoad[]): OverheadPaired {
  const rounded = (x: PairedEstimate, digits: number): PairedEstimate => ({ value: round(x.value, digits), interval: x.interval.map((v) => round(v, digits)) as [number, number] });
  const of = (f: (l: PairedLoad) => number) => [plain.map(f), extension.map(f)] as const;
  return {
    loadRatio: rounded(pairedRatio(...of((l) => l.loadMs)), 3),
    domContentLoadedRatio: rounded(pairedRatio(...of((l) => l.domContentLoadedMs)), 3),
    domContentLoadedDeltaMs: rounded(pairedDifference(...of((l) => l.domContentLoadedMs)), 2),
    responseStartDeltaMs: rounded(pairedDifference(...of((l) => l.responseStartMs)), 2),
    parseDeltaMs: rounded(pairedDifference(...of((l) => l.domContentLoadedMs - l.responseStartMs)), 2),
  };
}

/** The goal: load and DOMContentLoaded medians within +3 % of Chromium alone. */
export const GOAL_RATIO = 1.03;

export function formatTable(cells: readonly OverheadCell[]): string {
  const head = ['link', 'resources', 'extension (off)', 'runs', 'load avg', 'load plain [IQR]', 'load ext [IQR]', 'ratio [95% CI]', 'DCL plain [IQR]', 'DCL ext [IQR]', 'ratio [95% CI]', 'script at load', 'script total', 'goal', 'browser', 'tab'];
  const ms = (x: number, q: [number, number]) => `${x} [${q[0]}–${q[1]}]`;
  const ratio = (r: number, i: [number, number]) => `${r.toFixed(3)} [${i[0].toFixed(3)}–${i[1].toFixed(3)}]`;
  const rows = cells.map((c) => [
    c.link ?? 'loopback',
    String(c.resources),
    c.variant,
    String(c.runs),
    c.loadAverage !== undefined ? `${c.loadAverage[0]}→${c.loadAverage[1]}` : '',
    ms(c.plain.loadMs, c.plain.loadQuartiles),
    ms(c.extension.loadMs, c.extension.loadQuartiles),
    ratio(c.loadRatio, c.loadRatioInterval),
    ms(c.plain.domContentLoadedMs, c.plain.domContentLoadedQuartiles),
    ms(c.extension.domContentLoadedMs, c.extension.domContentLoadedQuartiles),
    ratio(c.domContentLoadedRatio, c.domContentLoadedRatioInterval),
    notExposed(c.contentScriptAtLoadMs, `${c.contentScriptAtLoadMs} ms`),
    notExposed(c.contentScriptMs, `${c.contentScriptMs} ms`),
    c.loadRatio <= GOAL_RATIO && c.domContentLoadedRatio <= GOAL_RATIO ? 'PASS' : 'MISS',
    c.browser ?? 'chromium',
    c.tab ?? 'fresh',
  ]);
  const legend = [
    'link: loopback, or the packet-level link (RTT, bottleneck rate each way; HTTP/1.1, cache off); load avg: 1-minute load average at the cell\'s start → end.',
    'ms medians [quartiles]; ratio = extension ÷ the same browser alone, medians [95 % bootstrap interval]; goal: both ratios ≤ 1.03.',
    'script at load / total: main-thread script time the extension adds (CDP ScriptDuration, extension − plain medians) by the load event / after the settle wait (Firefox: not exposed).',
    'browser: Chromium or Firefox ESR, each against itself alone; tab: fresh = a new tab per load, warm = one tab navigating to each run\'s own URL.',
  ];
  return [aligned(head, rows), '', ...legend].join('\n');
}

/**
 * The paired figures: what the extension adds, load by load, and where in the navigation —
 * before the document's first byte (tab, process, connection) or after it (parsing, scripts).
 */
export function formatPairedTable(cells: readonly OverheadCell[]): string {
  const head = ['link', 'browser', 'tab', 'resources', 'extension (off)', 'pairs', 'load avg', 'load ratio [95% CI]', 'DCL ratio [95% CI]', 'DCL +ms [95% CI]', 'to 1st byte +ms', 'parse +ms (DCL − 1st byte)', 'DCL plain', '1st byte plain', 'goal'];
  const rows = cells.map((c) => [
    c.link ?? 'loopback',
    c.browser ?? 'chromium',
    c.tab ?? 'fresh',
    String(c.resources),
    c.variant,
    String(c.runs),
    c.loadAverage !== undefined ? `${c.loadAverage[0]}→${c.loadAverage[1]}` : '',
    est(c.paired.loadRatio, 3),
    est(c.paired.domContentLoadedRatio, 3),
    est(c.paired.domContentLoadedDeltaMs, 2),
    est(c.paired.responseStartDeltaMs, 2),
    est(c.paired.parseDeltaMs, 2),
    `${c.plain.domContentLoadedMs} ms`,
    `${c.plain.responseStartMs} ms`,
    pairedGoal(c.paired),
  ]);
  const legend = [
    'Paired: run i of the extension\'s browser against run i of the browser alone (loaded side by side, the order rotating); medians over pairs [95 % bootstrap over pairs].',
    '+ms: extension − alone; to 1st byte: navigation start → the document\'s responseStart (tab, renderer, connection); parse: responseStart → DOMContentLoaded (HTML parsing and what runs in the page).',
    'sham: a second browser alone, the bench\'s own zero; none: Chromium\'s extension system on, getlist not loaded. goal: both paired ratios ≤ 1.03.',
  ];
  return [aligned(head, rows), '', ...legend].join('\n');
}

/** A paired figure as the tables print it: value [interval], to `digits` decimals. */
export const est = (x: PairedEstimate, digits: number): string => `${x.value.toFixed(digits)} [${x.interval[0].toFixed(digits)}–${x.interval[1].toFixed(digits)}]`;

/** The goal on paired figures: both the load and the DOMContentLoaded ratio ≤ GOAL_RATIO. */
export const pairedGoal = (p: OverheadPaired): 'PASS' | 'MISS' => (p.loadRatio.value <= GOAL_RATIO && p.domContentLoadedRatio.value <= GOAL_RATIO ? 'PASS' : 'MISS');

export function aligned(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) => r.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

const notExposed = (x: number, text: string): string => (Number.isFinite(x) ? text : 'not exposed');

/** CPU the extension adds per page load, by process: what attributes its cost on a busy machine. */
export function formatCpuTable(cells: readonly OverheadCell[]): string {
  const head = ['link', 'resources', 'extension (off)', 'CPU to load plain', 'ext', 'added', ...PROCESS_ROLES.map((r) => `+${r}`), 'CPU to settle added', 'browser', 'tab'];
  const rows = cells.map((c) => [
    c.link ?? 'loopback',
    String(c.resources),
    c.variant,
    `${c.plain.cpuAtLoadTotalMs} ms`,
    `${c.extension.cpuAtLoadTotalMs} ms`,
    `${round(c.extension.cpuAtLoadTotalMs - c.plain.cpuAtLoadTotalMs)} ms`,
    ...PROCESS_ROLES.map((r) => String(round(c.extension.cpuAtLoad[r] - c.plain.cpuAtLoad[r]))),
    `${round(c.extension.cpuTotalMs - c.plain.cpuTotalMs)} ms`,
    c.browser ?? 'chromium',
    c.tab ?? 'fresh',
  ]);
  const legend = [
    'CPU of the browser\'s whole process tree (every thread\'s /proc schedstat), medians, ms: from navigation start to the load event, and to the end of the settle wait;',
    '+role: extension − plain medians per process (browser, network service, page renderer, extension service worker, native host, other).',
  ];
  return [aligned(head, rows), '', ...legend].join('\n');
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
