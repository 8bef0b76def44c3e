/**
 * Bucket scheme `loglinear-v1` of {@link Histogram} (see histogram.ts): the constants, options and
 * arithmetic that map a duration to a bucket index and back. Versioned: changing any rule below
 * requires a new scheme name, because persisted histograms are only mergeable with identical bucket
 * boundaries:
 * - A value `ms` is quantised to a whole number of units `u` (1 unit = 1 µs = 0.001 ms) by the rule
 *   `u / 1000 <= ms < (u + 1) / 1000`, evaluated in IEEE doubles, so every bucket edge printed by
 *   {@link bucketBounds} maps back into its own bucket.
 * - Units below `2^subBits` get one bucket each (linear part, absolute error ≤ 1 µs).
 * - Each range `[2^k, 2^(k+1))` with `k >= subBits` is split into `2^subBits` equal sub-buckets, so
 *   a bucket is at most `2^-subBits` (1/128 ≈ 0.8 % by default) of its lower edge wide.
 * - Values above `maxMs` are counted in `overflow` and clamped into the top bucket (the one holding
 *   `maxMs`), which therefore has no upper edge.
 */

import { HistogramError, show } from './histogram-error';

/** Name of the bucket scheme; part of the JSON form and of merge compatibility. */
export const HISTOGRAM_SCHEME = 'loglinear-v1';

/** Size of one unit in milliseconds (1 µs). Fixed by `loglinear-v1`. */
export const HISTOGRAM_UNIT_MS = 0.001;

/** Default `subBits`: 128 sub-buckets per power of two, relative bucket width ≤ 1/128. */
export const DEFAULT_SUB_BITS = 7;

/** Default `maxMs`: one hour. */
export const DEFAULT_MAX_MS = 3_600_000;

/**
 * Largest value {@link Histogram.record} accepts (≈ 285 years), so that a value in units is a safe
 * integer. Anything larger is certainly a bug in the caller (e.g. an epoch timestamp instead of a
 * duration), not a latency.
 */
export const MAX_RECORDABLE_MS = Number.MAX_SAFE_INTEGER / 1000;

/** Units per millisecond (1 unit = 1 µs); the inverse of {@link HISTOGRAM_UNIT_MS}. */
export const UNITS_PER_MS = 1000;

/** `ms` as whole units (rounded to the nearest), as a histogram's sum adds it: integer, so sums stay exact. */
export function sumUnitsOf(ms: number): number {
  return Math.round(ms * UNITS_PER_MS);
}

const MIN_SUB_BITS = 1;
const MAX_SUB_BITS = 16;
const TWO_POW_32 = 2 ** 32;

// INV_POW2[e] = 2^-e. Scaling by a power of two is exact in doubles, so `floor(u * INV_POW2[e])`
// is an exact integer shift even above 2^32, where the `>>>` operator would wrap.
const INV_POW2 = new Float64Array(64);
for (let e = 0; e < INV_POW2.length; e++) INV_POW2[e] = 2 ** -e;

export interface HistogramOptions {
  /**
   * log2 of the number of linear sub-buckets per power-of-two range: the relative width of a
   * bucket, hence the relative error of a percentile, is at most `2^-subBits`. Integer in [1, 16].
   * @default 7
   */
  subBits?: number;
  /**
   * Largest value kept at full resolution. Larger values (up to {@link MAX_RECORDABLE_MS}) are
   * counted in `overflow` and clamped into the top bucket. In (0, MAX_RECORDABLE_MS].
   * @default 3_600_000 (one hour)
   */
  maxMs?: number;
}

/** A fully resolved bucket scheme. Two histograms merge iff their schemes are equal field by field. */
export interface HistogramScheme {
  readonly scheme: typeof HISTOGRAM_SCHEME;
  readonly unitMs: number;
  readonly subBits: number;
  readonly maxMs: number;
  /** Valid bucket indices are `0 .. bucketCount - 1`; the last one is the top (overflow) bucket. */
  readonly bucketCount: number;
}

/** Value range of one bucket: it holds the values `lowerMs <= ms < upperMs`. */
export interface BucketBounds {
  lowerMs: number;
  /** `Infinity` for the top bucket, which also holds every overflowed value. */
  upperMs: number;
}

/** A scheme with the derived values the arithmetic needs; internal to the histogram modules. */
export interface ResolvedScheme extends HistogramScheme {
  readonly subCount: number;
  readonly topIndex: number;
}

