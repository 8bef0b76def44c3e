/**
 * Log-linear (HdrHistogram-like) histogram of durations in milliseconds, built so that merges are
 * EXACT: two histograms with the same bucket scheme merge by adding bucket counts, so handshake-time
 * CDFs combine across origins, days and machines without drift, in any order.
 *
 * The bucket scheme (`loglinear-v1`) lives in histogram-scheme.ts, the JSON form and its strict
 * loader in histogram-json.ts, the coded errors in histogram-error.ts; this module re-exports their
 * public API, so importers only ever need `./histogram`.
 *
 * Besides bucket counts the histogram tracks the exact `min` and `max`, and the sum as a whole
 * number of units (each value rounded to the nearest µs): an integer sum is associative, so a merge
 * of parts equals the histogram of the whole bit-for-bit, which a floating-point sum would not be.
 */

import { HistogramError, show } from './histogram-error';
import { type HistogramJSON, parseHistogramJSON } from './histogram-json';
import {
  HISTOGRAM_SCHEME,
  HISTOGRAM_UNIT_MS,
  type HistogramOptions,
  type HistogramScheme,
  MAX_RECORDABLE_MS,
  type ResolvedScheme,
  UNITS_PER_MS,
  checkValue,
  describeScheme,
  indexOfUnits,
  resolveScheme,
  sumUnitsOf,
  unitsOf,
  upperMsOf,
} from './histogram-scheme';

export { HistogramError, type HistogramErrorCode } from './histogram-error';
export type { HistogramJSON } from './histogram-json';
export {
  DEFAULT_MAX_MS,
  DEFAULT_SUB_BITS,
  HISTOGRAM_SCHEME,
  HISTOGRAM_UNIT_MS,
  MAX_RECORDABLE_MS,
  bucketBounds,
  bucketIndexOf,
  type BucketBounds,
  type HistogramOptions,
  type HistogramScheme,
} from './histogram-scheme';

/** One point of {@link Histogram.cdf}. */
export interface CdfPoint {
  /**
   * The bucket's (exclusive) upper edge, clamped to the exact max. Every sample counted so far is
   * below `ms` (or equal to it, at the last point) and every later sample is ≥ `ms`.
   */
  ms: number;
  /** `count / total`, in (0, 1]; exactly 1 at the last point. */
  cdf: number;
  /** Cumulative count: samples in this and earlier buckets, i.e. samples `< ms` (`<= ms` at the last point). */
  count: number;
}

export class Histogram {
  private readonly s: ResolvedScheme;
  // Sparse: bucket index -> count ≥ 1. Buckets with count 0 are never stored.
  private readonly counts = new Map<number, number>();
  private total = 0;
  private overflowCount = 0;
  // Sum in whole units: integer additions are exact (below 2^53) and therefore order-independent.
  private sumUnits = 0;
  // ±Infinity sentinels while empty, so `record` needs no emptiness branch.
  private minSeen = Infinity;
  private maxSeen = -Infinity;

  constructor(options: HistogramOptions = {}) {
    this.s = resolveScheme(options);
  }

  /** The bucket scheme (a fresh frozen copy). */
  get scheme(): HistogramScheme {
    const { scheme, unitMs, subBits, maxMs, bucketCount } = this.s;
    return Object.freeze({ scheme, unitMs, subBits, maxMs, bucketCount });
  }

  /** Number of recorded values (including overflowed ones). */
  get count(): number {
    return this.total;
  }

  /** Number of recorded values above `maxMs`. */
  get overflow(): number {
    return this.overflowCount;
  }

  get isEmpty(): boolean {
    return this.total === 0;
  }

  /** Exact smallest recorded value; NaN when empty. */
  get min(): number {
    return this.total === 0 ? NaN : this.minSeen;
  }

  /** Exact largest recorded value (not clamped by `maxMs`); NaN when empty. */
  get max(): number {
    return this.total === 0 ? NaN : this.maxSeen;
  }

  /** Sum of recorded values, each rounded to the nearest µs; 0 when empty. */
  get sum(): number {
    return this.sumUnits / UNITS_PER_MS;
  }

  /** `sum / count` (so within 0.5 µs of the true mean); NaN when empty. */
  get mean(): number {
    return this.total === 0 ? NaN : this.sumUnits / UNITS_PER_MS / this.total;
  }

