/** Small lookups over a results file shared by the tables, goals and figures. */
import type { ContenderName } from '../run/results-schema';
import type { ResultsSummary, CellSummary, ContenderSummary } from './results-summary';

export function contenderOf(cell: CellSummary | undefined, name: ContenderName): ContenderSummary | undefined {
  return cell?.contenders.find((c) => c.contender === name);
}

/** Median page-complete time, or undefined when the contender did not run or no load succeeded. */
export function medianTotal(cell: CellSummary | undefined, name: ContenderName): number | undefined {
  const v = contenderOf(cell, name)?.median.totalMs;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function medianTtfb(cell: CellSummary | undefined, name: ContenderName): number | undefined {
  const v = contenderOf(cell, name)?.median.meanTtfbMs;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function findCell(results: ResultsSummary, page: string, link: string): CellSummary | undefined {
  return results.cells.find((c) => c.page === page && c.link === link);
}

/** `a / b` when both exist and b > 0. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a !== undefined && b !== undefined && b > 0 ? a / b : undefined;
}

/** `pm95-<size>-<count>` → its size and count. */
export function pm95Params(page: string): { size: number; count: number } | undefined {
  const m = /^pm95-(\d+)-(\d+)$/.exec(page);
  return m ? { size: Number(m[1]), count: Number(m[2]) } : undefined;
}

/** Links named `spdy-dsl-<rtt>-<loss%>` (bench/run/link-presets.ts). */
export function isSpdyDsl(cell: CellSummary): boolean {
  return cell.link.startsWith('spdy-dsl-');
}
