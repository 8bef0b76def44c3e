import {
  bucketBounds,
  bucketIndexOf,
  DEFAULT_MAX_MS,
  Histogram,
  HistogramError,
  type HistogramJSON,
  type HistogramOptions,
  MAX_RECORDABLE_MS,
} from './histogram';
import { mulberry32 } from '../core/prng';


/** Latency-like values: zeros, whole ms, sub-ms µs values and a log-uniform spread 1 µs .. 100 s. */
function sampleMs(rand: () => number): number {
  const r = rand();
  if (r < 0.05) return 0;
  if (r < 0.15) return Math.floor(rand() * 500);
  if (r < 0.25) return Math.floor(rand() * 300) / 1000;
  return 10 ** (-3 + rand() * 8);
}

function randInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** The largest double below x (x > 0). */
function prevDouble(x: number): number {
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] = (b[0] as bigint) - 1n;
  return f[0] as number;
}

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

function expectHistogramError(fn: () => unknown, code: string, field?: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(HistogramError);
  const err = caught as HistogramError;
  expect(err.code).toBe(code);
  if (field !== undefined) expect(err.field).toBe(field);
  // Messages say what was expected and what arrived.
  expect(err.message).toMatch(/expected/);
}

const PERCENTILES = [0, 0.1, 1, 5, 10, 25, 33.3, 50, 66.7, 75, 90, 95, 99, 99.9, 99.99, 100];

