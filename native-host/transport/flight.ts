import { createHash, type Hash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { HttpProtocol } from '../../src/core/http-protocol';
import { STREAM_REFUSED, type Dispatch, type ResponseStartInfo, type TransportHandler } from '../../src/scheduler';
import { keepAliveMax } from '../../src/scheduler/request-budget';
import type { ResponseFraming } from './response-framing';
import type { ResponseHooks } from './response-hooks';
import { STALL_MIN_BYTES, type StallWatched } from './stall-watch';
import { TransportError } from './transport-errors';
import { loopBusyMs } from './loop-busy';

/** What a flight needs from its transport. */
export interface FlightHost {
  readonly scheduler: TransportHandler;
  readonly options: ResponseHooks;
  /** The flight has settled; drop it from the transport's table. */
  landed(dispatchId: number): void;
  /** The flight's response ended before its connection was in step after it: confirm it later. */
  hold(flight: Flight): void;
}

/** The connection a flight travels on, as the transport tracks it. */
export interface FlightConn extends StallWatched {
  protocol: HttpProtocol;
  /** First status line's HTTP version (HTTP/1.x only). */
  version: string | undefined;
  closed: boolean;
  /** HTTP/1.1 only: where each response begins and ends (response-framing.ts). */
  framing: ResponseFraming | undefined;
  /** Responses `[0, trusted)` on the connection are confirmed. */
  trusted: number;
  /**
   * Responses undici has whole whose end waits for their body's decoder (`onBodyEnd`): a close of
   * the connection is reported only after them, so it cannot lose a complete response.
   */
  readonly decoding: Set<Promise<void>>;
  /**
   * The loop's busy total when the connection's last body bytes were read (or it opened): bytes
   * read now arrived at most the busy time since then before (loop-busy.ts).
   */
  readBusyAt: number;
}

/** Codes that mean the connection itself is gone, so every request on it is lost. */
const CONNECTION_LEVEL = new Set([
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED',
  'E_CONNECTION_GONE', 'ERR_HTTP2_GOAWAY_SESSION', 'ERR_HTTP2_SESSION_ERROR', 'ERR_HTTP2_INVALID_SESSION',
]);

/**
 * One dispatch in flight: undici's handler for it, and its pause state. A class (one object per
 * request rather than a closure per callback) because this is on the per-request hot path.
 */
export class Flight implements Dispatcher.DispatchHandler {
  controller: Dispatcher.DispatchController | undefined;
  paused = false;
  /** When the per-request total timeout (`requestTotalTimeoutMs`) runs out, ms on `performance.now()`. */
  deadlineAt = Infinity;
  private bytes = 0;
  /**
   * HTTP/2: the body length the response's `Content-Length` declared, when the response must have
   * one that long (not a HEAD's, a 204's or a 304's).
   */
  private declaredBytes: number | undefined;
  private done = false;
  /**
   * The scheduler sent its request again elsewhere (it waited behind a stalled response,
   * `TransportPort.abandon`): its response is still read off the connection, in order, but
   * reaches no one.
   */
  private abandoned = false;
  /** The body's digest as it arrives, only when the scheduler asked (`Dispatch.fingerprint`: an unproven origin). */
  private readonly hash: Hash | undefined;

  constructor(
    private readonly host: FlightHost,
    readonly dispatch: Dispatch,
    readonly conn: FlightConn,
    /** Index of its response on the connection (HTTP/1.1), -1 on HTTP/2. */
    readonly seq: number,
  ) {
    this.hash = dispatch.fingerprint ? createHash('sha256') : undefined;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.paused) controller.pause();
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.controller = controller;
    this.conn.progress += STALL_MIN_BYTES;
    if (statusCode < 200 || this.abandoned) return; // interim responses are not the response (the framing removes them on HTTP/1.1)
    const h2 = this.conn.protocol === 'h2';
    const framing = this.conn.framing;
    const version = framing?.takeVersion(this.seq);
    if (version !== undefined) this.conn.version = version;
    const httpVersion = h2 ? '2' : (version ?? this.conn.version ?? '1.1');
    const connection = headers['connection'];
    const token = typeof connection === 'string' ? connection.toLowerCase() : '';
    const keepAlive = h2 || (httpVersion === '1.0' ? token.includes('keep-alive') : !token.includes('close'));
    const declared = headers['content-length'];
    const len = typeof declared === 'string' ? Number(declared) : NaN;
    const kaMax = h2 ? undefined : keepAliveMax(typeof headers['keep-alive'] === 'string' ? headers['keep-alive'] : undefined);
    const type = headers['content-type'];
    const hints = framing?.takeEarlyHints(this.seq);
    // The scheduler's own framing probe (a HEAD) is nobody's response: callers never see it.
    if (!this.dispatch.request.orderProbe) this.host.options.onResponseHead?.(this.dispatch, statusCode, headers);
    // Built field by field: this runs once per response.
    const info: ResponseStartInfo = { status: statusCode, httpVersion, keepAlive };
    if (Number.isFinite(len)) info.contentLength = len;
    if (h2 && Number.isFinite(len) && this.dispatch.request.method !== 'HEAD' && statusCode !== 204 && statusCode !== 304) this.declaredBytes = len;
    if (kaMax !== undefined) info.keepAliveMax = kaMax;
    if (typeof type === 'string') info.contentType = type;
    if (hints) info.earlyHints = hints;
    this.host.scheduler.responseStarted(this.dispatch.id, info);
    if (this.paused) controller.pause();
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.conn.progress += chunk.length;
    if (this.abandoned || this.done) return;
    this.bytes += chunk.length;
    if (this.hash !== undefined) this.hash.update(chunk);
    const busy = loopBusyMs();
    const lateMs = Math.max(0, busy - this.conn.readBusyAt);
    this.conn.readBusyAt = busy;
    this.host.scheduler.responseData(this.dispatch.id, chunk.length, lateMs);
    this.host.options.onBody?.(this.dispatch, chunk);
    // Where an END_STREAM would have ended it: after the frames read with this one, so that a
    // GOAWAY among them marks the connection draining before the scheduler hears of room on it.
    if (this.bytes === this.declaredBytes) process.nextTick(() => this.complete());
  }

  onResponseEnd(): void {
    // Already complete at its declared length (below): undici has now read the END_STREAM too.
    if (this.done) return;
    // RFC 9113 §8.1.1: a response whose DATA frames do not add up to its Content-Length is
    // malformed. Node ends an HTTP/2 stream whose session the server destroyed mid-body as if it
    // were complete, so a short body would pass for the whole one.
    if (this.declaredBytes !== undefined && this.bytes !== this.declaredBytes && !this.abandoned) {
      this.fail(new TransportError('E_BAD_RESPONSE', `the HTTP/2 stream ended after ${this.bytes} of the ${this.declaredBytes} body bytes its Content-Length declared`));
      return;
    }
    this.complete();
  }

  /**
   * The response is whole: at END_STREAM, or on HTTP/2 as soon as its DATA add up to the length its
   * `Content-Length` declared, since RFC 9113 §8.1.1 lets no DATA follow (nghttp2 resets a stream
   * that sends more). A server may send the END_STREAM well after the body: Go's HTTP/2 server
   * (Caddy) sends it in an empty DATA frame of its own once the handler has returned, and it can
   * come behind other streams' bodies (bench/README.md, "A body whole before its END_STREAM").
   * undici still reads the stream to its end; nothing of it reaches the scheduler again.
   */
  private complete(): void {
    if (this.done) return;
    // A paused stream would never read its END_STREAM, and the pauser forgets a landed flight.
    if (this.paused) this.controller?.resume();
    this.land();
    // Nothing more is asked of undici for it; a held flight must not keep undici's request alive.
    this.controller = undefined;
    if (this.abandoned) return;
    const pending = this.dispatch.request.orderProbe ? undefined : this.host.options.onBodyEnd?.(this.dispatch);
    if (!pending) {
      this.ended();
      return;
    }
    const ending = pending.then(() => this.ended(), () => this.ended());
    this.conn.decoding.add(ending);
    const forget = () => this.conn.decoding.delete(ending);
    void ending.then(forget, forget);
  }

  /**
   * Confirmation is decided when the scheduler hears of the end (a decoder may have delayed it): a
   * response held now is confirmed later by the transport, never before the scheduler holds it.
   */
  private ended(): void {
    const confirmed = this.conn.framing === undefined || this.seq < this.conn.trusted;
    if (!confirmed) this.host.hold(this);
    if (this.hash === undefined) this.host.scheduler.responseEnded(this.dispatch.id, { bytes: this.bytes, confirmed });
    else this.host.scheduler.responseEnded(this.dispatch.id, { bytes: this.bytes, confirmed, digest: this.hash.digest('base64') });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }

  /** The request failed with `err`, whether undici or the transport found it. */
  private fail(err: Error): void {
    if (this.done) return;
    this.land();
    if (this.abandoned) return;
    const error = ownError(err);
    const code = (error as { code?: string }).code;
    // On HTTP/1.1 any failure leaves the connection's framing unknown; undici closes it.
    const connectionLevel = this.conn.protocol === 'http/1.1' || this.conn.closed || (code !== undefined && CONNECTION_LEVEL.has(code));
    this.host.scheduler.dispatchFailed(this.dispatch.id, error, connectionLevel);
  }

  /** The scheduler sent the request again elsewhere; out of the transport's table (no timeout, no stall watch). */
  abandon(): void {
    this.abandoned = true;
    this.host.landed(this.dispatch.id);
  }

  /** The total timeout ran out: abort the request (undici then closes an HTTP/1.1 connection). */
  expire(totalMs: number): void {
    if (this.done) return;
    const err = new TransportError('E_REQUEST_TIMEOUT', `the response did not complete within ${totalMs} ms (per-request total timeout)`);
    if (this.controller) this.controller.abort(err);
    else this.fail(err);
  }

  private land(): void {
    this.done = true;
    this.host.landed(this.dispatch.id);
  }
}

/**
 * undici's inactivity timeouts, and an HTTP/2 stream the server refused, as the request's own coded
 * error. Node names a stream's reset code only in its message (`ERR_HTTP2_STREAM_ERROR`, "Stream
 * closed with error code NGHTTP2_REFUSED_STREAM"), and undici passes that error on as it is.
 */
function ownError(err: Error): Error {
  const code = (err as { code?: string }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return new TransportError('E_RESPONSE_STALLED', `no response headers arrived within the inactivity timeout (${err.message})`);
  if (code === 'UND_ERR_BODY_TIMEOUT') return new TransportError('E_RESPONSE_STALLED', `the response body stalled: no byte within the inactivity timeout (${err.message})`);
  if (code === 'ERR_HTTP2_STREAM_ERROR' && err.message.includes('NGHTTP2_REFUSED_STREAM')) return new TransportError(STREAM_REFUSED, `the server refused the stream unprocessed (${err.message})`);
  return err;
}
