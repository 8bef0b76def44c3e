/**
 * The report's two figures, from a results file:
 * - figure-pm95.svg: load time vs number of images per contender, one panel per image size
 *   (Padmanabhan & Mogul 1995, figures 6-1 and 6-2);
 * - figure-rtt.svg: load time vs RTT at 0 % loss on the almanac page, and vs loss where the run
 *   has lossy cells (SPDY whitepaper, tables 2 and 3).
 * Each returns undefined when the run has no cell for it. Merged results (merge-results.ts) may put
 * cells of different runs on one line; the footnote names the runs.
 */
import type { ContenderName } from '../run/results-schema';
import type { ResultsSummary, CellSummary } from './results-summary';
import { CellBounds, tcpOf } from './cell-bounds';
import { isSpdyDsl, medianTotal, pm95Params } from './cell-lookup';
import { metaOf, runsLabel } from './merge-results';
import { PALETTE, svgDocument, type ChartSeries, type PanelSpec } from './svg-chart';

const CONTENDER_ORDER: readonly ContenderName[] = ['http10', 'serial', 'browser', 'pipelined', 'getlist', 'chromium-h1', 'browser-tls', 'getlist-tls', 'h2', 'chromium-h2'];
export const PM95_COUNTS = [1, 5, 10, 20, 40] as const;
export const PM95_SIZES = [2544, 45566] as const;
/** The whitepaper's RTT grid (table 3). */
export const SPDY_RTTS = [20, 40, 80, 120, 160, 200] as const;
const RTT_CONTENDERS: readonly ContenderName[] = ['browser', 'getlist', 'chromium-h1', 'browser-tls', 'getlist-tls', 'h2', 'chromium-h2'];

function contendersIn(cells: readonly CellSummary[], only: readonly ContenderName[] = CONTENDER_ORDER): ContenderName[] {
  const seen = new Set(cells.flatMap((c) => c.contenders.map((k) => k.contender)));
  return only.filter((c) => seen.has(c));
}

/**
 * The bound a getlist contender is held to (its scheme, no script-inserted requests), as a dashed
 * series: `getlist` (http) on the P&M figure, `getlist-tls` (https) on the SPDY one.
 */
function boundSeries(results: ResultsSummary, cells: readonly CellSummary[], x: (c: CellSummary) => number, contender: 'getlist' | 'getlist-tls'): ChartSeries {
  const scheme = results.meta.schemes?.[contender] ?? (contender === 'getlist' ? 'http' : 'https');
  return {
    name: `lower bound (${scheme})`,
    dashed: true,
    points: cells.map((c) => ({ x: x(c), y: new CellBounds(c, tcpOf(metaOf(results, c))).forContender(contender, scheme)?.totalMs })),
  };
}

function series(cells: readonly CellSummary[], contenders: readonly ContenderName[], x: (c: CellSummary) => number): ChartSeries[] {
  // One colour per contender in every panel and figure.
  return contenders.map((name) => ({
    name,
    color: PALETTE[CONTENDER_ORDER.indexOf(name) % PALETTE.length] as string,
    emphasis: name === 'getlist' || name === 'getlist-tls',
    points: cells.map((c) => ({ x: x(c), y: medianTotal(c, name) })),
  }));
}

export function pm95Figure(results: ResultsSummary): string | undefined {
  const panels: PanelSpec[] = [];
  for (const size of PM95_SIZES) {
    const cells = results.cells.filter((c) => c.linkParams.rttMs === 70 && pm95Params(c.page)?.size === size);
    if (cells.length === 0) continue;
    const count = (c: CellSummary) => pm95Params(c.page)?.count ?? 0;
    const link = cells[0]?.linkParams;
    panels.push({
      title: `${size}-byte images, ${link?.rttMs} ms RTT, ${(link?.downBitsPerSec ?? 0) / 1e6} Mbit/s (after P&M 1995 fig. 6-${size === 2544 ? 1 : 2})`,
      xLabel: 'number of images',
      yLabel: 'page load time (ms, median)',
      xTicks: PM95_COUNTS,
      series: [...series(cells, contendersIn(cells), count), boundSeries(results, cells, count, 'getlist')],
    });
  }
  if (panels.length === 0) return undefined;
  return svgDocument('Load time vs number of inlined images', panels, 760, 340, `${runsLabel(results)}; dashed: the lower bound for getlist over http and its requests (bench/model/MODEL.md)`);
}

export function rttFigure(results: ResultsSummary, page = 'almanac-median'): string | undefined {
  const dsl = results.cells.filter((c) => c.page === page && isSpdyDsl(c));
  const clean = dsl.filter((c) => c.linkParams.loss === 0);
  const panels: PanelSpec[] = [];
  if (clean.length > 0) {
    const rtt = (c: CellSummary) => c.linkParams.rttMs;
    panels.push({
      title: `${page}, 2 Mbit/s / 375 kbit/s, 0 % loss (after SPDY whitepaper table 3)`,
      xLabel: 'RTT (ms)',
      yLabel: 'page load time (ms, median)',
      xTicks: SPDY_RTTS,
      series: [...series(clean, contendersIn(clean, RTT_CONTENDERS), rtt), boundSeries(results, clean, rtt, 'getlist-tls')],
    });
  }
  // The loss panel: the RTT with the most loss settings, if any is lossy.
  const byRtt = new Map<number, CellSummary[]>();
  for (const c of dsl) byRtt.set(c.linkParams.rttMs, [...(byRtt.get(c.linkParams.rttMs) ?? []), c]);
  const best = [...byRtt.values()].filter((cs) => cs.some((c) => c.linkParams.loss > 0)).sort((a, b) => b.length - a.length)[0];
  if (best !== undefined && best.length > 1) {
    const loss = (c: CellSummary) => Math.round(c.linkParams.loss * 1000) / 10;
    panels.push({
      title: `${page}, ${best[0]?.linkParams.rttMs} ms RTT: load time vs packet loss`,
      xLabel: 'packet loss (%)',
      yLabel: 'page load time (ms, median)',
      series: [...series(best, contendersIn(best, RTT_CONTENDERS), loss), boundSeries(results, best, loss, 'getlist-tls')],
    });
  }
  if (panels.length === 0) return undefined;
  return svgDocument('Page load time vs RTT', panels, 760, 340, `${runsLabel(results)}; dashed: getlist-tls's lower bound over https (no script-inserted requests; ignores loss)`);
}
