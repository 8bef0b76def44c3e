import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Dispatcher, Client as UndiciClient } from 'undici';
import Client from 'undici/lib/dispatcher/client';
import type { HttpProtocol } from '../../src/core/http-protocol';
import { PEER_STREAMS_BEFORE_SETTINGS, type Dispatch, type OpenOptions, type TransportHandler, type TransportPort } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { Flight, type FlightHost } from './flight';
import { FlightDeadlines } from './flight-deadlines';
import { guardSocket, suspectQuietMs } from './guarded-socket';
import { warmUpH1 } from './h1-warm-up';
import { warmUpH2 } from './h2-warm-up';
import { RequestHeaders } from './request-headers';
import { ResponseFraming } from './response-framing';
import type { ResponseHooks } from './response-hooks';
import { pingH2, watchH2Session } from './h2-session';
import { H2_WINDOW_OPTIONS } from './h2-flow-windows';
import { loopBusyMs } from './loop-busy';
import { StallWatch } from './stall-watch';
import { TickCork } from './tick-cork';
import { TimingConnector, type Now, type TimingConnectorOptions } from './timing-connector';
import { TransportError } from './transport-errors';
import { UnconfirmedResponses } from './unconfirmed-responses';

export interface UndiciTransportOptions extends Omit<TimingConnectorOptions, 'allowH2'>, ResponseHooks {
  /** Called once per connection that completed its handshake. */
  onHandshake?: (record: HandshakeRecord) => void;
  /** Called when a connection attempt fails. */
  onConnectError?: (origin: string, connectionId: number, error: unknown) => void;
  /** Sent as User-Agent. @default 'getlist/<version>' */
  userAgent?: string;
  /**
   * Per-request inactivity timeout, ms: no response headers, or no body byte, for this long fails
   * the request with `E_RESPONSE_STALLED`. @default 30000
   */
  requestTimeoutMs?: number;
  /**
   * Per-request total timeout, ms, from when the request is written: a response not complete by
   * then fails with `E_REQUEST_TIMEOUT` (a slow-loris or endless body). @default 60000
   */
  requestTotalTimeoutMs?: number;
  /** A response head longer than this fails with `E_BAD_RESPONSE`. @default 65536 */
  maxResponseHeadBytes?: number;
  now?: Now;
}

interface Conn {
  id: number;
  origin: string;
  socket: Socket;
  client: Client | undefined;
  protocol: HttpProtocol;
  /** First status line's version (HTTP/1.x only). */
  version: string | undefined;
  maxOutstanding: number;
  /** Send RFC 9218 `priority` fields (h2 connections only). */
  prioritySignals: boolean;
  closed: boolean;
  framing: ResponseFraming | undefined;
  trusted: number;
  held: UnconfirmedResponses;
  /** The TCP handshake time, ms: one round trip. */
  rttMs: number;
  /** An https: origin. */
  secure: boolean;
  /** HTTP/1.1: the socket is corked until this tick's requests are written (tick-cork.ts). */
  corked: boolean;
  /** Progress of its oldest response (stall-watch.ts). */
  progress: number;
  windowAt: number;
  stallReported: boolean;
  quietProbes: number;
  /** Responses whose end waits for their body's decoder (flight.ts `FlightConn.decoding`). */
  decoding: Set<Promise<void>>;
  /** flight.ts `FlightConn.readBusyAt`. */
  readBusyAt: number;
}

/**
 * The scheduler's transport on undici: one `Client` per connection, each handed a socket this
 * transport already connected and timed, and never allowed to reconnect on its own — a request is
 * bound to a connection only by the scheduler, and only once that connection is up.
 */
export class UndiciTransport implements TransportPort, FlightHost {
  private attached: TransportHandler | undefined;
  private readonly conns = new Map<number, Conn>();
  private readonly flights = new Map<number, Flight>();
  private readonly connectors = new Map<boolean, TimingConnector>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly cork = new TickCork();
  private readonly deadlines: FlightDeadlines;
  private readonly stalls: StallWatch;
  private readonly headers: RequestHeaders;
  private closed = false;
  /**
   * Aborted by `close()` to stop connects still handshaking. Every opening connection listens to it,
   * so a page with many origins legitimately has more than Node's default 10 listeners.
   */
  private readonly closing = unboundedAbortController();