  /**
   * Records `count` occurrences of `ms`. O(1), and allocation-free unless it opens a new bucket.
   * @param ms finite, in [0, {@link MAX_RECORDABLE_MS}]; fractions of a ms are fine.
   * @param count positive safe integer.
   */
  record(ms: number, count = 1): void {
    if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_RECORDABLE_MS)) checkValue(ms);
    if (count !== 1 && !(Number.isSafeInteger(count) && count > 0)) {
      throw new HistogramError('E_HISTOGRAM_COUNT', `count: expected a positive safe integer, got ${show(count)}`);
    }
    if (this.total + count > Number.MAX_SAFE_INTEGER) throw countLimit(this.total, count);
    if (ms === 0) ms = 0; // -0 -> +0, so min/max serialise and compare like 0.
    const s = this.s;
    let index: number;
    if (ms > s.maxMs) {
      index = s.topIndex;
      this.overflowCount += count;
    } else {
      index = indexOfUnits(unitsOf(ms), s.subBits, s.subCount);
    }
    this.counts.set(index, (this.counts.get(index) ?? 0) + count);
    this.total += count;
    this.sumUnits += sumUnitsOf(ms) * count;
    if (ms < this.minSeen) this.minSeen = ms;
    if (ms > this.maxSeen) this.maxSeen = ms;
  }

  /**
   * Adds every value of `other` into this histogram (exact: bucket counts, min, max, integer sum
   * and overflow all combine losslessly). `other` is not modified. Returns `this`.
   * @throws HistogramError `E_HISTOGRAM_SCHEME` if the bucket schemes differ.
   */
  merge(other: Histogram): this {
    const a = this.s;
    const b = other.s;
    if (a.subBits !== b.subBits || a.maxMs !== b.maxMs) {
      throw new HistogramError(
        'E_HISTOGRAM_SCHEME',
        `merge: expected scheme ${describeScheme(a)}, got ${describeScheme(b)}`,
      );
    }
    if (this.total + other.total > Number.MAX_SAFE_INTEGER) throw countLimit(this.total, other.total);
    // Safe when other === this: only existing keys are updated, which does not disturb iteration.
    for (const [index, c] of other.counts) this.counts.set(index, (this.counts.get(index) ?? 0) + c);
    this.total += other.total;
    this.overflowCount += other.overflowCount;
    this.sumUnits += other.sumUnits;
    if (other.minSeen < this.minSeen) this.minSeen = other.minSeen;
    if (other.maxSeen > this.maxSeen) this.maxSeen = other.maxSeen;
    return this;
  }

  /**
   * Nearest-rank percentile: finds the bucket holding the sample of rank `ceil(p/100 * count)` and
   * returns that bucket's upper edge clamped to [min, max]. The upper edge is chosen because it is
   * an upper bound on every sample in the bucket, so "p% of samples ≤ result" always holds (the safe
   * direction for latency budgets); it overestimates the true nearest-rank value by at most one
   * bucket width, i.e. by ≤ max(1 µs, value × 2^-subBits) for values ≤ `maxMs`. In the top bucket
   * with overflow the result is the exact max.
   *
   * `percentile(0)` is the exact min and `percentile(100)` the exact max.
   * @param p in [0, 100].
   * @returns NaN when the histogram is empty (no data is a normal state, e.g. a new origin).
   */
  percentile(p: number): number {
    if (typeof p !== 'number' || !(p >= 0 && p <= 100)) {
      throw new HistogramError('E_HISTOGRAM_PERCENTILE', `percentile: expected a number in [0, 100], got ${show(p)}`);
    }
    if (this.total === 0) return NaN;
    if (p === 0) return this.minSeen;
    // p * total is exact for integer p, and fl() is monotone, so rank never exceeds total.
    const rank = Math.max(1, Math.ceil((p * this.total) / 100));
    let seen = 0;
    for (const [index, c] of this.sortedBuckets()) {
      seen += c;
      if (seen >= rank) return this.representative(index);
    }
    return this.maxSeen; // Unreachable: bucket counts sum to total.
  }

  /**
   * Cumulative distribution, one point per non-empty bucket, `ms` strictly ascending. Because bucket
   * upper edges are exclusive, `count` at a point is exactly the number of samples `< ms`; the last
   * point is clamped to the exact max and counts everything (including overflow), so its `cdf` is 1.
   */
  cdf(): CdfPoint[] {
    const points: CdfPoint[] = [];
    let seen = 0;
    for (const [index, c] of this.sortedBuckets()) {
      seen += c;
      points.push({ ms: this.representative(index), cdf: seen / this.total, count: seen });
    }
    return points;
  }

  /** Independent copy (same scheme, same data). */
  clone(): Histogram {
    const copy = new Histogram(this.s);
    copy.merge(this);
    return copy;
  }

  /** Plain serialisable form; `fromJSON(toJSON())` reproduces this histogram exactly. */
  toJSON(): HistogramJSON {
    const empty = this.total === 0;
    return {
      scheme: HISTOGRAM_SCHEME,
      unitMs: HISTOGRAM_UNIT_MS,
      subBits: this.s.subBits,
      maxMs: this.s.maxMs,
      count: this.total,
      min: empty ? null : this.minSeen,
      max: empty ? null : this.maxSeen,
      sum: this.sumUnits / UNITS_PER_MS,
      overflow: this.overflowCount,
      buckets: this.sortedBuckets(),
    };
  }

  /**
   * Validates and loads a {@link HistogramJSON} (e.g. parsed from storage or another machine).
   * Rejects anything {@link toJSON} could not have produced: unknown or missing fields, another
   * scheme, bucket indices out of range / unsorted / duplicated, counts that are not positive
   * integers or do not add up to `count`, and min/max/sum/overflow inconsistent with the buckets.
   * @throws HistogramError with a `E_HISTOGRAM_JSON_*` or `E_HISTOGRAM_SCHEME` code and `field`.
   */
  static fromJSON(x: unknown): Histogram {
    const v = parseHistogramJSON(x);
    const h = new Histogram(v.scheme);
    for (const [index, c] of v.buckets) h.counts.set(index, c);
    h.total = v.count;
    h.overflowCount = v.overflow;
    h.sumUnits = v.sumUnits;
    if (v.count > 0) {
      h.minSeen = v.min;
      h.maxSeen = v.max;
    }
    return h;
  }

  private sortedBuckets(): Array<[number, number]> {
    return [...this.counts].sort((a, b) => a[0] - b[0]);
  }

  private representative(index: number): number {
    const upper = upperMsOf(index, this.s);
    return Math.min(Math.max(upper, this.minSeen), this.maxSeen);
  }
}

function countLimit(have: number, adding: number): HistogramError {
  return new HistogramError(
    'E_HISTOGRAM_COUNT_LIMIT',
    `count: expected the total to stay ≤ ${Number.MAX_SAFE_INTEGER}, got ${have} + ${adding}`,
  );
}
