import {
  bucketIndexOf,
  DEFAULT_MAX_MS,
  Histogram,
  type HistogramOptions,
  MAX_RECORDABLE_MS,
} from './histogram';
import { mulberry32 } from '../core/prng';
import { expectHistogramError, PERCENTILES, prevDouble, randInt, sampleMs } from '../../test/support/histogram-samples';

/** Nearest-rank percentile of a sorted array: the value of rank max(1, ceil(p/100 × n)). */
function referencePercentile(sorted: number[], p: number): number {
  if (p === 0) return sorted[0] as number;
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1] as number;
}

/** Number of elements < x in a sorted array. */
function countBelow(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

describe('Histogram.record and summary statistics', () => {
  it('starts empty', () => {
    const h = new Histogram();
    expect(h.isEmpty).toBe(true);
    expect(h.count).toBe(0);
    expect(h.min).toBeNaN();
    expect(h.max).toBeNaN();
    expect(h.mean).toBeNaN();
    expect(h.sum).toBe(0);
    expect(h.overflow).toBe(0);
    expect(h.percentile(50)).toBeNaN();
    expect(h.percentile(0)).toBeNaN();
    expect(h.cdf()).toEqual([]);
  });

  it('tracks exact min, max, sum and mean', () => {
    const h = new Histogram();
    h.record(2);
    h.record(1);
    h.record(3.5);
    expect(h.isEmpty).toBe(false);
    expect(h.count).toBe(3);
    expect(h.min).toBe(1);
    expect(h.max).toBe(3.5);
    expect(h.sum).toBe(6.5);
    expect(h.mean).toBe(6.5 / 3);
  });

  it('records 0 ms (and normalises -0)', () => {
    const h = new Histogram();
    h.record(-0);
    expect(Object.is(h.min, 0)).toBe(true);
    expect(Object.is(h.max, 0)).toBe(true);
    expect(h.percentile(50)).toBe(0); // Bucket edge 0.001 clamped to max.
    expect(h.toJSON().buckets).toEqual([[0, 1]]);
  });

  it('puts values exactly on a bucket edge into the bucket starting there', () => {
    const h = new Histogram();
    h.record(1); // Lower edge of bucket 506 = [1, 1.004).
    h.record(1.004); // Lower edge of bucket 507.
    h.record(prevDouble(1.004)); // Last double of bucket 506.
    expect(h.toJSON().buckets).toEqual([[506, 2], [507, 1]]);
    expect(h.cdf()).toEqual([
      { ms: 1.004, cdf: 2 / 3, count: 2 },
      { ms: 1.004, cdf: 1, count: 3 },
    ]);
  });

  it('treats count > 1 as that many single records', () => {
    const a = new Histogram();
    a.record(10, 5);
    a.record(0.3, 2);
    const b = new Histogram();
    for (let i = 0; i < 5; i++) b.record(10);
    b.record(0.3);
    b.record(0.3);
    expect(a.toJSON()).toEqual(b.toJSON());
    expect(a.count).toBe(7);
    expect(a.sum).toBe(50.6);
  });

  it('clamps values above maxMs into the top bucket and counts them as overflow', () => {
    const h = new Histogram();
    h.record(DEFAULT_MAX_MS); // Exactly the cap: not overflow.
    expect(h.overflow).toBe(0);
    h.record(5 * 3_600_000, 2); // Five hours.
    expect(h.overflow).toBe(2);
    expect(h.count).toBe(3);
    expect(h.max).toBe(18_000_000);
    expect(h.toJSON().buckets).toEqual([[3286, 3]]);
    expect(h.percentile(100)).toBe(18_000_000);
    expect(h.percentile(50)).toBe(18_000_000); // Top bucket has no upper edge: the exact max.
    expect(h.percentile(0)).toBe(DEFAULT_MAX_MS);
    expect(h.sum).toBe(DEFAULT_MAX_MS + 36_000_000);
    h.record(MAX_RECORDABLE_MS);
    expect(h.overflow).toBe(3);
    expect(h.max).toBe(MAX_RECORDABLE_MS);
  });

  it('honours a custom maxMs', () => {
    const h = new Histogram({ maxMs: 1000 });
    h.record(999);
    h.record(1000);
    h.record(1000.0005);
    expect(h.overflow).toBe(1);
    expect(h.scheme.bucketCount).toBe(bucketIndexOf(1000, { maxMs: 1000 }) + 1);
  });

  it('rejects invalid values and counts without changing state', () => {
    const h = new Histogram();
    h.record(5);
    const before = h.toJSON();
    for (const bad of [NaN, -1, -1e-300, Infinity, -Infinity, MAX_RECORDABLE_MS * 2, '5' as unknown as number]) {
      expectHistogramError(() => h.record(bad), 'E_HISTOGRAM_VALUE');
    }
    for (const bad of [0, -1, 1.5, NaN, Infinity, 2 ** 53]) {
      expectHistogramError(() => h.record(5, bad), 'E_HISTOGRAM_COUNT');
    }
    expect(h.toJSON()).toEqual(before);
  });

  it('refuses to let the total count exceed MAX_SAFE_INTEGER', () => {
    const h = new Histogram();
    h.record(1, Number.MAX_SAFE_INTEGER);
    const before = h.toJSON();
    expectHistogramError(() => h.record(1), 'E_HISTOGRAM_COUNT_LIMIT');
    expectHistogramError(() => h.merge(h.clone()), 'E_HISTOGRAM_COUNT_LIMIT');
    expect(h.toJSON()).toEqual(before);
  });
});

describe('Histogram.percentile and cdf', () => {
  it('returns the holding bucket’s upper edge, clamped to [min, max]', () => {
    const h = new Histogram();
    for (let ms = 1; ms <= 100; ms++) h.record(ms);
    // Rank 50 is 50 ms, in bucket [49.92, 50.176).
    expect(h.percentile(50)).toBe(50.176);
    expect(h.percentile(0)).toBe(1);
    expect(h.percentile(1)).toBe(1.004);
    expect(h.percentile(100)).toBe(100);
    expect(h.percentile(99.5)).toBe(100); // Clamped to the max.
  });

  it('rejects p outside [0, 100]', () => {
    const h = new Histogram();
    h.record(1);
    for (const bad of [-1, 100.01, NaN, Infinity]) {
      expectHistogramError(() => h.percentile(bad), 'E_HISTOGRAM_PERCENTILE');
    }
  });

  for (const subBits of [7, 3, 10]) {
    for (const seed of [1, 2, 3]) {
      it(`matches a sorted-array reference within 2^-${subBits} (seed ${seed})`, () => {
        const rand = mulberry32(seed * 1000 + subBits);
        const options: HistogramOptions = { subBits };
        const h = new Histogram(options);
        const values: number[] = [];
        const n = randInt(rand, 1, 5000);
        for (let i = 0; i < n; i++) {
          const v = sampleMs(rand);
          values.push(v);
          h.record(v);
        }
        values.sort((a, b) => a - b);
        const ps = [...PERCENTILES, ...Array.from({ length: 50 }, () => rand() * 100)];
        const unit = 0.001;
        for (const p of ps) {
          const want = referencePercentile(values, p);
          const got = h.percentile(p);
          // Never below the true value (upper edge), and at most one bucket width above it.
          expect(got).toBeGreaterThanOrEqual(want);
          expect(got - want).toBeLessThanOrEqual(Math.max(unit, want * 2 ** -subBits) * (1 + 1e-9));
          expect(got).toBeLessThanOrEqual(values[values.length - 1] as number);
        }
        expect(h.percentile(0)).toBe(values[0]);
        expect(h.percentile(100)).toBe(values[values.length - 1]);

        // cdf: one point per distinct bucket; each point's count is exactly #samples < ms, except
        // the last, which is the max and counts everything.
        const points = h.cdf();
        const distinct = new Set(values.map((v) => bucketIndexOf(v, options)));
        expect(points).toHaveLength(distinct.size);
        let prevMs = -Infinity;
        for (const [i, pt] of points.entries()) {
          expect(pt.ms).toBeGreaterThan(prevMs);
          prevMs = pt.ms;
          expect(pt.count).toBe(i === points.length - 1 ? n : countBelow(values, pt.ms));
          expect(pt.cdf).toBe(pt.count === n ? 1 : pt.count / n);
          expect(pt.cdf).toBeGreaterThan(0);
        }
        expect(points[points.length - 1]).toEqual({ ms: values[values.length - 1], cdf: 1, count: n });
      });
    }
  }
});