  constructor(readonly options: UndiciTransportOptions = {}) {
    this.deadlines = new FlightDeadlines(this.flights, options.requestTotalTimeoutMs ?? 60_000);
    this.stalls = new StallWatch(
      this.flights,
      (id) => {
        if (!this.closed) this.scheduler.responseStalled(id);
      },
      (id) => {
        const f = this.flights.get(id);
        const conn = f ? this.conns.get(f.dispatch.connectionId) : undefined;
        if (!this.closed && conn?.client && !conn.closed) pingH2(conn.client);
      },
    );
    this.headers = new RequestHeaders(options.userAgent ?? 'getlist/0.1');
  }

  /** The handler to answer (the scheduler); set once, before the first request is enqueued. */
  attach(handler: TransportHandler): void {
    this.attached = handler;
  }

  get scheduler(): TransportHandler {
    if (!this.attached) throw new Error('UndiciTransport used before attach(scheduler)');
    return this.attached;
  }

  landed(dispatchId: number): void {
    this.flights.delete(dispatchId);
  }

  hold(flight: Flight): void {
    this.conns.get(flight.dispatch.connectionId)?.held.add(flight.seq, flight.dispatch.id);
  }

  /**
   * HTTP/1.1: undici reads the connection through the framing guard (guarded-socket.ts), which
   * confirms responses as the connection proves in step and reports framing failures before
   * undici can parse a byte of them.
   */
  private guard(conn: Conn, socket: Socket): void {
    const framing = new ResponseFraming(this.options.maxResponseHeadBytes !== undefined ? { maxHeadBytes: this.options.maxResponseHeadBytes } : {});
    conn.framing = framing;
    guardSocket(socket, framing, {
      onTrusted: (completed) => this.trusted(conn, completed),
      onFailure: (err) => this.framingFailed(conn, err),
      quietMs: () => suspectQuietMs(conn.rttMs),
    });
  }

  private trusted(conn: Conn, completed: number): void {
    conn.trusted = completed;
    conn.held.confirm(completed, this.confirmed);
  }

  private readonly confirmed = (dispatchId: number): void => {
    if (!this.closed) this.scheduler.responseConfirmed(dispatchId);
  };

  /**
   * The response the guard blames (a bad head) fails with its own error and the rest of the
   * connection is collateral; a desync blames no one: everything unconfirmed is fetched again.
   */
  private framingFailed(conn: Conn, err: TransportError): void {
    if (conn.closed || this.closed) return;
    conn.closed = true;
    this.conns.delete(conn.id);
    conn.held.clear();
    const culprit = err.responseIndex === undefined ? undefined : [...this.flights.values()].find((f) => f.dispatch.connectionId === conn.id && f.seq === err.responseIndex);
    if (culprit) this.scheduler.dispatchFailed(culprit.dispatch.id, err, true);
    else this.scheduler.connectionClosed(conn.id, err);
    if (conn.client) void conn.client.destroy().catch(() => undefined);
  }

  private connector(allowH2: boolean): TimingConnector {
    let c = this.connectors.get(allowH2);
    if (!c) {
      // undici's first-use costs are paid in the SYN's round trip: HTTP/1.1 for a plain-HTTP
      // connection, HTTP/2 for a TLS one that may speak it.
      const afterSyn = (secure: boolean) => {
        if (!secure) void warmUpH1(handedClient);
        else if (allowH2) void warmUpH2((origin, socket) => handedClient(origin, socket, () => false, origin, { allowH2: true }));
        this.options.afterSyn?.(secure);
      };
      c = new TimingConnector({ ...this.options, allowH2, afterSyn }, this.options.now);
      this.connectors.set(allowH2, c);
    }
    return c;
  }

