/**
 * The spread of the overhead benchmark's figures: quartiles of each contender's loads, and a
 * bootstrap interval of the ratio of two medians (each side resampled on its own), so a 3 % effect
 * can be told from run-to-run noise; and paired figures of loads made side by side (pairedEstimate).
 * The generator is seeded: the same loads give the same interval.
 */
import { median } from '../../src/stats/median';
import { mulberry32 } from '../../src/core/prng';

/** Linear-interpolated quantile, q in [0, 1]; NaN for an empty list. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (pos - lo);
}

/** 95 % percentile-bootstrap interval of median(b) / median(a). */
export function ratioInterval(a: readonly number[], b: readonly number[], resamples = 2000, seed = 1): [number, number] {
  if (a.length === 0 || b.length === 0) return [Number.NaN, Number.NaN];
  const rand = mulberry32(seed);
  const draw = (xs: readonly number[]) => median(Array.from(xs, () => xs[Math.floor(rand() * xs.length)] as number));
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++) ratios.push(draw(b) / draw(a));
  return [quantile(ratios, 0.025), quantile(ratios, 0.975)];
}


/** A paired figure: its median over pairs and the 95 % bootstrap interval over pairs. */
export interface PairedEstimate {
  value: number;
  interval: [number, number];
}

/**
 * Loads made side by side (a[i] and b[i] in the same interleaved run) share the machine's state
 * at that moment — load average, CPU frequency, another engineer's build — so a per-pair figure
 * `f(a[i], b[i])` cancels what drifts between runs, which a ratio of two independent medians
 * cannot. Median of the per-pair figures, and a 95 % percentile bootstrap resampling whole pairs
 * (seeded). Pairs beyond the shorter list are dropped; NaN pairs are skipped.
 */
export function pairedEstimate(a: readonly number[], b: readonly number[], f: (a: number, b: number) => number, resamples = 2000, seed = 1): PairedEstimate {
  const per: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const v = f(a[i] as number, b[i] as number);
    if (Number.isFinite(v)) per.push(v);
  }
  if (per.length === 0) return { value: Number.NaN, interval: [Number.NaN, Number.NaN] };
  const rand = mulberry32(seed);
  const meds: number[] = [];
  for (let r = 0; r < resamples; r++) meds.push(median(Array.from(per, () => per[Math.floor(rand() * per.length)] as number)));
  return { value: median(per), interval: [quantile(meds, 0.025), quantile(meds, 0.975)] };
}

/** Median of b[i] / a[i] over pairs, with its interval. */
export const pairedRatio = (a: readonly number[], b: readonly number[]): PairedEstimate => pairedEstimate(a, b, (x, y) => y / x);

/** Median of b[i] − a[i] over pairs, with its interval. */
export const pairedDifference = (a: readonly number[], b: readonly number[]): PairedEstimate => pairedEstimate(a, b, (x, y) => y - x);
