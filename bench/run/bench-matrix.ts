/**
 * Which pages run on which links, with which contenders, and in what order. Full is the issue's
 * matrix; quick is a representative subset sized to finish in under five minutes on two cores.
 */
import type { ContenderName, Scheme } from './results-schema';
import { SPDY_DSL_LOSSES, SPDY_DSL_RTTS, spdyDslName } from './link-presets';

export const ALL_CONTENDERS: readonly ContenderName[] = ['http10', 'serial', 'browser', 'pipelined', 'getlist', 'h2', 'chromium-h1', 'chromium-h2'];

/**
 * http URLs keep a contender on HTTP/1.1 (no ALPN); https lets ALPN pick h2. getlist runs on https
 * because its policy is "h2 where the origin offers it"; the HTTP/1.1 strategies stay on http so
 * they are compared with TLS cost neither added nor negotiated away.
 */
export const CONTENDER_SCHEME: Readonly<Record<ContenderName, Scheme>> = {
  http10: 'http', serial: 'http', browser: 'http', pipelined: 'http',
  getlist: 'https', h2: 'https', 'chromium-h1': 'http', 'chromium-h2': 'https',
};

export interface CellPlan {
  page: string;
  contenders: readonly ContenderName[];
}

export interface LinkPlan {
  link: string;
  cells: CellPlan[];
  /** Overrides the plan's runs on this link (quick: the slow DSL links). */
  runs?: number;
}

export interface BenchPlan {
  mode: 'quick' | 'full';
  runs: number;
  links: LinkPlan[];
}

const PM95_PAGES = [1, 5, 10, 20, 40].map((n) => `pm95-2544-${n}`);
const PM95_45566 = [1, 5, 10, 20, 40].map((n) => `pm95-45566-${n}`);
const ALMANAC = ['almanac-median', 'almanac-p90'];

const cells = (pages: readonly string[], contenders: readonly ContenderName[] = ALL_CONTENDERS): CellPlan[] =>
  pages.map((page) => ({ page, contenders }));

/** The issue's matrix: P&M pages on pm95, McManus' page on both McManus links, almanac pages on the DSL grid and mobile. */
export function fullPlan(runs = 5): BenchPlan {
  const dsl = SPDY_DSL_RTTS.flatMap((r) => SPDY_DSL_LOSSES.map((l) => ({ link: spdyDslName(r, l), cells: cells(ALMANAC) })));
  return {
    mode: 'full',
    runs,
    links: [
      { link: 'pm95', cells: cells([...PM95_PAGES, ...PM95_45566]) },
      { link: 'mcmanus-100', cells: cells(['mcmanus-159']) },
      { link: 'mcmanus-300', cells: cells(['mcmanus-159']) },
      ...dsl,
      { link: 'mobile', cells: cells(ALMANAC) },
    ],
  };
}

/**
 * Under five minutes on two cores: 3 runs (not 5), and on the slow cells only the contenders that
 * answer that cell's question. http10 and serial take ~159 round trips on mcmanus-159, so they run
 * only on the P&M pages. An almanac-median load moves 2.3 MB through 2 Mbit/s (≥ 9 s a load), so
 * the DSL links run getlist against both Chromiums, 2 runs each.
 */
export function quickPlan(runs = 3): BenchPlan {
  const modern: ContenderName[] = ['browser', 'pipelined', 'getlist', 'h2', 'chromium-h1', 'chromium-h2'];
  const dsl: ContenderName[] = ['getlist', 'chromium-h1', 'chromium-h2'];
  const dslRuns = Math.min(runs, 2);
  return {
    mode: 'quick',
    runs,
    links: [
      { link: 'pm95', cells: cells(['pm95-2544-1', 'pm95-2544-10', 'pm95-2544-40']) },
      { link: 'mcmanus-100', cells: cells(['mcmanus-159'], modern) },
      { link: 'spdy-dsl-80-0', cells: cells(['almanac-median'], dsl), runs: dslRuns },
      { link: 'spdy-dsl-120-0', cells: cells(['almanac-median'], dsl), runs: dslRuns },
    ],
  };
}

/** Contender order for run `run` (0-based): rotated by one each run so none always goes first. */
export function rotation<T>(items: readonly T[], run: number): T[] {
  if (items.length === 0) return [];
  const k = ((run % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** How many page loads a plan makes (for progress and time estimates). */
export function planLoads(plan: BenchPlan): number {
  return plan.links.reduce((n, l) => n + l.cells.reduce((m, c) => m + c.contenders.length * (l.runs ?? plan.runs), 0), 0);
}
