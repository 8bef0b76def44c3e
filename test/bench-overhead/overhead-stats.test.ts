import { pairedDifference, pairedEstimate, pairedRatio, quantile, ratioInterval } from '../../bench/overhead/overhead-stats';
import { median } from '../../src/stats/median';

/** The test's own seeded generator (an LCG, not the bench's mulberry32): uniform in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Log-normal draws with the given median (a page's load times are skewed to the right like this). */
function lognormal(rand: () => number, med: number, sigma: number): number {
  const u = Math.max(rand(), 1e-12);
  const v = rand();
  return med * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}

describe('quantile (linear interpolation between order statistics, R type 7)', () => {
  it('hand-computed values, whatever the input order', () => {
    const xs = [40, 10, 30, 20];
    expect(quantile(xs, 0)).toBe(10);
    expect(quantile(xs, 1)).toBe(40);
    expect(quantile(xs, 0.5)).toBe(25);
    // Position (4 − 1) · 0.25 = 0.75: 10 + 0.75 · (20 − 10).
    expect(quantile(xs, 0.25)).toBe(17.5);
    expect(quantile(xs, 0.75)).toBe(32.5);
    expect(quantile([7, 1, 3, 9, 5], 0.25)).toBe(3);
    expect(quantile([7, 1, 3, 9, 5], 0.1)).toBeCloseTo(1.8, 12);
    expect(quantile([5], 0.3)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
    expect(xs).toEqual([40, 10, 30, 20]);
  });

  it('numeric order, not string order', () => {
    expect(quantile([9, 100, 25], 0)).toBe(9);
    expect(quantile([9, 100, 25], 0.5)).toBe(25);
  });

  it('its 0.5 is the median of src/stats, and it is monotone in q, over random lists', () => {
    const rand = lcg(7);
    for (let t = 0; t < 200; t++) {
      const n = 1 + Math.floor(rand() * 30);
      const xs = Array.from({ length: n }, () => Math.round(rand() * 1000) / 10);
      expect(quantile(xs, 0.5)).toBeCloseTo(median(xs), 9);
      let prev = -Infinity;
      for (let q = 0; q <= 1.0001; q += 0.05) {
        const v = quantile(xs, Math.min(q, 1));
        expect(v).toBeGreaterThanOrEqual(prev);
        prev = v;
      }
      // The share of the list at or below the q-quantile is at least q (less one element's share of interpolation).
      const q90 = quantile(xs, 0.9);
      expect(xs.filter((x) => x <= q90).length).toBeGreaterThanOrEqual(Math.floor(0.9 * (n - 1)) + 1);
    }
  });
});

describe('ratioInterval (95 % percentile bootstrap of median(b) / median(a))', () => {
  it('constant lists: the interval is the exact ratio', () => {
    expect(ratioInterval([100, 100, 100], [103, 103])).toEqual([1.03, 1.03]);
    expect(ratioInterval([], [1])).toEqual([Number.NaN, Number.NaN]);
  });

  it('seeded: the same loads give the same interval; another seed differs only a little', () => {
    const rand = lcg(3);
    const a = Array.from({ length: 15 }, () => lognormal(rand, 1000, 0.1));
    const b = Array.from({ length: 15 }, () => lognormal(rand, 1100, 0.1));
    const i1 = ratioInterval(a, b);
    expect(ratioInterval(a, b)).toEqual(i1);
    const i2 = ratioInterval(a, b, 2000, 99);
    expect(Math.abs(i2[0] - i1[0])).toBeLessThan(0.02);
    expect(Math.abs(i2[1] - i1[1])).toBeLessThan(0.02);
    expect(i1[0]).toBeLessThanOrEqual(median(b) / median(a));
    expect(i1[1]).toBeGreaterThanOrEqual(median(b) / median(a));
  });

  it('covers the true ratio of medians about 95 % of the time (not 50 %, not always)', () => {
    // 300 experiments of 15 loads each side, true ratio 1.10: an interval from the wrong quantiles
    // (an 80 % one: 0.82 here; the extremes: ~100 %) or of the wrong ratio (a/b) falls outside this band.
    const rand = lcg(11);
    const trueRatio = 1.1;
    let covered = 0;
    const widths: number[] = [];
    const experiments = 300;
    for (let e = 0; e < experiments; e++) {
      const a = Array.from({ length: 15 }, () => lognormal(rand, 1000, 0.08));
      const b = Array.from({ length: 15 }, () => lognormal(rand, 1000 * trueRatio, 0.08));
      const [lo, hi] = ratioInterval(a, b, 400, e + 1);
      if (lo <= trueRatio && trueRatio <= hi) covered++;
      widths.push(hi - lo);
    }
    const coverage = covered / experiments;
    expect(coverage).toBeGreaterThan(0.9);
    expect(coverage).toBeLessThan(0.995);
    // Sampling spread of a median of 15 log-normal(σ = 0.08) draws is ≈ 1.25 · 0.08 / √15 ≈ 2.6 %
    // per side; the ratio's 95 % interval is then ≈ 2 · 1.96 · √2 · 2.6 % ≈ 0.16 wide at 1.1.
    const w = median(widths);
    expect(w).toBeGreaterThan(0.08);
    expect(w).toBeLessThan(0.3);
  });

  it('narrows as the runs grow (≈ 1/√n)', () => {
    const rand = lcg(5);
    const width = (n: number) => {
      const ws: number[] = [];
      for (let e = 0; e < 40; e++) {
        const a = Array.from({ length: n }, () => lognormal(rand, 1000, 0.1));
        const b = Array.from({ length: n }, () => lognormal(rand, 1000, 0.1));
        const [lo, hi] = ratioInterval(a, b, 400, e + 1);
        ws.push(hi - lo);
      }
      return median(ws);
    };
    const w10 = width(10);
    const w90 = width(90);
    // √(90/10) = 3: expect roughly a third, allow 2–4.5×.
    expect(w10 / w90).toBeGreaterThan(2);
    expect(w10 / w90).toBeLessThan(4.5);
  });
});

describe('paired figures (loads made side by side, resampled as pairs)', () => {
  it('hand-computed: the median of the per-pair figures; constant pairs give a point interval', () => {
    expect(pairedRatio([10, 20, 40], [11, 20, 44])).toEqual({ value: 1.1, interval: [expect.closeTo(1, 9), expect.closeTo(1.1, 9)] });
    expect(pairedDifference([10, 20, 40, 8], [11, 23, 41, 10])).toMatchObject({ value: 1.5 });
    expect(pairedRatio([100, 50, 20], [103, 51.5, 20.6])).toEqual({ value: expect.closeTo(1.03, 9), interval: [expect.closeTo(1.03, 9), expect.closeTo(1.03, 9)] });
    // Unequal lengths: only whole pairs count; NaN pairs (a figure a browser does not give) are skipped.
    expect(pairedDifference([1, 2, 3], [2, 4])).toEqual({ value: 1.5, interval: expect.any(Array) });
    expect(pairedDifference([1, Number.NaN, 3], [2, 5, 5]).value).toBe(1.5);
    expect(pairedRatio([], [1]).value).toBeNaN();
    expect(pairedEstimate([1, 2], [3, 4], (a, b) => b - a, 100, 7)).toEqual(pairedEstimate([1, 2], [3, 4], (a, b) => b - a, 100, 7));
  });

  it('cancels drift both sides share: a 3 % cost under ±30 % run-to-run swings is resolved only when paired', () => {
    // Each run's machine state multiplies both loads of that run (log-normal, σ = 0.3); the
    // extension adds 3 % and each load has 1 % noise of its own.
    const rand = lcg(21);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 40; i++) {
      const drift = lognormal(rand, 30, 0.3);
      a.push(drift * lognormal(rand, 1, 0.01));
      b.push(drift * 1.03 * lognormal(rand, 1, 0.01));
    }
    const paired = pairedRatio(a, b);
    expect(paired.interval[0]).toBeLessThan(1.03);
    expect(paired.interval[1]).toBeGreaterThan(1.03);
    expect(paired.interval[1] - paired.interval[0]).toBeLessThan(0.02);
    const unpaired = ratioInterval(a, b);
    expect(unpaired[1] - unpaired[0]).toBeGreaterThan(10 * (paired.interval[1] - paired.interval[0]));
    // Break the pairing (b shifted by one run): the drift no longer cancels and the interval widens as much.
    const shifted = pairedRatio(a, [...b.slice(1), b[0] as number]);
    expect(shifted.interval[1] - shifted.interval[0]).toBeGreaterThan(10 * (paired.interval[1] - paired.interval[0]));
  });

  it('covers the true per-pair median about 95 % of the time', () => {
    const rand = lcg(13);
    let covered = 0;
    const experiments = 300;
    for (let e = 0; e < experiments; e++) {
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < 30; i++) {
        const drift = lognormal(rand, 30, 0.2);
        a.push(drift);
        // Per-pair ratios log-normal around 1.05 (their median), σ = 0.05.
        b.push(drift * lognormal(rand, 1.05, 0.05));
      }
      const { interval: [lo, hi] } = pairedEstimate(a, b, (x, y) => y / x, 400, e + 1);
      if (lo <= 1.05 && 1.05 <= hi) covered++;
    }
    expect(covered / experiments).toBeGreaterThan(0.9);
    expect(covered / experiments).toBeLessThan(0.995);
  });
});
