/** Coded errors shared by the histogram modules (scheme, JSON loader and the class itself). */

import { CodedError } from '../core/coded-error';

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

export class HistogramError extends CodedError<HistogramErrorCode> {
  override readonly name = 'HistogramError';
  /** The offending option or JSON field (e.g. `buckets[3][1]`), when there is one. */
  readonly field: string | undefined;

  constructor(code: HistogramErrorCode, message: string, field?: string) {
    super(code, message);
    this.field = field;
  }
}

/** How an offending value is quoted in the "got …" part of a {@link HistogramError} message. */
export function show(x: unknown): string {
  if (typeof x === 'number') return Object.is(x, -0) ? '-0' : String(x);
  if (typeof x === 'string') return JSON.stringify(x);
  if (x === null) return 'null';
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  return typeof x === 'object' ? 'an object' : typeof x;
}
