import type { HttpProtocol } from '../core/http-protocol';
import type { ScheduledRequest } from './request';

/**
 * What the scheduler asks of a transport (downward). The transport answers through the
 * `TransportHandler` it is given (upward), asynchronously or re-entrantly (the scheduler tolerates
 * both).
 */
export interface TransportPort {
  /** Start opening connection `id` to `origin`; answer with `connectionReady` or `connectionFailed`. */
  openConnection(id: number, origin: string, options: OpenOptions): void;
  /**
   * Write a request on a ready connection; answer with `responseStarted`, then `responseData` for
   * body chunks as they arrive (optional: only path sizing uses it), then `responseEnded` (and
   * `responseConfirmed` if it ended unconfirmed) — or `dispatchFailed`.
   */
  send(dispatch: Dispatch): void;
  /** Stop reading this response's body (the receive window closes); idempotent. */
  pause(dispatchId: number): void;
  /** Resume reading a paused response body; idempotent. */
  resume(dispatchId: number): void;
  /**
   * The scheduler sends this dispatch's request again elsewhere (it waited behind a stalled
   * response): its response may still arrive on its connection, in order, and must be read and
   * reported to no one. Idempotent.
   */
  abandon(dispatchId: number): void;
  /** Close a connection; outstanding dispatches on it fail. Answer with `connectionClosed` (may be omitted). */
  closeConnection(id: number): void;
}

/**
 * What a transport reports back (upward), as undici declares its `DispatchHandler` beside the
 * `Dispatcher`: the `Scheduler` implements it, and a transport names only this interface, never the
 * concrete scheduler. Every callback is keyed by the id the scheduler chose; an unknown or already
 * settled id is ignored, so late events after a close are harmless.
 */
export interface TransportHandler {
  /** Connection `id` completed its handshake and may carry requests. */
  connectionReady(connectionId: number, info: ConnectionInfo): void;
  /**
   * HTTP/2: the server's SETTINGS on connection `id` (RFC 9113 §6.5.2), whenever a SETTINGS frame
   * arrives. Optional: a transport that cannot read them leaves the connection at
   * {@link PEER_STREAMS_BEFORE_SETTINGS} streams.
   */
  connectionSettings?(connectionId: number, info: PeerSettings): void;
  /**
   * HTTP/2: the server sent GOAWAY without an error (RFC 9113 §6.8): it opens no new stream on
   * connection `id`, the streams up to `lastStreamId` finish, and those above it are refused
   * ({@link STREAM_REFUSED}). Optional: a transport without it loses those streams with the
   * connection.
   */
  connectionDraining?(connectionId: number, info: { lastStreamId: number }): void;
  /** Connection `id` could not be opened. */
  connectionFailed(connectionId: number, error: unknown): void;
  /** Connection `id` is gone (peer close, reset, or our own close); its outstanding requests are lost. */
  connectionClosed(connectionId: number, error?: unknown): void;
  /** A final (non-1xx) response head arrived for a dispatch. */
  responseStarted(dispatchId: number, info: ResponseStartInfo): void;
  /**
   * `bytes` more body bytes of a dispatch were read, at most `lateMs` after they arrived: the time
   * the process was busy before the read (peak-delivery.ts). Omitted: read as they arrived.
   */
  responseData(dispatchId: number, bytes: number, lateMs?: number): void;
  /** A dispatch's response is complete (and trusted, unless `info.confirmed` is false). */
  responseEnded(dispatchId: number, info: ResponseEndInfo): void;
  /** A response that ended unconfirmed is trusted now: the connection was in step after it. */
  responseConfirmed(dispatchId: number): void;
  /**
   * HTTP/1.1: this dispatch's response, the oldest on its connection, has made no progress for a
   * while (the transport's stall watch); whatever was written behind it waits for all of it.
   */
  responseStalled(dispatchId: number): void;
  /**
   * A dispatch failed. `connectionLevel` (default true) says its connection went with it, so the
   * other requests on that connection are lost as well. An error coded {@link STREAM_REFUSED}
   * says the server did not process the request at all.
   */
  dispatchFailed(dispatchId: number, error: unknown, connectionLevel?: boolean): void;
}