describe('bucket scheme loglinear-v1', () => {
  it('has pinned indices (changing them requires a new scheme version)', () => {
    expect(bucketIndexOf(0)).toBe(0);
    expect(bucketIndexOf(0.001)).toBe(1);
    expect(bucketIndexOf(0.127)).toBe(127);
    expect(bucketIndexOf(0.128)).toBe(128);
    expect(bucketIndexOf(0.255)).toBe(255);
    expect(bucketIndexOf(0.256)).toBe(256);
    expect(bucketIndexOf(0.257)).toBe(256);
    expect(bucketIndexOf(0.258)).toBe(257);
    expect(bucketIndexOf(1)).toBe(506);
    expect(bucketBounds(506)).toEqual({ lowerMs: 1, upperMs: 1.004 });
    expect(bucketIndexOf(DEFAULT_MAX_MS)).toBe(3286);
    expect(new Histogram().scheme).toEqual({
      scheme: 'loglinear-v1',
      unitMs: 0.001,
      subBits: 7,
      maxMs: 3_600_000,
      bucketCount: 3287,
    });
  });

  // subBits 10 matters: its linear region holds edges such as 1.001 ms, where 1.001 * 1000 rounds
  // to just below 1001 in doubles.
  for (const subBits of [7, 1, 10]) {
    it(`has contiguous buckets whose lower edges map into themselves and bounded widths (subBits ${subBits})`, () => {
      const options: HistogramOptions = { subBits };
      const subCount = 2 ** subBits;
      const top = new Histogram(options).scheme.bucketCount - 1;
      // Collected rather than expect()ed per bucket: ~24k buckets, and one readable failure list.
      const problems: string[] = [];
      for (let i = 0; i < top; i++) {
        const { lowerMs, upperMs } = bucketBounds(i, options);
        if (bucketBounds(i + 1, options).lowerMs !== upperMs) problems.push(`${i}: gap before next bucket`);
        if (bucketIndexOf(lowerMs, options) !== i) problems.push(`${i}: lower edge ${lowerMs} maps elsewhere`);
        if (bucketIndexOf(prevDouble(upperMs), options) !== i) problems.push(`${i}: last double maps elsewhere`);
        if (i > 0 && bucketIndexOf(prevDouble(lowerMs), options) !== i - 1) problems.push(`${i}: double below lower edge`);
        const width = upperMs - lowerMs;
        const ok =
          i < 2 * subCount
            ? Math.abs(width - 0.001) < 1e-12
            : width / lowerMs <= 2 ** -subBits + 1e-12 && width / lowerMs > 2 ** -(subBits + 1);
        if (!ok) problems.push(`${i}: width ${width} at ${lowerMs}`);
      }
      expect(problems).toEqual([]);
      expect(bucketBounds(top, options).upperMs).toBe(Infinity);
      expect(bucketIndexOf(DEFAULT_MAX_MS + 1, options)).toBe(top);
      expect(bucketIndexOf(MAX_RECORDABLE_MS, options)).toBe(top);
    });
  }

  it('quantises by the double-precision edge u / 1000, not by a rounded product', () => {
    expect(1.001 * 1000).toBeLessThan(1001); // The trap.
    expect(bucketIndexOf(1.001, { subBits: 10 })).toBe(1001);
    expect(bucketIndexOf(prevDouble(1.001), { subBits: 10 })).toBe(1000);
  });

  it('maps every whole-µs value and its predecessor double into the right unit', () => {
    const rand = mulberry32(7);
    const problems: number[] = [];
    for (let n = 0; n < 20_000; n++) {
      const u = randInt(rand, 1, 3_600_000_000);
      const ms = u / 1000;
      const i = bucketIndexOf(ms);
      const { lowerMs, upperMs } = bucketBounds(i);
      const below = bucketIndexOf(prevDouble(ms));
      // The double just below a value is in the same bucket unless the value is the bucket's edge.
      const ok = lowerMs <= ms && ms < upperMs && (below === i ? lowerMs !== ms : below === i - 1 && lowerMs === ms);
      if (!ok) problems.push(u);
    }
    expect(problems).toEqual([]);
  });

  it('validates its arguments', () => {
    expectHistogramError(() => bucketBounds(-1), 'E_HISTOGRAM_BUCKET_INDEX');
    expectHistogramError(() => bucketBounds(3287), 'E_HISTOGRAM_BUCKET_INDEX');
    expectHistogramError(() => bucketBounds(1.5), 'E_HISTOGRAM_BUCKET_INDEX');
    expectHistogramError(() => bucketIndexOf(-1), 'E_HISTOGRAM_VALUE');
    expectHistogramError(() => bucketIndexOf(NaN), 'E_HISTOGRAM_VALUE');
    expectHistogramError(() => new Histogram({ subBits: 0 }), 'E_HISTOGRAM_SCHEME', 'subBits');
    expectHistogramError(() => new Histogram({ subBits: 17 }), 'E_HISTOGRAM_SCHEME', 'subBits');
    expectHistogramError(() => new Histogram({ subBits: 6.5 }), 'E_HISTOGRAM_SCHEME', 'subBits');
    expectHistogramError(() => new Histogram({ maxMs: 0 }), 'E_HISTOGRAM_SCHEME', 'maxMs');
    expectHistogramError(() => new Histogram({ maxMs: Infinity }), 'E_HISTOGRAM_SCHEME', 'maxMs');
    expectHistogramError(() => new Histogram({ maxMs: NaN }), 'E_HISTOGRAM_SCHEME', 'maxMs');
  });
});

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

