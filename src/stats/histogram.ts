/**
 * Log-linear (HdrHistogram-like) histogram of durations in milliseconds, built so that merges are
 * EXACT: two histograms with the same bucket scheme merge by adding bucket counts, so handshake-time
 * CDFs combine across origins, days and machines without drift, in any order.
 *
 * Bucket scheme `loglinear-v1` (versioned: changing any rule below requires a new scheme name,
 * because persisted histograms are only mergeable with identical bucket boundaries):
 * - A value `ms` is quantised to a whole number of units `u` (1 unit = 1 µs = 0.001 ms) by the rule
 *   `u / 1000 <= ms < (u + 1) / 1000`, evaluated in IEEE doubles, so every bucket edge printed by
 *   {@link bucketBounds} maps back into its own bucket.
 * - Units below `2^subBits` get one bucket each (linear part, absolute error ≤ 1 µs).
 * - Each range `[2^k, 2^(k+1))` with `k >= subBits` is split into `2^subBits` equal sub-buckets, so
 *   a bucket is at most `2^-subBits` (1/128 ≈ 0.8 % by default) of its lower edge wide.
 * - Values above `maxMs` are counted in `overflow` and clamped into the top bucket (the one holding
 *   `maxMs`), which therefore has no upper edge.
 *
 * Besides bucket counts the histogram tracks the exact `min` and `max`, and the sum as a whole
 * number of units (each value rounded to the nearest µs): an integer sum is associative, so a merge
 * of parts equals the histogram of the whole bit-for-bit, which a floating-point sum would not be.
 */

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

const UNITS_PER_MS = 1000;
const MIN_SUB_BITS = 1;
const MAX_SUB_BITS = 16;
const TWO_POW_32 = 2 ** 32;

// INV_POW2[e] = 2^-e. Scaling by a power of two is exact in doubles, so `floor(u * INV_POW2[e])`
// is an exact integer shift even above 2^32, where the `>>>` operator would wrap.
const INV_POW2 = new Float64Array(64);
for (let e = 0; e < INV_POW2.length; e++) INV_POW2[e] = 2 ** -e;

export type HistogramErrorCode =
  | 'E_HISTOGRAM_VALUE'
  | 'E_HISTOGRAM_COUNT'
  | 'E_HISTOGRAM_COUNT_LIMIT'
  | 'E_HISTOGRAM_PERCENTILE'
  | 'E_HISTOGRAM_BUCKET_INDEX'
  | 'E_HISTOGRAM_SCHEME'
  | 'E_HISTOGRAM_JSON_SHAPE'
  | 'E_HISTOGRAM_JSON_COUNT'
  | 'E_HISTOGRAM_JSON_BUCKET'
  | 'E_HISTOGRAM_JSON_RANGE'
  | 'E_HISTOGRAM_JSON_SUM'
  | 'E_HISTOGRAM_JSON_OVERFLOW';

export class HistogramError extends Error {
  override readonly name = 'HistogramError';
  readonly code: HistogramErrorCode;
  /** The offending option or JSON field (e.g. `buckets[3][1]`), when there is one. */
  readonly field: string | undefined;

