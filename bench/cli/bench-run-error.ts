import { CodedError } from '../../src/core/coded-error';

export type BenchRunErrorCode =
  | 'E_BENCH_USAGE'
  | 'E_BENCH_UNKNOWN_LINK'
  | 'E_RUN_TIMEOUT'
  | 'E_RUN_FAILED'
  | 'E_RUN_BAD_OUTPUT'
  | 'E_CHROMIUM_LAUNCH'
  | 'E_CHROMIUM_LOAD'
  /** The overhead benchmark's site server did not start in the server namespace. */
  | 'E_OVERHEAD_SITE';

/** A failure as a results file records it. */
export interface BenchError {
  /** Stable code, e.g. E_LINK_NEEDS_ROOT, E_ORIGINS_START, E_RUN_TIMEOUT, E_CHROMIUM_LAUNCH. */
  code: string;
  message: string;
}

/** A benchmark failure with a stable code; cells record it as `{code, message}` and carry on. */
export class BenchRunError extends CodedError<BenchRunErrorCode> {
  override readonly name = 'BenchRunError';
}

/** Any thrown value as the results file's `{code, message}` (link and origins errors keep their codes). */
export function toBenchError(err: unknown): BenchError {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : 'E_BENCH_INTERNAL';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return { code, message };
}
