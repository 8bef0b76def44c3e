import type { Prng } from '../../src/core/prng';

/**
 * Splits `total` bytes into `count` sizes, each at least `min`, with a long-tailed spread (a few
 * large files, many small ones, as on real pages). Invariant: the sizes sum to exactly `total`.
 */
export function splitBytes(rng: Prng, total: number, count: number, min: number): number[] {
  if (count === 0) return [];
  if (total < count * min) throw new RangeError(`cannot split ${total} bytes into ${count} sizes of at least ${min}`);
  // exp(1.2 × N(0,1)) via Box–Muller: a log-normal weight per file.
  const weights = Array.from({ length: count }, () => {
    const u = Math.max(rng.next(), 1e-9);
    const v = rng.next();
    return Math.exp(1.2 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const spare = total - count * min;
  const sizes = weights.map((w) => min + Math.floor((spare * w) / sum));
  // Rounding leaves a few bytes over; the largest file absorbs them.
  const rest = total - sizes.reduce((a, b) => a + b, 0);
  const largest = sizes.indexOf(Math.max(...sizes));
  sizes[largest] = (sizes[largest] ?? min) + rest;
  return sizes;
}