describe('Histogram.merge', () => {
  /** Random data including overflowed values and repeated counts. */
  function randomData(rand: () => number): Array<[ms: number, count: number]> {
    const n = randInt(rand, 0, 150);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      const ms = rand() < 0.03 ? DEFAULT_MAX_MS + rand() * 1e8 : sampleMs(rand);
      out.push([ms, rand() < 0.8 ? 1 : randInt(rand, 2, 9)]);
    }
    return out;
  }

  function shuffled<T>(rand: () => number, xs: readonly T[]): T[] {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j] as T, a[i] as T];
    }
    return a;
  }

  it('of any split equals the histogram of the union (property, 400 random splits)', () => {
    const rand = mulberry32(42);
    for (let trial = 0; trial < 400; trial++) {
      const data = randomData(rand);
      const whole = new Histogram();
      for (const [ms, c] of shuffled(rand, data)) whole.record(ms, c);

      const k = randInt(rand, 2, 5);
      const parts = Array.from({ length: k }, () => new Histogram());
      for (const [ms, c] of data) (parts[randInt(rand, 0, k - 1)] as Histogram).record(ms, c);
      const partJSON = parts.map((p) => p.toJSON());

      const order = shuffled(rand, parts);
      const merged = (order[0] as Histogram).clone();
      for (const p of order.slice(1)) merged.merge(p);

      expect(merged.toJSON()).toEqual(whole.toJSON());
      expect(parts.map((p) => p.toJSON())).toEqual(partJSON); // Inputs untouched.
      for (const p of PERCENTILES) expect(merged.percentile(p)).toBe(whole.percentile(p));
    }
  });

  it('keeps the sum exact where floating-point addition would depend on order', () => {
    expect((0.1 + 0.2) + 0.3).not.toBe(0.1 + (0.2 + 0.3)); // The hazard being guarded against.
    const a = new Histogram();
    a.record(0.1);
    a.record(0.2);
    const b = new Histogram();
    b.record(0.3);
    const c = new Histogram();
    c.record(0.2);
    c.record(0.3);
    const d = new Histogram();
    d.record(0.1);
    expect(a.merge(b).toJSON()).toEqual(c.merge(d).toJSON());
    expect(a.sum).toBe(0.6);
  });

  it('merges empty histograms and itself', () => {
    const h = new Histogram();
    h.merge(new Histogram());
    expect(h.toJSON()).toEqual(new Histogram().toJSON());
    h.record(1);
    h.record(7000000);
    new Histogram().merge(h);
    const doubled = new Histogram();
    doubled.record(1, 2);
    doubled.record(7000000, 2);
    expect(h.merge(h).toJSON()).toEqual(doubled.toJSON());
    expect(h.overflow).toBe(2);
  });

  it('refuses to merge different schemes', () => {
    expectHistogramError(() => new Histogram().merge(new Histogram({ subBits: 6 })), 'E_HISTOGRAM_SCHEME');
    expectHistogramError(() => new Histogram().merge(new Histogram({ maxMs: 1000 })), 'E_HISTOGRAM_SCHEME');
    expect(() => new Histogram({ subBits: 6 }).merge(new Histogram({ subBits: 6 }))).not.toThrow();
  });

  it('clone is independent', () => {
    const h = new Histogram({ subBits: 5 });
    h.record(3);
    const c = h.clone();
    expect(c.toJSON()).toEqual(h.toJSON());
    c.record(4);
    expect(h.count).toBe(1);
    expect(c.count).toBe(2);
    expect(c.scheme.subBits).toBe(5);
  });
});