/**
 * The code of a dispatch's error when an HTTP/2 server reset its stream with REFUSED_STREAM: the
 * request was not processed and may be sent again, whatever its method (RFC 9113 §8.7).
 */
export const STREAM_REFUSED = 'E_STREAM_REFUSED';

/**
 * Streams an HTTP/2 connection carries at once until the server's SETTINGS say how many it takes:
 * RFC 9113 §6.5.2 asks servers to allow at least 100, and nghttp2 holds a client to 100 until the
 * first SETTINGS frame for the same reason (`nghttp2_option_set_peer_max_concurrent_streams`).
 * More, sent before the SETTINGS arrive, are refused by a server that allows 100, or cost the whole
 * connection (test/zoo/zoo-stream-limit.test.ts).
 */
export const PEER_STREAMS_BEFORE_SETTINGS = 100;

/** What the scheduler reads of an HTTP/2 server's SETTINGS. */
export interface PeerSettings {
  /** SETTINGS_MAX_CONCURRENT_STREAMS, when the server sent one. */
  maxConcurrentStreams?: number;
}

export interface OpenOptions {
  /** Offer HTTP/2 by ALPN (https: only). */
  allowH2: boolean;
  /** Maximum requests the connection may have outstanding (pipelining depth / stream limit). */
  maxOutstanding: number;
  /**
   * Send each request's priority class as an RFC 9218 `priority` header field on HTTP/2
   * (priority-signal.ts). Optional: transports without it send none.
   */
  prioritySignals?: boolean;
}

/** One attempt of a request on one connection. */
export interface Dispatch {
  readonly id: number;
  readonly connectionId: number;
  readonly request: ScheduledRequest;
  /** Written while an earlier response on the same connection is unfinished. */
  readonly pipelined: boolean;
  /** `false` asks the server to close after this response (HTTP/1.0-style). */
  readonly keepAlive: boolean;
  /**
   * Report a digest of the response body (`ResponseEndInfo.digest`): asked only on origins not
   * yet proven to keep order (response-fingerprint.ts), so a proven origin's responses cost nothing.
   */
  readonly fingerprint: boolean;
}

export interface ConnectionInfo {
  /** ALPN result (`http/1.1` on plain http). */
  protocol: HttpProtocol;
  /** How long the TCP handshake took (one round trip), when the transport measured it. */
  handshakeRttMs?: number;
  /**
   * The most of the handshake's time that was this process's own event loop being busy (the
   * record's `loopDelayMs`: TLS crypto of connections opening together, parsing): time that says
   * nothing about the path.
   */
  loopDelayMs?: number;
}

export interface ResponseStartInfo {
  status: number;
  /** `1.0`, `1.1` or `2`. */
  httpVersion: string;
  /** False when the server will close after this response (`Connection: close`, or HTTP/1.0 without keep-alive). */
  keepAlive: boolean;
  /** Declared body length, when the server sent one. */
  contentLength?: number;
  /** `max=N` of a `Keep-Alive` header: requests the server allows on this connection after this one. */
  keepAliveMax?: number;
  /** The response's `Content-Type`, when sent. */
  contentType?: string;
  /** `Link` values of `103 Early Hints` responses that came before this one. */
  earlyHints?: string[];
}

export interface ResponseEndInfo {
  bytes: number;
  /**
   * `false` when the response is complete but not yet trusted: on HTTP/1.1 a response is only
   * known to belong to its request once the connection has been in step after it (no surplus
   * response followed). The transport then answers with `responseConfirmed`, or loses it with the
   * connection (`connectionClosed` with an `E_DESYNC` error). @default true
   */
  confirmed?: boolean;
  /**
   * A digest of the body bytes as received (any collision-resistant hash, the same for every
   * response of one transport), when the dispatch asked for it (`Dispatch.fingerprint`). A
   * transport that cannot hash omits it: the response then gets no fingerprint.
   */
  digest?: string;
}

/** Time source. Tests pass a fake one; the host passes `performance.now`. */
export interface Clock {
  now(): number;
}
