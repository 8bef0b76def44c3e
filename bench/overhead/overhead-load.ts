/**
 * One measured page load of the overhead benchmark, in a fresh tab or in the browser's one warm
 * tab, for Chromium (CDP) and Firefox (WebDriver BiDi) alike. The wall-clock figures come from
 * the page's own Navigation Timing; main-thread script time from CDP `Performance.getMetrics`
 * where the browser has it (Chromium), NaN otherwise; CPU from the browser's process tree (/proc).
 */
import type { Page } from 'puppeteer-core';
import { cpuDelta, processTreeCpu, type CpuByRole } from './process-cpu';

/**
 * `fresh`: a new tab per load (the tab's renderer starts inside the navigation, as a link opened
 * in a new tab); `warm`: the browser's one long-lived tab navigates to the next URL, as a user
 * mostly does. Every load has a URL of its own (`?run=…`), so no load is a reload.
 */
export type OverheadTab = 'fresh' | 'warm';

export const OVERHEAD_TABS: readonly OverheadTab[] = ['fresh', 'warm'];

export interface OverheadLoad {
  loadMs: number;
  domContentLoadedMs: number;
  /**
   * Navigation start → the document's first byte (Navigation Timing `responseStart`): the tab,
   * process and connection part of DOMContentLoaded; DCL − this is the page's parse-and-run part.
   */
  responseStartMs: number;
  /** Resource Timing entries of the document at the end of the settle wait: the page's own fetches (its images), checked by the runner. */
  resources: number;
  /** CDP ScriptDuration of the tab's renderer main thread (page + content scripts), ms, after the settle wait; NaN where the browser has no such figure (Firefox). */
  scriptMs: number;
  /** The same when the load event has fired: the script time that can delay the page's own milestones. */
  scriptAtLoadMs: number;
  /** CDP TaskDuration: all main-thread work of the tab, ms (NaN in Firefox). */
  taskMs: number;
  /** CPU of the browser's process tree by role from navigation start to the load event, ms. */
  cpuAtLoad: CpuByRole;
  /** The same to the end of the settle wait (the extension's post-load work and the host's measure). */
  cpu: CpuByRole;
}

/** A tab to load in, and its main-thread counters (undefined where the browser exposes none). */
export interface LoadTab {
  page: Page;
  /** Cumulative ms of ScriptDuration and TaskDuration of the tab's renderer so far. */
  counters?: () => Promise<{ scriptMs: number; taskMs: number }>;
}

export interface LoadOptions {
  settleMs: number;
  /** The browser's root process (its tree is what the CPU figures cover). */
  pid: number | undefined;
  timeoutMs?: number;
}

/** Navigation Timing of the tab's document. A string: the bench compiles without the DOM lib. */
const NAV_TIMING = `(() => { const n = performance.getEntriesByType('navigation')[0];
  return { loadMs: n.loadEventStart, domContentLoadedMs: n.domContentLoadedEventStart, responseStartMs: n.responseStart,
    resources: performance.getEntriesByType('resource').length }; })()`;

/**
 * A counter read before and after a navigation: the difference, or the value after when it went
 * down (the tab moved to a new renderer, whose counters start at 0).
 */
export function counterDelta(before: number, after: number): number {
  return after >= before ? after - before : after;
}

export async function measureLoad(tab: LoadTab, url: string, o: LoadOptions): Promise<OverheadLoad> {
  const before = await tab.counters?.();
  const cpu0 = processTreeCpu(o.pid);
  await tab.page.goto(url, { waitUntil: 'load', timeout: o.timeoutMs ?? 60_000 });
  const cpuAtLoad = cpuDelta(cpu0, processTreeCpu(o.pid));
  const atLoad = await tab.counters?.();
  await new Promise((r) => setTimeout(r, o.settleMs));
  const cpu = cpuDelta(cpu0, processTreeCpu(o.pid));
  const nav = (await tab.page.evaluate(NAV_TIMING)) as Pick<OverheadLoad, 'loadMs' | 'domContentLoadedMs' | 'responseStartMs' | 'resources'>;
  const after = await tab.counters?.();
  const delta = (key: 'scriptMs' | 'taskMs', end: typeof after) => (before !== undefined && end !== undefined ? counterDelta(before[key], end[key]) : Number.NaN);
  return { ...nav, scriptMs: delta('scriptMs', after), scriptAtLoadMs: delta('scriptMs', atLoad), taskMs: delta('taskMs', after), cpuAtLoad, cpu };
}

/**
 * A browser's `load(url, tab)`: `warm` navigates one long-lived tab (opened on first use), `fresh`
 * opens a tab for the load and closes it after.
 */
export function tabbedLoader(openTab: () => Promise<LoadTab>, options: () => LoadOptions): (url: string, tab?: OverheadTab) => Promise<OverheadLoad> {
  let warm: LoadTab | undefined;
  return async (url, tab = 'fresh') => {
    if (tab === 'warm') {
      warm ??= await openTab();
      return measureLoad(warm, url, options());
    }
    const fresh = await openTab();
    try {
      return await measureLoad(fresh, url, options());
    } finally {
      await fresh.page.close().catch(() => undefined);
    }
  };
}
