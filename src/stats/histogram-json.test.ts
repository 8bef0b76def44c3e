import {
  bucketIndexOf,
  DEFAULT_MAX_MS,
  Histogram,
  type HistogramJSON,
  type HistogramOptions,
} from './histogram';
import { mulberry32 } from '../core/prng';
import { expectHistogramError, randInt, sampleMs } from '../../test/support/histogram-samples';

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
