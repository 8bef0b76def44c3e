/**
 * The JSON form of a {@link Histogram} and its strict loader: {@link parseHistogramJSON} accepts
 * only what `Histogram.toJSON` could have produced and says exactly which field was wrong.
 */

import { HistogramError, show } from './histogram-error';
import {
  HISTOGRAM_SCHEME,
  HISTOGRAM_UNIT_MS,
  MAX_RECORDABLE_MS,
  type ResolvedScheme,
  UNITS_PER_MS,
  indexOfUnits,
  resolveScheme,
  unitsOf,
} from './histogram-scheme';

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

const JSON_KEYS: ReadonlyArray<keyof HistogramJSON> = [
  'scheme', 'unitMs', 'subBits', 'maxMs', 'count', 'min', 'max', 'sum', 'overflow', 'buckets',
];

function isSafeCount(x: unknown, min: number): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= min;
}

/** A HistogramJSON that passed every check, in internal units. */
export interface ValidatedJSON {
  scheme: ResolvedScheme;
  buckets: Array<[number, number]>;
  count: number;
  overflow: number;
  sumUnits: number;
  /** Meaningless when count is 0. */
  min: number;
  max: number;
}

/**
 * Validates a {@link HistogramJSON} (e.g. parsed from storage or another machine) and converts it
 * to internal units; `Histogram.fromJSON` loads the result.
 * @throws HistogramError with a `E_HISTOGRAM_JSON_*` or `E_HISTOGRAM_SCHEME` code and `field`.
 */
export function parseHistogramJSON(x: unknown): ValidatedJSON {
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
