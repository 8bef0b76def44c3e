import { CodedError } from '../errors/coded-error';

/**
 * Every failure either side reports is `{type: "error", id, code, message}`. Callers match on
 * `code`, which is stable; `message` says what was wrong in words a user can act on.
 *
 * `id` is the request's id, or `null` when the frame could not be read far enough to find one.
 *
 * | code                    | when                                                                         | host keeps serving? |
 * |-------------------------|------------------------------------------------------------------------------|---------------------|
 * | `E_INVALID_JSON`        | a frame's bytes are not JSON                                                 | yes                 |
 * | `E_INVALID_UTF8`        | a frame's bytes are not valid UTF-8                                          | yes                 |
 * | `E_NOT_OBJECT`          | the JSON is not an object (array, string, number, null…)                     | yes                 |
 * | `E_UNKNOWN_TYPE`        | `type` names no request this version knows                                   | yes                 |
 * | `E_MISSING_FIELD`       | a required field is absent (the message names its path)                      | yes                 |
 * | `E_INVALID_FIELD`       | a field has the wrong type or value (path, what was expected, what arrived)  | yes                 |
 * | `E_UNSUPPORTED_VERSION` | `hello` asked for a protocol version this host does not speak                | yes                 |
 * | `E_TOO_DEEP`            | the JSON nests deeper than 32 levels (checked before parsing)                | yes                 |
 * | `E_FRAME_TOO_LARGE`     | a length prefix over 64 MiB; the stream cannot be delimited any more         | no: exits 1         |
 * | `E_FRAME_TRUNCATED`     | stdin ended in the middle of a frame                                         | no: exits 1         |
 * | `E_TOO_MANY_REQUESTS`   | a `schedule` lists more than 2000 requests                                   | yes                 |
 * | `E_UNSUPPORTED_SCHEME`  | a URL is not http: or https:                                                 | yes                 |
 * | `E_INVALID_METHOD`      | a request's method is not GET or HEAD                                        | yes                 |
 * | `E_INVALID_URL`         | a URL does not parse, is too long, or carries a user name or password        | yes                 |
 * | `E_BUSY`                | 8 schedules are already running                                              | yes                 |
 * | `E_NO_STORE`            | `stats`, `export` or `forget` on a host running without a store              | yes                 |
 * | `E_CA_FILE`             | a replay's `caFile` cannot be read or holds no PEM certificate                | yes                 |
 * | `E_INTERNAL`            | a bug or an unexpected failure inside the host (details in its log)          | yes                 |
 */
export const PROTOCOL_ERROR_CODES = [
  'E_INVALID_JSON',
  'E_INVALID_UTF8',
  'E_NOT_OBJECT',
  'E_UNKNOWN_TYPE',
  'E_MISSING_FIELD',
  'E_INVALID_FIELD',
  'E_UNSUPPORTED_VERSION',
  'E_TOO_DEEP',
  'E_FRAME_TOO_LARGE',
  'E_FRAME_TRUNCATED',
  'E_TOO_MANY_REQUESTS',
  'E_UNSUPPORTED_SCHEME',
  'E_INVALID_METHOD',
  'E_INVALID_URL',
  'E_BUSY',
  'E_NO_STORE',
  'E_CA_FILE',
  'E_INTERNAL',
] as const;

export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

/** A request id: what the browser chose, echoed on every reply. */
export type RequestId = string | number;

export interface ErrorReply {
  type: 'error';
  id: RequestId | null;
  code: ProtocolErrorCode;
  message: string;
}

/** A failure with a protocol code, thrown by validators and handlers and turned into an `ErrorReply`. */
export class ProtocolError extends CodedError<ProtocolErrorCode> {
  override readonly name = 'ProtocolError';
  constructor(
    code: ProtocolErrorCode,
    message: string,
    /** The request's id when it was read before the failure. */
    readonly id: RequestId | null = null,
  ) {
    super(code, message);
  }
}

export function isProtocolErrorCode(value: unknown): value is ProtocolErrorCode {
  return typeof value === 'string' && (PROTOCOL_ERROR_CODES as readonly string[]).includes(value);
}

export function errorReply(id: RequestId | null, code: ProtocolErrorCode, message: string): ErrorReply {
  return { type: 'error', id, code, message };
}
