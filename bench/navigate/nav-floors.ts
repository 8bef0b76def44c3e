/**
 * What a speculation can reach at best on a cell's path, from the cell's own runs, so a goal below
 * it is read against it (bench/README.md, "The next page before the click").
 *
 * - **Document only** (a prefetch, the browser's own rules): the click finds the document and
 *   nothing else, so each step still spends what the browser alone spent after the document's
 *   first byte — the subresources it fetches and the render — unless something fetched those
 *   earlier (hints learned on an earlier visit start them at commit, a little before the parser
 *   would). Per step: alone's paint minus its response start; the floor is their median over
 *   alone's median.
 * - **Ready** (a prerender): a page whose document and LCP image were loaded before the click still
 *   paints after its activation. The floor is the median paint of the steps the run served that
 *   way, over alone's median.
 */
import { median as medianOf } from '../../src/stats/median';
import type { StepResult } from './walk';

export type PaintOf = (s: StepResult) => number | null | undefined;

const ratioTo = (xs: readonly number[], aloneMedian: number | null): number | null =>
  xs.length === 0 || aloneMedian === null || aloneMedian <= 0 ? null : Math.round((medianOf(xs) / aloneMedian) * 1000) / 1000;

/** Alone's steps: the median of paint − response start, over alone's median paint. */
export function documentOnlyFloor(alone: readonly StepResult[], paint: PaintOf, aloneMedian: number | null): number | null {
  const after = alone.flatMap((s) => {
    const p = paint(s);
    return p != null && s.ttfbMs != null ? [Math.max(0, p - s.ttfbMs)] : [];
  });
  return ratioTo(after, aloneMedian);
}

/** The steps prerendered with their LCP image loaded before the activation: their median paint over alone's. */
export function readyFloor(steps: readonly StepResult[], paint: PaintOf, aloneMedian: number | null): { steps: number; ratio: number | null } {
  const ready = steps.flatMap((s) => {
    const p = paint(s);
    return (s.activationStart ?? 0) > 0 && s.heroEndMs === 0 && p != null ? [p] : [];
  });
  return { steps: ready.length, ratio: ratioTo(ready, aloneMedian) };
}
