/**
 * What a speculation can reach at best on a cell's path, from the cell's own runs, so a goal below
 * it is read against it (bench/README.md, "The next page before the click").
 *
 * - **Document only** (a prefetch, the browser's own rules): the click finds the document and
 *   nothing else, so each step still spends what the browser alone spent after the document's
 *   first byte — the subresources it fetches and the render — unless something fetched those
 *   earlier (hints learned on an earlier visit start them at commit, a little before the parser
 *   would). Per step: alone's paint minus its response start; the floor is their median over
 *   alone's median, and per link the median of that time over alone's paint of the same step.
 * - **Ready** (a prerender): a page whose document and LCP image were loaded before the click still
 *   paints after its activation. The floor is the median paint of the steps the run served that
 *   way, over alone's median, and per link the median of those steps' paint over alone's.
 */
import { median as medianOf } from '../../src/stats/median';
import { round } from '../engine/stats';
import type { StepResult } from './walk';

export type PaintOf = (s: StepResult) => number | null | undefined;

const ratioTo = (xs: readonly number[], aloneMedian: number | null): number | null =>
  xs.length === 0 || aloneMedian === null || aloneMedian <= 0 ? null : round(medianOf(xs) / aloneMedian);

const medianRatio = (xs: readonly number[]): number | null => (xs.length === 0 ? null : round(medianOf(xs)));

/** Alone's steps: the median of paint − response start, over alone's median paint; and per link. */
export function documentOnlyFloor(alone: readonly StepResult[], paint: PaintOf, aloneMedian: number | null): { ratio: number | null; linkRatio: number | null } {
  const after = alone.flatMap((s) => {
    const p = paint(s);
    return p != null && p > 0 && s.ttfbMs != null ? [{ p, after: Math.max(0, p - s.ttfbMs) }] : [];
  });
  return { ratio: ratioTo(after.map((x) => x.after), aloneMedian), linkRatio: medianRatio(after.map((x) => x.after / x.p)) };
}

/**
 * The steps prerendered with their LCP image loaded before the activation (each with alone's step
 * of the same walk): their median paint over alone's median; and per link.
 */
export function readyFloor(pairs: ReadonlyArray<{ a: StepResult; e: StepResult }>, paint: PaintOf, aloneMedian: number | null): { steps: number; ratio: number | null; linkRatio: number | null } {
  const ready = pairs.flatMap(({ a, e }) => {
    const p = paint(e);
    const pa = paint(a);
    return (e.activationStart ?? 0) > 0 && e.heroEndMs === 0 && p != null && pa != null && pa > 0 ? [{ p, pa }] : [];
  });
  return { steps: ready.length, ratio: ratioTo(ready.map((x) => x.p), aloneMedian), linkRatio: medianRatio(ready.map((x) => x.p / x.pa)) };
}
