import {
  bucketBounds,
  bucketIndexOf,
  DEFAULT_MAX_MS,
  Histogram,
  type HistogramOptions,
  MAX_RECORDABLE_MS,
} from './histogram';
import { mulberry32 } from '../core/prng';
import { expectHistogramError, prevDouble, randInt } from '../../test/support/histogram-samples';

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
