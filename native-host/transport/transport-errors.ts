import { CodedError } from '../../src/core/coded-error';
import type { ResponseErrorCode } from '../../src/scheduler/errors';
import type { STREAM_REFUSED } from '../../src/scheduler';

/**
 * Errors the transport raises itself. Callers match on `code` (stable strings):
 *
 * - `E_DESYNC`            the connection's responses stopped matching its requests: bytes after a
 *                         complete response with nothing asked, more responses than requests, or
 *                         bytes that are not a status line where a response must start. Nothing
 *                         received since the connection was last known in step can be trusted.
 * - `E_BAD_RESPONSE`      one response cannot be read safely (headers too large, unsolicited
 *                         `101`, both `Transfer-Encoding` and `Content-Length`, a bad length).
 * - `E_RESPONSE_STALLED`  nothing arrived for the inactivity timeout (headers or body).
 * - `E_REQUEST_TIMEOUT`   the response did not complete within the per-request total timeout.
 * - `E_PRIVATE_NETWORK`   the address would let a public page reach a more private network
 *                         (refused before any connection attempt, connection-gate.ts).
 * - `E_UNSAFE_PORT`       the port is one of the Fetch standard's bad ports (never connected).
 * - `E_CONNECTION_GONE`   the connection closed (or was closed) under the request.
 * - `E_CONNECT_TIMER`     the process that times TCP connects could not run or exited
 *                         (connect-timer.ts); the connection was not made.
 * - `E_STREAM_REFUSED`    an HTTP/2 server reset the request's stream with REFUSED_STREAM: it was
 *                         not processed (RFC 9113 §8.7), so the scheduler sends it again.
 */
export type TransportErrorCode = ResponseErrorCode | 'E_UNSAFE_PORT' | 'E_CONNECTION_GONE' | 'E_CONNECT_TIMER' | typeof STREAM_REFUSED;

export class TransportError extends CodedError<TransportErrorCode> {
  override readonly name = 'TransportError';
  constructor(
    code: TransportErrorCode,
    message: string,
    /** For `E_BAD_RESPONSE`: the response (0-based, in request order on its connection) at fault. */
    readonly responseIndex?: number,
  ) {
    super(code, message);
  }
}
