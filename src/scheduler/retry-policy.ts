import { RESPONSE_ERROR_CODES, SchedulerError, errorCodeOf, toErrorInfo, type ResponseErrorCode, type SchedulerErrorCode } from './errors';
import type { ScheduledRequest } from './request';

/**
 * What happens to a request whose attempt ended without a usable response (RFC 9110 §9.2.2,
 * RFC 9112 §9.3.2, and what browsers do: Chromium's `ShouldResendRequest`, Firefox's restart of
 * transactions on reused connections).
 *
 * - **Not received**: it was written on a reused connection (or behind another request, or on one
 *   that sat idle: idle-race.ts) and the connection died before any byte of its response arrived,
 *   or its response was discarded with a desynchronised connection. The server may simply have
 *   closed a keep-alive connection first (keep-alive limits, idle timeouts): re-queued without
 *   using an attempt.
 * - **Failed attempt**: it failed on a fresh connection, or after response bytes arrived. Uses one
 *   of `MAX_ATTEMPTS`.
 * - **Refused**: an HTTP/2 server reset its stream with REFUSED_STREAM, so it was not processed
 *   (RFC 9113 §8.7; servers refuse streams past their SETTINGS_MAX_CONCURRENT_STREAMS): re-queued
 *   without using an attempt, whatever its method.
 * - **Final**: it timed out, or is not idempotent (and was not refused): settled with the error at once.
 *
 * Either way a request is written at most `MAX_SENDS` times, so a server that drops every
 * connection cannot make getlist loop; each re-queued HTTP/1.1 request waits for a connection that
 * is idle, so there is never a tight loop on one socket (an HTTP/2 one is a stream of whichever
 * connection has room, idle-race.ts `streamForRetry`).
 */
export const MAX_ATTEMPTS = 2;
export const MAX_SENDS = 4;

/** Errors that end a request, never retried: waiting again would only wait again. */
const FINAL_CODES = ['E_REQUEST_TIMEOUT', 'E_RESPONSE_STALLED'] as const;
type FinalCode = (typeof FINAL_CODES)[number];
const FINAL: ReadonlySet<string> = new Set(FINAL_CODES);
/** Errors of the connection's framing: whatever was received on it since it was last in step is void. */
const DESYNC = new Set(['E_DESYNC']);

/** The request's own timeout code when `error` is one of those, else undefined. */
export function finalCodeOf(error: unknown): FinalCode | undefined {
  const code = errorCodeOf(error);
  return code !== undefined && FINAL.has(code) ? (code as FinalCode) : undefined;
}

export function isFinalError(error: unknown): boolean {
  return finalCodeOf(error) !== undefined;
}

export function isDesync(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code !== undefined && DESYNC.has(code);
}

export interface LostAttempt {
  idempotent: boolean;
  /** Times written so far, this attempt included. */
  sends: number;
  /** Failed attempts before this one. */
  failedAttempts: number;
  /** Written on a connection that had carried a request before. */
  reused: boolean;
  /**
   * Written on a connection that had sat idle, used or not: the server may have closed it for
   * idleness meanwhile (idle-race.ts), so it counts as reused.
   */
  idled: boolean;
  /** Any byte of its response arrived. */
  responseStarted: boolean;
  /** Its response (if any) was discarded because the connection desynchronised. */
  discarded: boolean;
  /** The server said it did not process the request (HTTP/2 REFUSED_STREAM). */
  refused?: boolean;
}

export type RetryDecision = 'requeue' | 'requeue-counted' | 'fail';

export function decideRetry(a: LostAttempt, error: unknown): RetryDecision {
  if (isFinalError(error) || a.sends >= MAX_SENDS) return 'fail';
  if (a.refused) return 'requeue';
  if (!a.idempotent) return 'fail';
  if (a.discarded || ((a.reused || a.idled) && !a.responseStarted)) return 'requeue';
  return a.failedAttempts + 1 < MAX_ATTEMPTS ? 'requeue-counted' : 'fail';
}

/**
 * The error a request settles with when its last attempt was lost: the real cause (a timeout, a
 * bad response, a desync) keeps its own code; otherwise `E_CONNECTION_LOST`, or `E_NOT_RETRYABLE`
 * for a request that is never replayed.
 *
 * A last attempt lost unanswered (a keep-alive close, a neighbour's failure) is not the cause when
 * an earlier attempt was answered unusably (`req.answerError`): a request whose every answer was
 * a desync settles with `E_DESYNC` whether or not its last send happened to meet a closing
 * connection first — which, on a server that closes after N requests, depends only on timing.
 */
export function lostError(req: ScheduledRequest, error: unknown): SchedulerError {
  const code = errorCodeOf(error);
  const message = toErrorInfo(error).message;
  if (code !== undefined && RESPONSE_ERROR_CODES.has(code)) {
    return new SchedulerError(code as ResponseErrorCode, `${message} (after ${req.attempts} attempt(s))`, code);
  }
  const earlier = errorCodeOf(req.answerError);
  if (earlier !== undefined && RESPONSE_ERROR_CODES.has(earlier)) {
    const cause = toErrorInfo(req.answerError).message;
    return new SchedulerError(earlier as ResponseErrorCode, `${cause} (after ${req.attempts} attempt(s); the last was lost unanswered: ${message})`, earlier);
  }
  const why: SchedulerErrorCode = req.idempotent ? 'E_CONNECTION_LOST' : 'E_NOT_RETRYABLE';
  return new SchedulerError(why, `connection lost after ${req.attempts} attempt(s): ${message}`, code);
}

/** The error a request gets when its connection was closed because another request on it failed. */
export function collateralError(error: unknown): SchedulerError {
  const info = toErrorInfo(error);
  return new SchedulerError('E_CONNECTION_LOST', `the connection was closed because another request on it failed (${info.code}: ${info.message})`, info.code);
}