describe('JSON', () => {
  function roundTrip(h: Histogram): Histogram {
    return Histogram.fromJSON(JSON.parse(JSON.stringify(h)));
  }

  it('has the documented shape', () => {
    const h = new Histogram();
    h.record(1);
    h.record(0.5, 3);
    expect(h.toJSON()).toEqual({
      scheme: 'loglinear-v1',
      unitMs: 0.001,
      subBits: 7,
      maxMs: 3_600_000,
      count: 4,
      min: 0.5,
      max: 1,
      sum: 2.5,
      overflow: 0,
      buckets: [[bucketIndexOf(0.5), 3], [506, 1]],
    });
    expect(new Histogram().toJSON()).toMatchObject({ count: 0, min: null, max: null, sum: 0, buckets: [] });
  });

  it('round-trips exactly through JSON text', () => {
    const rand = mulberry32(99);
    for (let trial = 0; trial < 100; trial++) {
      const options: HistogramOptions = trial % 3 === 0 ? { subBits: randInt(rand, 1, 16), maxMs: 1 + rand() * 1e6 } : {};
      const h = new Histogram(options);
      const n = randInt(rand, 0, 300);
      for (let i = 0; i < n; i++) h.record(rand() < 0.05 ? 1e7 * rand() : sampleMs(rand), randInt(rand, 1, 3));
      const back = roundTrip(h);
      expect(back.toJSON()).toEqual(h.toJSON());
      expect(back.cdf()).toEqual(h.cdf());
      expect(back.scheme).toEqual(h.scheme);
      for (const key of ['count', 'sum', 'overflow', 'isEmpty'] as const) expect(back[key]).toBe(h[key]);
      if (n > 0) for (const key of ['min', 'max', 'mean'] as const) expect(back[key]).toBe(h[key]);
      // The loaded histogram keeps working and merging.
      back.record(1);
      h.record(1);
      expect(back.merge(h).count).toBe(2 * h.count);
    }
  });

  it('round-trips an empty histogram', () => {
    const back = roundTrip(new Histogram({ subBits: 4 }));
    expect(back.isEmpty).toBe(true);
    expect(back.min).toBeNaN();
    expect(back.toJSON()).toEqual(new Histogram({ subBits: 4 }).toJSON());
  });

  describe('fromJSON rejects', () => {
    // 1, 2, 3 ms and an overflowed 4,000,000 ms: buckets [506,1] [634,1] [699,1] [3286,1].
    function base(): HistogramJSON {
      const h = new Histogram();
      for (const v of [1, 2, 3, 4_000_000]) h.record(v);
      return h.toJSON();
    }
    function empty(): HistogramJSON {
      return new Histogram().toJSON();
    }
    const with_ = (patch: Record<string, unknown>, from = base()): unknown => ({ ...from, ...patch });
    const without = (key: string): unknown => {
      const o: Record<string, unknown> = { ...base() };
      delete o[key];
      return o;
    };

    it('accepts the unmodified fixtures (so each rejection below is caused by its mutation)', () => {
      expect(base().buckets).toEqual([[506, 1], [634, 1], [699, 1], [3286, 1]]);
      expect(() => Histogram.fromJSON(base())).not.toThrow();
      expect(() => Histogram.fromJSON(empty())).not.toThrow();
    });

    const cases: Array<[name: string, input: () => unknown, code: string, field: string]> = [
      ['null', () => null, 'E_HISTOGRAM_JSON_SHAPE', '(root)'],
      ['an array', () => [], 'E_HISTOGRAM_JSON_SHAPE', '(root)'],
      ['a string', () => '{}', 'E_HISTOGRAM_JSON_SHAPE', '(root)'],
      ['an unknown field', () => with_({ extra: 1 }), 'E_HISTOGRAM_JSON_SHAPE', 'extra'],
      ['a missing field', () => without('sum'), 'E_HISTOGRAM_JSON_SHAPE', 'sum'],
      ['a missing buckets field', () => without('buckets'), 'E_HISTOGRAM_JSON_SHAPE', 'buckets'],
      ['another scheme', () => with_({ scheme: 'loglinear-v2' }), 'E_HISTOGRAM_SCHEME', 'scheme'],
      ['another unit', () => with_({ unitMs: 0.01 }), 'E_HISTOGRAM_SCHEME', 'unitMs'],
      ['a non-integer subBits', () => with_({ subBits: 7.5 }), 'E_HISTOGRAM_SCHEME', 'subBits'],
      ['a string subBits', () => with_({ subBits: '7' }), 'E_HISTOGRAM_SCHEME', 'subBits'],
      ['subBits out of range', () => with_({ subBits: 17 }), 'E_HISTOGRAM_SCHEME', 'subBits'],
      ['a negative maxMs', () => with_({ maxMs: -1 }), 'E_HISTOGRAM_SCHEME', 'maxMs'],
      ['a null maxMs', () => with_({ maxMs: null }), 'E_HISTOGRAM_SCHEME', 'maxMs'],
      ['a negative count', () => with_({ count: -1 }), 'E_HISTOGRAM_JSON_COUNT', 'count'],
      ['a fractional count', () => with_({ count: 3.5 }), 'E_HISTOGRAM_JSON_COUNT', 'count'],
      ['a string count', () => with_({ count: '4' }), 'E_HISTOGRAM_JSON_COUNT', 'count'],
      ['a count not matching the buckets', () => with_({ count: 5 }), 'E_HISTOGRAM_JSON_COUNT', 'count'],
      ['buckets that are not an array', () => with_({ buckets: {} }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets'],
      ['a bucket that is not a pair', () => with_({ buckets: [[506, 1, 0]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0]'],
      ['a bucket that is a number', () => with_({ buckets: [506] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0]'],
      ['a negative bucket index', () => with_({ buckets: [[-1, 4]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0][0]'],
      ['a fractional bucket index', () => with_({ buckets: [[506.5, 4]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0][0]'],
      ['a bucket index past the top', () => with_({ buckets: [[3287, 4]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0][0]'],
      ['unsorted buckets', () => with_({ buckets: [[634, 1], [506, 1], [699, 1], [3286, 1]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[1][0]'],
      ['duplicate buckets', () => with_({ buckets: [[506, 1], [506, 1], [699, 1], [3286, 1]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[1][0]'],
      ['a negative bucket count', () => with_({ buckets: [[506, -1], [634, 5]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0][1]'],
      ['a zero bucket count', () => with_({ buckets: [[506, 1], [634, 0], [698, 2], [3286, 1]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[1][1]'],
      ['a fractional bucket count', () => with_({ buckets: [[506, 1.5], [634, 2.5]] }), 'E_HISTOGRAM_JSON_BUCKET', 'buckets[0][1]'],
      ['a null min', () => with_({ min: null }), 'E_HISTOGRAM_JSON_RANGE', 'min'],
      ['a negative min', () => with_({ min: -1 }), 'E_HISTOGRAM_JSON_RANGE', 'min'],
      ['a string max', () => with_({ max: '4000000' }), 'E_HISTOGRAM_JSON_RANGE', 'max'],
      ['min > max', () => with_({ min: 5_000_000 }), 'E_HISTOGRAM_JSON_RANGE', 'min'],
      ['a min outside the first bucket', () => with_({ min: 1.5 }), 'E_HISTOGRAM_JSON_RANGE', 'min'],
      ['a max outside the last bucket', () => with_({ max: 3 }), 'E_HISTOGRAM_JSON_RANGE', 'max'],
      ['count 1 with min ≠ max', () => ({ ...oneValue(), max: 1.0001 }), 'E_HISTOGRAM_JSON_RANGE', 'max'],
      ['a negative sum', () => with_({ sum: -1 }), 'E_HISTOGRAM_JSON_SUM', 'sum'],
      ['a null (NaN) sum', () => with_({ sum: null }), 'E_HISTOGRAM_JSON_SUM', 'sum'],
      ['a sum below count × min', () => with_({ sum: 3 }), 'E_HISTOGRAM_JSON_SUM', 'sum'],
      ['a sum above count × max', () => with_({ sum: 16_000_001 }), 'E_HISTOGRAM_JSON_SUM', 'sum'],
      ['a negative overflow', () => with_({ overflow: -1 }), 'E_HISTOGRAM_JSON_OVERFLOW', 'overflow'],
      ['overflow above the top bucket count', () => with_({ overflow: 2 }), 'E_HISTOGRAM_JSON_OVERFLOW', 'overflow'],
      ['no overflow although max > maxMs', () => with_({ overflow: 0 }), 'E_HISTOGRAM_JSON_OVERFLOW', 'overflow'],
      ['overflow although max ≤ maxMs', () => ({ ...topNoOverflow(), overflow: 1 }), 'E_HISTOGRAM_JSON_OVERFLOW', 'overflow'],
      ['an empty histogram with a min', () => with_({ min: 1 }, empty()), 'E_HISTOGRAM_JSON_RANGE', 'min'],
      ['an empty histogram with a max', () => with_({ max: 1 }, empty()), 'E_HISTOGRAM_JSON_RANGE', 'max'],
      ['an empty histogram with a sum', () => with_({ sum: 1 }, empty()), 'E_HISTOGRAM_JSON_SUM', 'sum'],
      ['an empty histogram with overflow', () => with_({ overflow: 1 }, empty()), 'E_HISTOGRAM_JSON_OVERFLOW', 'overflow'],
    ];
    function oneValue(): HistogramJSON {
      const h = new Histogram();
      h.record(1);
      return h.toJSON();
    }
    function topNoOverflow(): HistogramJSON {
      const h = new Histogram();
      h.record(DEFAULT_MAX_MS);
      return h.toJSON();
    }

    it.each(cases)('%s', (_name, input, code, field) => {
      expectHistogramError(() => Histogram.fromJSON(input()), code, field);
    });
  });
});
