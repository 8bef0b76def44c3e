/** Medians, spreads and ratios of the overhead benchmark's interleaved runs, as a table and as JSON. */
import { median } from '../../src/stats/median';
import type { OverheadLoad } from './overhead-browser';
import { quantile, ratioInterval } from './overhead-stats';
import { PROCESS_ROLES, type CpuByRole } from './process-cpu';

/** Where a cell ran, and how busy the machine was meanwhile. */
export interface OverheadCellContext {
  /** `loopback`, or the packet-level link's name (overhead-link-spec.ts). */
  link: string;
  /** 1-minute load average when the cell's loads started and when they ended. */
  loadAverage: [number, number];
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
}

export interface OverheadMedians {
  loadMs: number;
  /** First and third quartile of the load times. */
  loadQuartiles: [number, number];
  domContentLoadedMs: number;
  domContentLoadedQuartiles: [number, number];
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
  };
}

/** The goal: load and DOMContentLoaded medians within +3 % of Chromium alone. */
export const GOAL_RATIO = 1.03;

export function formatTable(cells: readonly OverheadCell[]): string {
  const head = ['link', 'resources', 'extension (off)', 'runs', 'load avg', 'load plain [IQR]', 'load ext [IQR]', 'ratio [95% CI]', 'DCL plain [IQR]', 'DCL ext [IQR]', 'ratio [95% CI]', 'script at load', 'script total', 'goal'];
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
    `${c.contentScriptAtLoadMs} ms`,
    `${c.contentScriptMs} ms`,
    c.loadRatio <= GOAL_RATIO && c.domContentLoadedRatio <= GOAL_RATIO ? 'PASS' : 'MISS',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) => r.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  const legend = [
    'link: loopback, or the packet-level link (RTT, bottleneck rate each way; HTTP/1.1, cache off); load avg: 1-minute load average at the cell\'s start → end.',
    'ms medians [quartiles]; ratio = extension ÷ Chromium alone, medians [95 % bootstrap interval]; goal: both ratios ≤ 1.03.',
    'script at load / total: main-thread script time the extension adds (CDP ScriptDuration, extension − plain medians) by the load event / after the settle wait.',
  ];
  return [line(head), ...rows.map(line), '', ...legend].join('\n');
}

/** CPU the extension adds per page load, by process: what attributes its cost on a busy machine. */
export function formatCpuTable(cells: readonly OverheadCell[]): string {
  const head = ['link', 'resources', 'extension (off)', 'CPU to load plain', 'ext', 'added', ...PROCESS_ROLES.map((r) => `+${r}`), 'CPU to settle added'];
  const rows = cells.map((c) => [
    c.link ?? 'loopback',
    String(c.resources),
    c.variant,
    `${c.plain.cpuAtLoadTotalMs} ms`,
    `${c.extension.cpuAtLoadTotalMs} ms`,
    `${round(c.extension.cpuAtLoadTotalMs - c.plain.cpuAtLoadTotalMs)} ms`,
    ...PROCESS_ROLES.map((r) => String(round(c.extension.cpuAtLoad[r] - c.plain.cpuAtLoad[r]))),
    `${round(c.extension.cpuTotalMs - c.plain.cpuTotalMs)} ms`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) => r.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  const legend = [
    'CPU of the browser\'s whole process tree (every thread\'s /proc schedstat), medians, ms: from navigation start to the load event, and to the end of the settle wait;',
    '+role: extension − plain medians per process (browser, network service, page renderer, extension service worker, native host, other).',
  ];
  return [line(head), ...rows.map(line), '', ...legend].join('\n');
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
