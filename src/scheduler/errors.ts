import { CodedError } from '../core/coded-error';

/**
 * Stable error codes of the scheduler. Callers match on `code`, never on the message or class.
 *
 * Request-level codes (a request settles with one of these):
 * - `E_CONNECT_FAILED`   no connection to the origin could be established.
 * - `E_CONNECTION_LOST`  the connection died before the response completed, and the request has
 *                        used its attempts or its sends (retry-policy.ts) — or its connection was
 *                        closed because another request on it failed.
 * - `E_NOT_RETRYABLE`    a non-idempotent request was lost with its connection; it is never replayed.
 * - `E_RESPONSE_FAILED`  the transport reported a failure specific to this request.
 * - `E_SCHEDULER_CLOSED` the scheduler was closed while the request was pending.
 * - `E_LOAD_TIMEOUT`     the whole load's time ran out while the request was pending.
 * - `E_UNSAFE_PORT`      the URL's port is on the Fetch standard's list of bad ports (never connected).
 *
 * Codes the transport reports and a request keeps as its own (the real cause, never "connection
 * lost"): `E_DESYNC`, `E_BAD_RESPONSE`, `E_REQUEST_TIMEOUT`, `E_RESPONSE_STALLED`,
 * `E_PRIVATE_NETWORK` (see native-host/transport/transport-errors.ts).
 *
 * Argument codes (thrown by `enqueue` / option validation):
 * `E_INVALID_URL`, `E_UNSUPPORTED_SCHEME`, `E_INVALID_METHOD`, `E_INVALID_PRIORITY`,
 * `E_INVALID_OPTION`, `E_QUEUE_FULL`, `E_UNKNOWN_STRATEGY`.
 */
export type SchedulerErrorCode =
  | 'E_CONNECT_FAILED'
  | 'E_CONNECTION_LOST'
  | 'E_NOT_RETRYABLE'
  | 'E_RESPONSE_FAILED'
  | 'E_SCHEDULER_CLOSED'
  | 'E_LOAD_TIMEOUT'
  | 'E_UNSAFE_PORT'
  | 'E_INVALID_URL'
  | 'E_UNSUPPORTED_SCHEME'
  | 'E_INVALID_METHOD'
  | 'E_INVALID_PRIORITY'
  | 'E_INVALID_OPTION'
  | 'E_QUEUE_FULL'
  | 'E_UNKNOWN_STRATEGY';

const RESPONSE_ERROR_CODE_LIST = ['E_DESYNC', 'E_BAD_RESPONSE', 'E_REQUEST_TIMEOUT', 'E_RESPONSE_STALLED', 'E_PRIVATE_NETWORK'] as const;

/** Codes a transport reports for one request's failure (native-host/transport/transport-errors.ts raises them). */
export type ResponseErrorCode = (typeof RESPONSE_ERROR_CODE_LIST)[number];

/** Transport codes that name why one request failed; a request that fails with one keeps it. */
export const RESPONSE_ERROR_CODES: ReadonlySet<string> = new Set(RESPONSE_ERROR_CODE_LIST);

export class SchedulerError extends CodedError<SchedulerErrorCode | ResponseErrorCode> {
  override readonly name = 'SchedulerError';
  /** The transport's own error code when this wraps one (e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`). */
  readonly causeCode: string | undefined;

  constructor(code: SchedulerErrorCode | ResponseErrorCode, message: string, causeCode?: string) {
    super(code, message);
    this.causeCode = causeCode;
  }
}

/** A plain, serialisable description of a failure, as it appears in results. */
export interface ErrorInfo {
  code: string;
  message: string;
  causeCode?: string;
}

export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof SchedulerError) {
    return err.causeCode ? { code: err.code, message: err.message, causeCode: err.causeCode } : { code: err.code, message: err.message };
  }
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown };
    const code = typeof e.code === 'string' ? e.code : 'E_UNKNOWN';
    return { code, message: typeof e.message === 'string' ? e.message : String(err) };
  }
  return { code: 'E_UNKNOWN', message: String(err) };
}

/** The code of an arbitrary error object, if it has one. */
export function errorCodeOf(err: unknown): string | undefined {
  if (err && typeof err === 'object' && typeof (err as { code?: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return undefined;
}
