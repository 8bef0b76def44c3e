import { CodedError } from '../core/coded-error';

/**
 * Every failure either side reports is `{type: "error", id, code, message}`. Callers match on
 * `code`, which is stable; `message` says what was wrong in words a user can act on.
 *
 * `id` is the request's id, or `null` when the frame could not be read far enough to find one.
 *
 * What each code means, and whether the host keeps serving after it, is the table in
 * docs/protocol.md; test/protocol-doc.test.ts keeps that table equal to this list.
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
  'E_DUPLICATE_KEY',
  'E_FRAME_TOO_LARGE',
  'E_FRAME_TRUNCATED',
  'E_TOO_MANY_REQUESTS',
  'E_UNSUPPORTED_SCHEME',
  'E_INVALID_METHOD',
  'E_INVALID_URL',
  'E_BUSY',
  'E_NO_STORE',
  'E_CA_FILE',
  'E_PAGE_UNAVAILABLE',
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
