import type { Dispatcher } from 'undici';
import type { Dispatch, TransportHandler } from '../../src/scheduler';
import type { ResponseHooks } from './response-hooks';

/** What a flight needs from its transport. */
export interface FlightHost {
  readonly scheduler: TransportHandler;
  readonly options: ResponseHooks;
  /** The flight has settled; drop it from the transport's table. */
  landed(dispatchId: number): void;
}

/** The connection a flight travels on, as the transport tracks it. */
export interface FlightConn {
  protocol: 'h2' | 'http/1.1';
  /** First status line's HTTP version (HTTP/1.x only). */
  version: string | undefined;
  closed: boolean;
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
  private bytes = 0;

  constructor(
    private readonly host: FlightHost,
    readonly dispatch: Dispatch,
    readonly conn: FlightConn,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.paused) controller.pause();
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.controller = controller;
    if (statusCode < 200) return; // interim responses are not the response
    const h2 = this.conn.protocol === 'h2';
    const httpVersion = h2 ? '2' : (this.conn.version ?? '1.1');
    const connection = headers['connection'];
    const token = typeof connection === 'string' ? connection.toLowerCase() : '';
    const keepAlive = h2 || (httpVersion === '1.0' ? token.includes('keep-alive') : !token.includes('close'));
    const declared = headers['content-length'];
    const len = typeof declared === 'string' ? Number(declared) : NaN;
    this.host.options.onResponseHead?.(this.dispatch, statusCode, headers);
    this.host.scheduler.responseStarted(this.dispatch.id, Number.isFinite(len) ? { status: statusCode, httpVersion, keepAlive, contentLength: len } : { status: statusCode, httpVersion, keepAlive });
    if (this.paused) controller.pause();
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytes += chunk.length;
    this.host.scheduler.responseData(this.dispatch.id, chunk.length);
    this.host.options.onBody?.(this.dispatch, chunk);
  }

  onResponseEnd(): void {
    this.host.landed(this.dispatch.id);
    this.host.options.onBodyEnd?.(this.dispatch);
    this.host.scheduler.responseEnded(this.dispatch.id, { bytes: this.bytes });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.host.landed(this.dispatch.id);
    const code = (err as { code?: string }).code;
    // On HTTP/1.1 any failure leaves the connection's framing unknown; undici closes it.
    const connectionLevel = this.conn.protocol === 'http/1.1' || this.conn.closed || (code !== undefined && CONNECTION_LEVEL.has(code));
    this.host.scheduler.dispatchFailed(this.dispatch.id, err, connectionLevel);
  }
}
