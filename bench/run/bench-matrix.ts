/**
 * Which pages run on which links, with which contenders, and in what order. Full is the whole
 * matrix (bench/README.md, "The packet-level benchmark"); quick is a representative subset sized to finish in under five minutes on two cores.
 */
import type { ContenderName, GetlistContender, GetlistStrategy, Scheme } from './results-schema';
import { SPDY_DSL_LOSSES, SPDY_DSL_RTTS, spdyDslName } from './link-presets';

/** The HTTP/1.1 experiments (P&M, McManus): every contender over plain http. */
export const HTTP_CONTENDERS: readonly ContenderName[] = ['http10', 'serial', 'browser', 'pipelined', 'getlist', 'chromium-h1'];
/** The TLS / HTTP/2 comparison (SPDY whitepaper): every contender over https. */
export const TLS_CONTENDERS: readonly ContenderName[] = ['browser-tls', 'getlist-tls', 'h2', 'chromium-h2'];
export const ALL_CONTENDERS: readonly ContenderName[] = [...HTTP_CONTENDERS, ...TLS_CONTENDERS];

/**
 * The scheme is part of a contender's identity, so every ratio the report prints compares two
 * contenders on the same scheme. http URLs keep a contender on HTTP/1.1 (no ALPN); https costs a
 * TLS 1.3 handshake (one more RTT per connection) and lets ALPN pick h2 where the strategy allows it.
 */
export const CONTENDER_SCHEME: Readonly<Record<ContenderName, Scheme>> = {
  http10: 'http', serial: 'http', browser: 'http', pipelined: 'http', getlist: 'http', 'chromium-h1': 'http',
  'browser-tls': 'https', 'getlist-tls': 'https', h2: 'https', 'chromium-h2': 'https',
};

/** The `getlist load --strategy` a getlist-run contender uses. */
export const CONTENDER_STRATEGY: Readonly<Record<GetlistContender, GetlistStrategy>> = {
  http10: 'http10', serial: 'serial', browser: 'browser', pipelined: 'pipelined', getlist: 'getlist', h2: 'h2',
  'getlist-tls': 'getlist', 'browser-tls': 'browser',
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

/**
 * HTTP/1.1 cells (P&M, McManus: the papers' setting): the http set, plus getlist-tls, h2 and
 * chromium-h2 to show what TLS and h2 add or save there. browser-tls is left out: it only answers
 * the SPDY question.
 */
export const HTTP11_CELL_CONTENDERS: readonly ContenderName[] = [...HTTP_CONTENDERS, 'getlist-tls', 'h2', 'chromium-h2'];
/** SPDY-comparison cells (spdy-dsl, mobile): the https set and chromium-h1, plus browser and getlist over http. */
export const SPDY_CELL_CONTENDERS: readonly ContenderName[] = ['browser', 'getlist', 'chromium-h1', ...TLS_CONTENDERS];

const cells = (pages: readonly string[], contenders: readonly ContenderName[]): CellPlan[] =>
  pages.map((page) => ({ page, contenders }));

/**
 * Pages on the SPDY-comparison links. The almanac pages are today's web: 2.3 MB and 7 MB, so on a
 * 2 Mbit/s DSL line they are mostly bytes, not round trips. `mcmanus-159` (159 requests, 401 KB)
 * is the request-heavy, lighter shape of the pages of the SPDY whitepaper's era; it shows what
 * scheduling can win where latency, not bandwidth, dominates.
 */
export const SPDY_PAGES: readonly string[] = [...ALMANAC, 'mcmanus-159'];

/** The whole matrix: P&M pages on pm95, McManus' page on both McManus links, almanac pages and mcmanus-159 on the DSL grid and mobile. */
export function fullPlan(runs = 5): BenchPlan {
  const dsl = SPDY_DSL_RTTS.flatMap((r) => SPDY_DSL_LOSSES.map((l) => ({ link: spdyDslName(r, l), cells: cells(SPDY_PAGES, SPDY_CELL_CONTENDERS) })));
  return {
    mode: 'full',
    runs,
    links: [
      { link: 'pm95', cells: cells([...PM95_PAGES, ...PM95_45566], HTTP11_CELL_CONTENDERS) },
      { link: 'mcmanus-100', cells: cells(['mcmanus-159'], HTTP11_CELL_CONTENDERS) },
      { link: 'mcmanus-300', cells: cells(['mcmanus-159'], HTTP11_CELL_CONTENDERS) },
      ...dsl,
      { link: 'mobile', cells: cells(SPDY_PAGES, SPDY_CELL_CONTENDERS) },
    ],
  };
}

/**
 * Under five minutes on two cores: 3 runs (not 5), and on the slow cells only the contenders that
 * answer that cell's question. http10 and serial take ~159 round trips on mcmanus-159, so they run
 * only on the P&M pages. An almanac-median load moves 2.3 MB through 2 Mbit/s (≥ 8 s a load), so
 * quick runs one DSL link (spdy-dsl-80-0, the lowest RTT the SPDY goal judges), 2 runs, with only
 * the SPDY comparison's contenders. browser and getlist over http would add four more loads of
 * that size and leave no margin under five minutes, so on the DSL links they run in the full
 * matrix only.
 */
export function quickPlan(runs = 3): BenchPlan {
  const mcmanus = HTTP11_CELL_CONTENDERS.filter((c) => c !== 'http10' && c !== 'serial');
  const dsl = SPDY_CELL_CONTENDERS.filter((c) => c !== 'browser' && c !== 'getlist');
  return {
    mode: 'quick',
    runs,
    links: [
      { link: 'pm95', cells: cells(['pm95-2544-1', 'pm95-2544-10', 'pm95-2544-40'], HTTP11_CELL_CONTENDERS) },
      { link: 'mcmanus-100', cells: cells(['mcmanus-159'], mcmanus) },
      { link: 'spdy-dsl-80-0', cells: cells(['almanac-median'], dsl), runs: Math.min(runs, 2) },
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
