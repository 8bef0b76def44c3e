/**
 * The spread of the overhead benchmark's figures: quartiles of each contender's loads, and a
 * bootstrap interval of the ratio of two medians (each side resampled on its own), so a 3 % effect
 * can be told from run-to-run noise. The generator is seeded: the same loads give the same interval.
 */
import { median } from '../../src/stats/median';
import { mulberry32 } from '../../src/stats/mulberry32';

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