  openConnection(id: number, origin: string, options: OpenOptions): void {
    const p = this.connector(options.allowH2)
      .open(origin, id, this.closing.signal)
      .then(
        ({ socket, handshake }) => {
          if (this.closed) {
            socket.destroy();
            return;
          }
          const conn: Conn = {
            id, origin, socket, client: undefined, protocol: handshake.protocol, version: undefined, maxOutstanding: options.maxOutstanding,
            prioritySignals: options.prioritySignals === true && handshake.protocol === 'h2', closed: false,
            framing: undefined, trusted: 0, held: new UnconfirmedResponses(), rttMs: handshake.tcpMs > 0 ? handshake.tcpMs : 0,
            secure: origin.startsWith('https:'), corked: false, progress: 0, windowAt: 0, stallReported: false, quietProbes: 0, decoding: new Set(),
            readBusyAt: loopBusyMs(),
          };
          if (handshake.protocol === 'http/1.1') this.guard(conn, socket);
          this.conns.set(id, conn);
          conn.socket.on('error', () => undefined); // 'close' follows; the cause reaches requests via undici
          // After undici's own `close` listener: it first fails the request it was reading with
          // the real cause (a timeout, a reset), and only the rest are lost with the connection.
          conn.socket.once('close', () => queueMicrotask(() => this.lost(conn, new TransportError('E_CONNECTION_GONE', `connection ${id} to ${origin} closed`))));
          this.options.onHandshake?.(handshake);
          this.scheduler.connectionReady(id, { protocol: handshake.protocol, handshakeRttMs: handshake.tcpMs > 0 ? handshake.tcpMs : undefined, ...(handshake.loopDelayMs !== undefined ? { loopDelayMs: handshake.loopDelayMs } : {}) });
        },
        (err: unknown) => {
          this.options.onConnectError?.(origin, id, err);
          if (!this.closed) this.scheduler.connectionFailed(id, err);
        },
      )
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  send(dispatch: Dispatch): void {
    const conn = this.conns.get(dispatch.connectionId);
    if (!conn || conn.closed) {
      queueMicrotask(() => this.scheduler.dispatchFailed(dispatch.id, new TransportError('E_CONNECTION_GONE', 'connection closed before the request was written')));
      return;
    }
    this.write(conn, dispatch);
  }

  private write(conn: Conn, dispatch: Dispatch): void {
    const client = conn.client ?? this.clientFor(conn);
    const req = dispatch.request;
    this.stalls.written(conn, conn.framing?.inStep === true);
    const flight = new Flight(this, dispatch, conn, conn.framing ? conn.framing.expect(req.method) : -1);
    this.flights.set(dispatch.id, flight);
    this.deadlines.start(flight);
    const keepAlive = dispatch.keepAlive;
    if (conn.protocol === 'http/1.1') this.cork.cork(conn);
    client.dispatch(
      {
        origin: conn.origin,
        path: req.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: this.headers.for(req.resourceType, conn.secure, conn.prioritySignals ? req.priority : undefined),
        // The scheduler decides what is pipelined; undici must not hold requests back itself.
        blocking: false,
        // `reset: true` sends `Connection: close`. HEAD must say false explicitly or undici closes.
        reset: !keepAlive,
        idempotent: req.idempotent,
        headersTimeout: this.options.requestTimeoutMs ?? 30_000,
        bodyTimeout: this.options.requestTimeoutMs ?? 30_000,
      },
      flight,
    );
    this.options.onSent?.(dispatch, conn.rttMs > 0 ? conn.rttMs : undefined);
  }

  pause(dispatchId: number): void {
    const f = this.flights.get(dispatchId);
    if (!f || f.paused) return;
    f.paused = true;
    f.controller?.pause();
  }

  resume(dispatchId: number): void {
    const f = this.flights.get(dispatchId);
    if (!f || !f.paused) return;
    f.paused = false;
    // The scheduler calls this from inside another response's callbacks, i.e. while some
    // connection's HTTP/1.1 parser is executing; undici's parser resume asserts that none is
    // (a module-wide "current parser"), so resuming in place would throw and leave the body
    // paused for ever. Resume once the current parse has unwound.
    queueMicrotask(() => {
      if (!f.paused) f.controller?.resume();
    });
  }

  abandon(dispatchId: number): void {
    this.flights.get(dispatchId)?.abandon();
  }

  closeConnection(id: number): void {
    const conn = this.conns.get(id);
    if (!conn) return;
    // Closed by the scheduler once every request on it was answered, with no surplus seen (the
    // scheduler does not retire a connection whose responses are held; see its `retire`).
    if (conn.framing) this.trusted(conn, conn.framing.completed);
    conn.closed = true;
    this.conns.delete(id);
    if (conn.client) void conn.client.destroy().catch(() => undefined);
    else conn.socket.destroy();
  }

  /** Closes every connection, including ones still handshaking. */
  async close(): Promise<void> {
    this.closed = true;
    this.deadlines.stop();
    this.stalls.stop();
    this.closing.abort();
    for (const id of [...this.conns.keys()]) this.closeConnection(id);
    await Promise.allSettled([...this.pending]);
  }

  private clientFor(conn: Conn): Client {
    const client = handedClient(conn.origin, conn.socket, () => conn.closed, `connection ${conn.id} to ${conn.origin}`, {
      allowH2: conn.protocol === 'h2',
      pipelining: Math.max(1, conn.maxOutstanding),
      // The streams Node lets out before the server's SETTINGS arrive (its `peerMaxConcurrentStreams`);
      // the scheduler keeps to the same number, then to the SETTINGS' own.
      maxConcurrentStreams: Math.max(1, Math.min(conn.maxOutstanding, PEER_STREAMS_BEFORE_SETTINGS)),
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      ...(conn.protocol === 'h2' ? H2_WINDOW_OPTIONS : {}),
    });
    client.on('disconnect', (_origin, _targets, err) => this.lost(conn, err));
    if (conn.protocol === 'h2') {
      const live = () => !conn.closed && !this.closed;
      watchH2Session(client, {
        onSettings: (s) => {
          if (live() && s.maxConcurrentStreams !== undefined) this.scheduler.connectionSettings?.(conn.id, { maxConcurrentStreams: s.maxConcurrentStreams });
        },
        onGoingAway: (lastStreamId) => {
          if (live()) this.scheduler.connectionDraining?.(conn.id, { lastStreamId });
        },
      });
    }
    conn.client = client;
    return client;
  }

  private lost(conn: Conn, err: unknown): void {
    if (conn.closed) return;
    conn.closed = true;
    this.conns.delete(conn.id);
    if (conn.client) void conn.client.destroy().catch(() => undefined);
    if (this.closed) return;
    // A response undici had whole may still be decoding (a compressed body the server closed the
    // connection right after): it ends first, or the close would lose it with the connection.
    if (conn.decoding.size === 0) this.scheduler.connectionClosed(conn.id, err);
    else void Promise.allSettled([...conn.decoding]).then(() => {
      if (!this.closed) this.scheduler.connectionClosed(conn.id, err);
    });
  }
}

/**
 * undici's `Client` on one socket this transport already holds, handed over once: undici never
 * dials (test/connection-gate-lint.test.ts). A socket gone (or `gone()`) by then fails the connect
 * with `E_CONNECTION_GONE`, and the scheduler reconnects.
 */
export function handedClient(origin: string, socket: Duplex, gone: () => boolean = () => false, name = origin, options: Omit<UndiciClient.Options, 'connect'> = {}): Client {
  let handed = false;
  return new Client(origin, {
    ...options,
    // undici's resume loop is not re-entrant: a connector must call back asynchronously, or
    // the request that triggered the connect is never written.
    connect: (_opts, cb) => {
      process.nextTick(() => {
        if (handed || gone() || socket.destroyed) {
          cb(new TransportError('E_CONNECTION_GONE', `${name} is gone; the scheduler reconnects`), null);
          return;
        }
        handed = true;
        cb(null, socket as Socket);
      });
    },
  });
}

function unboundedAbortController(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
}
