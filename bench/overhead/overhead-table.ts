/** Medians and ratios of the overhead benchmark's interleaved runs, as a table and as JSON. */
import { median } from '../../src/stats/median';
import type { OverheadLoad } from './overhead-browser';

export interface OverheadCell {
  resources: number;
  runs: number;
  plain: OverheadMedians;
  extension: OverheadMedians;
  /** extension / plain, medians. */
  loadRatio: number;
  domContentLoadedRatio: number;
  /** Median extension minus median plain main-thread script time: the content script's share. */
  contentScriptMs: number;
}

export interface OverheadMedians {
  loadMs: number;
  domContentLoadedMs: number;
  scriptMs: number;
  taskMs: number;
}

export function medians(loads: readonly OverheadLoad[]): OverheadMedians {
  const m = (f: (l: OverheadLoad) => number) => round(median(loads.map(f)));
  return { loadMs: m((l) => l.loadMs), domContentLoadedMs: m((l) => l.domContentLoadedMs), scriptMs: m((l) => l.scriptMs), taskMs: m((l) => l.taskMs) };
}

export function overheadCell(resources: number, plain: readonly OverheadLoad[], extension: readonly OverheadLoad[]): OverheadCell {
  const p = medians(plain);
  const e = medians(extension);
  return {
    resources,
    runs: Math.min(plain.length, extension.length),
    plain: p,
    extension: e,
    loadRatio: round(e.loadMs / p.loadMs, 3),
    domContentLoadedRatio: round(e.domContentLoadedMs / p.domContentLoadedMs, 3),
    contentScriptMs: round(e.scriptMs - p.scriptMs),
  };
}

/** The goal: load and DOMContentLoaded medians within +3 % of Chromium alone. */
export const GOAL_RATIO = 1.03;

export function formatTable(cells: readonly OverheadCell[]): string {
  const head = ['resources', 'runs', 'load plain', 'load ext', 'ratio', 'DCL plain', 'DCL ext', 'ratio', 'script plain', 'script ext', 'content script', 'goal'];
  const rows = cells.map((c) => [
    String(c.resources),
    String(c.runs),
    `${c.plain.loadMs} ms`,
    `${c.extension.loadMs} ms`,
    c.loadRatio.toFixed(3),
    `${c.plain.domContentLoadedMs} ms`,
    `${c.extension.domContentLoadedMs} ms`,
    c.domContentLoadedRatio.toFixed(3),
    `${c.plain.scriptMs} ms`,
    `${c.extension.scriptMs} ms`,
    `${c.contentScriptMs} ms`,
    c.loadRatio <= GOAL_RATIO && c.domContentLoadedRatio <= GOAL_RATIO ? 'PASS' : 'MISS',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) => r.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