/** Bucket index of `ms` (values above `maxMs` map to the top bucket). */
export function bucketIndexOf(ms: number, options?: HistogramOptions): number {
  checkValue(ms);
  const s = resolveScheme(options);
  return ms > s.maxMs ? s.topIndex : indexOfUnits(unitsOf(ms), s.subBits, s.subCount);
}

/** Value range of bucket `index` in ms; see {@link BucketBounds}. */
export function bucketBounds(index: number, options?: HistogramOptions): BucketBounds {
  const s = resolveScheme(options);
  if (!Number.isInteger(index) || index < 0 || index > s.topIndex) {
    throw new HistogramError(
      'E_HISTOGRAM_BUCKET_INDEX',
      `bucket index: expected an integer in [0, ${s.topIndex}], got ${show(index)}`,
    );
  }
  return { lowerMs: lowerUnits(index, s.subCount) / UNITS_PER_MS, upperMs: upperMsOf(index, s) };
}

/** Whole units of `ms`: the unique u with u/1000 <= ms < (u+1)/1000 in doubles. */
export function unitsOf(ms: number): number {
  let u = Math.floor(ms * UNITS_PER_MS);
  // ms * 1000 is rounded, so near a unit edge the floor can be off by one either way (never more,
  // since u stays far below 2^52); the doubles u/1000 are strictly increasing, so this fixes it.
  if (u / UNITS_PER_MS > ms) u -= 1;
  else if ((u + 1) / UNITS_PER_MS <= ms) u += 1;
  return u;
}

export function indexOfUnits(u: number, subBits: number, subCount: number): number {
  if (u < subCount) return u;
  // k = floor(log2(u)); Math.clz32 only sees 32 bits, so take the high word above 2^32.
  const k = u < TWO_POW_32 ? 31 - Math.clz32(u) : 63 - Math.clz32(u / TWO_POW_32);
  const e = k - subBits;
  // Range [2^k, 2^(k+1)) has buckets of width 2^e; u * 2^-e is in [subCount, 2*subCount).
  return e * subCount + Math.floor(u * (INV_POW2[e] as number));
}

/** Lower edge of bucket `index` in units; inverse of indexOfUnits. */
function lowerUnits(index: number, subCount: number): number {
  if (index < subCount) return index;
  const e = Math.floor(index / subCount) - 1;
  return (index - e * subCount) * 2 ** e;
}

export function upperMsOf(index: number, s: ResolvedScheme): number {
  if (index === s.topIndex) return Infinity; // Holds every overflowed value too.
  return lowerUnits(index + 1, s.subCount) / UNITS_PER_MS;
}

export function resolveScheme(options: HistogramOptions | undefined): ResolvedScheme {
  const subBits = options?.subBits ?? DEFAULT_SUB_BITS;
  const maxMs = options?.maxMs ?? DEFAULT_MAX_MS;
  if (!Number.isInteger(subBits) || subBits < MIN_SUB_BITS || subBits > MAX_SUB_BITS) {
    throw new HistogramError(
      'E_HISTOGRAM_SCHEME',
      `subBits: expected an integer in [${MIN_SUB_BITS}, ${MAX_SUB_BITS}], got ${show(subBits)}`,
      'subBits',
    );
  }
  if (typeof maxMs !== 'number' || !(maxMs > 0 && maxMs <= MAX_RECORDABLE_MS)) {
    throw new HistogramError(
      'E_HISTOGRAM_SCHEME',
      `maxMs: expected a number in (0, ${MAX_RECORDABLE_MS}], got ${show(maxMs)}`,
      'maxMs',
    );
  }
  const subCount = 2 ** subBits;
  const topIndex = indexOfUnits(unitsOf(maxMs), subBits, subCount);
  return {
    scheme: HISTOGRAM_SCHEME,
    unitMs: HISTOGRAM_UNIT_MS,
    subBits,
    maxMs,
    bucketCount: topIndex + 1,
    subCount,
    topIndex,
  };
}

export function describeScheme(s: HistogramScheme): string {
  return `${s.scheme}(subBits=${s.subBits}, maxMs=${s.maxMs})`;
}

/** Throws `E_HISTOGRAM_VALUE` unless `ms` is a number in [0, {@link MAX_RECORDABLE_MS}]. */
export function checkValue(ms: unknown): asserts ms is number {
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_RECORDABLE_MS)) {
    throw new HistogramError(
      'E_HISTOGRAM_VALUE',
      `value: expected a finite number of ms in [0, ${MAX_RECORDABLE_MS}], got ${show(ms)}`,
    );
  }
}