  constructor(code: HistogramErrorCode, message: string, field?: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

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

/** Plain, JSON-serialisable form of a histogram (see {@link Histogram.toJSON}). */
export interface HistogramJSON {
  scheme: typeof HISTOGRAM_SCHEME;
  unitMs: number;
  subBits: number;
  maxMs: number;
  count: number;
  /** Exact smallest value; `null` when empty. */
  min: number | null;
  /** Exact largest value (may exceed `maxMs` when `overflow > 0`); `null` when empty. */
  max: number | null;
  /** Sum of all values in ms, a whole number of µs. Exact while below 2^51 µs (≈ 71 years). */
  sum: number;
  /** How many of `count` were above `maxMs` (they sit in the top bucket). */
  overflow: number;
  /** Non-empty buckets as `[index, count]`, indices strictly ascending, counts ≥ 1. */
  buckets: Array<[index: number, count: number]>;
}

interface ResolvedScheme extends HistogramScheme {
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
    this.sumUnits += Math.round(ms * UNITS_PER_MS) * count;
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
    const v = parseJSON(x);
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

// ---------------------------------------------------------------------------------------------
// Scheme arithmetic

/** Whole units of `ms`: the unique u with u/1000 <= ms < (u+1)/1000 in doubles. */
function unitsOf(ms: number): number {
  let u = Math.floor(ms * UNITS_PER_MS);
  // ms * 1000 is rounded, so near a unit edge the floor can be off by one either way (never more,
  // since u stays far below 2^52); the doubles u/1000 are strictly increasing, so this fixes it.
  if (u / UNITS_PER_MS > ms) u -= 1;
  else if ((u + 1) / UNITS_PER_MS <= ms) u += 1;
  return u;
}

function indexOfUnits(u: number, subBits: number, subCount: number): number {
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

function upperMsOf(index: number, s: ResolvedScheme): number {
  if (index === s.topIndex) return Infinity; // Holds every overflowed value too.
  return lowerUnits(index + 1, s.subCount) / UNITS_PER_MS;
}

function resolveScheme(options: HistogramOptions | undefined): ResolvedScheme {
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

function describeScheme(s: HistogramScheme): string {
  return `${s.scheme}(subBits=${s.subBits}, maxMs=${s.maxMs})`;
}

// ---------------------------------------------------------------------------------------------
// Validation helpers

function checkValue(ms: unknown): asserts ms is number {
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_RECORDABLE_MS)) {
    throw new HistogramError(
      'E_HISTOGRAM_VALUE',
      `value: expected a finite number of ms in [0, ${MAX_RECORDABLE_MS}], got ${show(ms)}`,
    );
  }
}

function countLimit(have: number, adding: number): HistogramError {
  return new HistogramError(
    'E_HISTOGRAM_COUNT_LIMIT',
    `count: expected the total to stay ≤ ${Number.MAX_SAFE_INTEGER}, got ${have} + ${adding}`,
  );
}

function show(x: unknown): string {
  if (typeof x === 'number') return Object.is(x, -0) ? '-0' : String(x);
  if (typeof x === 'string') return JSON.stringify(x);
  if (x === null) return 'null';
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  return typeof x === 'object' ? 'an object' : typeof x;
}

const JSON_KEYS: ReadonlyArray<keyof HistogramJSON> = [
  'scheme', 'unitMs', 'subBits', 'maxMs', 'count', 'min', 'max', 'sum', 'overflow', 'buckets',
];

function isSafeCount(x: unknown, min: number): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= min;
}

/** A HistogramJSON that passed every check, in internal units. */
interface ValidatedJSON {
  scheme: ResolvedScheme;
  buckets: Array<[number, number]>;
  count: number;
  overflow: number;
  sumUnits: number;
  /** Meaningless when count is 0. */
  min: number;
  max: number;
}

function parseJSON(x: unknown): ValidatedJSON {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) {
    throw new HistogramError('E_HISTOGRAM_JSON_SHAPE', `histogram: expected a plain object, got ${show(x)}`, '(root)');
  }
  const o = x as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!(JSON_KEYS as readonly string[]).includes(key)) {
      throw new HistogramError(
        'E_HISTOGRAM_JSON_SHAPE',
        `${key}: expected only the fields ${JSON_KEYS.join(', ')}, got unknown field ${JSON.stringify(key)}`,
        key,
      );
    }
  }
  for (const key of JSON_KEYS) {
    if (!(key in o)) {
      throw new HistogramError('E_HISTOGRAM_JSON_SHAPE', `${key}: expected a field, got none`, key);
    }
  }

  // Scheme.
  if (o.scheme !== HISTOGRAM_SCHEME) {
    throw new HistogramError(
      'E_HISTOGRAM_SCHEME',
      `scheme: expected ${JSON.stringify(HISTOGRAM_SCHEME)}, got ${show(o.scheme)}`,
      'scheme',
    );
  }
  if (o.unitMs !== HISTOGRAM_UNIT_MS) {
    throw new HistogramError('E_HISTOGRAM_SCHEME', `unitMs: expected ${HISTOGRAM_UNIT_MS}, got ${show(o.unitMs)}`, 'unitMs');
  }
  if (typeof o.subBits !== 'number') {
    throw new HistogramError('E_HISTOGRAM_SCHEME', `subBits: expected an integer, got ${show(o.subBits)}`, 'subBits');
  }
  if (typeof o.maxMs !== 'number') {
    throw new HistogramError('E_HISTOGRAM_SCHEME', `maxMs: expected a number, got ${show(o.maxMs)}`, 'maxMs');
  }
  const s = resolveScheme({ subBits: o.subBits, maxMs: o.maxMs });

  // Counts and buckets.
  const count = o.count;
  if (!isSafeCount(count, 0)) {
    throw new HistogramError('E_HISTOGRAM_JSON_COUNT', `count: expected a safe integer ≥ 0, got ${show(count)}`, 'count');
  }
  const overflow = o.overflow;
  if (!isSafeCount(overflow, 0)) {
    throw new HistogramError('E_HISTOGRAM_JSON_OVERFLOW', `overflow: expected a safe integer ≥ 0, got ${show(overflow)}`, 'overflow');
  }
  const raw = o.buckets;
  if (!Array.isArray(raw)) {
    throw new HistogramError('E_HISTOGRAM_JSON_BUCKET', `buckets: expected an array of [index, count], got ${show(raw)}`, 'buckets');
  }
  const buckets: Array<[number, number]> = [];
  let bucketTotal = 0;
  let prev = -1;
  for (let i = 0; i < raw.length; i++) {
    const entry: unknown = raw[i];
    if (!Array.isArray(entry) || entry.length !== 2) {
      throw new HistogramError('E_HISTOGRAM_JSON_BUCKET', `buckets[${i}]: expected [index, count], got ${show(entry)}`, `buckets[${i}]`);
    }
    const index: unknown = entry[0];
    const c: unknown = entry[1];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > s.topIndex) {
      throw new HistogramError(
        'E_HISTOGRAM_JSON_BUCKET',
        `buckets[${i}][0]: expected a bucket index in [0, ${s.topIndex}], got ${show(index)}`,
        `buckets[${i}][0]`,
      );
    }
    if (index <= prev) {
      throw new HistogramError(
        'E_HISTOGRAM_JSON_BUCKET',
        `buckets[${i}][0]: expected indices in strictly ascending order, got ${index} after ${prev}`,
        `buckets[${i}][0]`,
      );
    }
    // Zero counts are rejected too: the sparse form omits empty buckets, which keeps it canonical.
    if (!isSafeCount(c, 1)) {
      throw new HistogramError(
        'E_HISTOGRAM_JSON_BUCKET',
        `buckets[${i}][1]: expected a positive safe integer count, got ${show(c)}`,
        `buckets[${i}][1]`,
      );
    }
    bucketTotal += c;
    if (bucketTotal > Number.MAX_SAFE_INTEGER) {
      throw new HistogramError('E_HISTOGRAM_JSON_COUNT', `buckets: expected counts summing to ≤ ${Number.MAX_SAFE_INTEGER}`, 'buckets');
    }
    buckets.push([index, c]);
    prev = index;
  }
  if (bucketTotal !== count) {
    throw new HistogramError(
      'E_HISTOGRAM_JSON_COUNT',
      `count: expected the sum of bucket counts (${bucketTotal}), got ${count}`,
      'count',
    );
  }

  const sum = o.sum;
  if (typeof sum !== 'number' || !(sum >= 0 && sum < Infinity)) {
    throw new HistogramError('E_HISTOGRAM_JSON_SUM', `sum: expected a finite number of ms ≥ 0, got ${show(sum)}`, 'sum');
  }
  const sumUnits = Math.round(sum * UNITS_PER_MS);

  if (count === 0) {
    if (o.min !== null) throw new HistogramError('E_HISTOGRAM_JSON_RANGE', `min: expected null for an empty histogram, got ${show(o.min)}`, 'min');
    if (o.max !== null) throw new HistogramError('E_HISTOGRAM_JSON_RANGE', `max: expected null for an empty histogram, got ${show(o.max)}`, 'max');
    if (sumUnits !== 0) throw new HistogramError('E_HISTOGRAM_JSON_SUM', `sum: expected 0 for an empty histogram, got ${sum}`, 'sum');
    if (overflow !== 0) throw new HistogramError('E_HISTOGRAM_JSON_OVERFLOW', `overflow: expected 0 for an empty histogram, got ${overflow}`, 'overflow');
    return { scheme: s, buckets, count: 0, overflow: 0, sumUnits: 0, min: NaN, max: NaN };
  }

  const min = rangeValue(o.min, 'min');
  const max = rangeValue(o.max, 'max');
  if (min > max) throw new HistogramError('E_HISTOGRAM_JSON_RANGE', `min: expected ≤ max (${max}), got ${min}`, 'min');
  const first = (buckets[0] as [number, number])[0];
  const last = (buckets[buckets.length - 1] as [number, number])[0];
  const minIndex = min > s.maxMs ? s.topIndex : indexOfUnits(unitsOf(min), s.subBits, s.subCount);
  const maxIndex = max > s.maxMs ? s.topIndex : indexOfUnits(unitsOf(max), s.subBits, s.subCount);
  if (minIndex !== first) {
    throw new HistogramError('E_HISTOGRAM_JSON_RANGE', `min: expected a value in the first non-empty bucket (${first}), got ${min} (bucket ${minIndex})`, 'min');
  }
  if (maxIndex !== last) {
    throw new HistogramError('E_HISTOGRAM_JSON_RANGE', `max: expected a value in the last non-empty bucket (${last}), got ${max} (bucket ${maxIndex})`, 'max');
  }
  if (count === 1 && min !== max) {
    throw new HistogramError('E_HISTOGRAM_JSON_RANGE', `max: expected to equal min (${min}) when count is 1, got ${max}`, 'max');
  }

  const topCount = last === s.topIndex ? (buckets[buckets.length - 1] as [number, number])[1] : 0;
  if (overflow > topCount) {
    throw new HistogramError('E_HISTOGRAM_JSON_OVERFLOW', `overflow: expected ≤ the top bucket's count (${topCount}), got ${overflow}`, 'overflow');
  }
  if ((overflow > 0) !== (max > s.maxMs)) {
    throw new HistogramError(
      'E_HISTOGRAM_JSON_OVERFLOW',
      overflow > 0
        ? `overflow: expected 0 since max (${max}) ≤ maxMs (${s.maxMs}), got ${overflow}`
        : `overflow: expected ≥ 1 since max (${max}) > maxMs (${s.maxMs}), got 0`,
      'overflow',
    );
  }

  // Every value v contributed round(v * 1000) units, and rounding is monotone, so the sum lies
  // between count × the min's contribution and count × the max's. Only checked where exact.
  const lo = Math.round(min * UNITS_PER_MS) * count;
  const hi = Math.round(max * UNITS_PER_MS) * count;
  if (hi <= Number.MAX_SAFE_INTEGER && (sumUnits < lo || sumUnits > hi)) {
    throw new HistogramError(
      'E_HISTOGRAM_JSON_SUM',
      `sum: expected between count × min and count × max (${lo / UNITS_PER_MS} … ${hi / UNITS_PER_MS} ms), got ${sum}`,
      'sum',
    );
  }
  return { scheme: s, buckets, count, overflow, sumUnits, min, max };
}

function rangeValue(x: unknown, field: 'min' | 'max'): number {
  if (typeof x !== 'number' || !(x >= 0 && x <= MAX_RECORDABLE_MS)) {
    throw new HistogramError(
      'E_HISTOGRAM_JSON_RANGE',
      `${field}: expected a number of ms in [0, ${MAX_RECORDABLE_MS}] for a non-empty histogram, got ${show(x)}`,
      field,
    );
  }
  return x === 0 ? 0 : x; // -0 -> +0, as record() does.
}
