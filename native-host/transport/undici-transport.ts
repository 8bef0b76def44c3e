import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { Client, type Dispatcher } from 'undici';
import { ACCEPT_ENCODING, acceptFor } from '../../src/discovery';
import type { Dispatch, OpenOptions, TransportHandler, TransportPort } from '../../src/scheduler';
import type { PriorityClass } from '../../src/core/priority';
import { PRIORITY_SIGNALS } from '../../src/scheduler/priority-signal';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { Flight, type FlightHost } from './flight';
import { guardSocket } from './guarded-socket';
import { ResponseFraming } from './response-framing';
import type { ResponseHooks } from './response-hooks';
import { TimingConnector, type Now, type TimingConnectorOptions } from './timing-connector';
import { TransportError } from './transport-errors';

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
  protocol: 'h2' | 'http/1.1';
  /** First status line's version (HTTP/1.x only). */
  version: string | undefined;
  maxOutstanding: number;
  /** Send RFC 9218 `priority` fields (h2 connections only). */
  prioritySignals: boolean;
  closed: boolean;
  framing: ResponseFraming | undefined;
  trusted: number;
  /**
   * Responses that ended before they were confirmed, oldest first from `heldAt`: their index on
   * the connection and their dispatch id. Numbers, not the flights: a suspect connection may hold
   * thousands (everything since its suspicion), and a flight would keep undici's request with it.
   */
  heldSeq: number[];
  heldId: number[];
  heldAt: number;
  /** The TCP handshake time, ms: one round trip. */
  rttMs: number;
  /** An https: origin. */
  secure: boolean;
  /** HTTP/1.1: the socket is corked until this tick's requests are written (`cork`). */
  corked: boolean;
}

/**
 * How long a suspect connection must stay in step and silent before its responses are trusted
 * (guarded-socket.ts). Nothing waits for it on the wire — requests are written meanwhile — but the
 * results of a suspect connection's responses wait for it, so it is kept short. What delays
 * a surplus the server wrote behind the last response is mostly TCP, not the server: with Nagle's
 * algorithm on (the default for a plain socket), the server holds its next small segment until
 * our ACK of the previous one, and our delayed ACK takes up to 40 ms on Linux — so at least 50 ms
 * (measured: the faulty-origin suite's surplus arrives ~40 ms after the response it follows).
 * On long paths, 3 RTTs (the ACK and the held segment each cross the path). At most 250 ms: it
 * delays the results held on the connection. A server that takes longer than that to send
 * its surplus is beyond what any timing can catch (response-framing.ts).
 */
export function suspectQuietMs(rttMs: number): number {
  return Math.min(250, Math.max(50, 3 * rttMs));
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
  private readonly corked: Conn[] = [];
  private closed = false;
  private sweeper: NodeJS.Timeout | undefined;
  /**
   * Aborted by `close()` to stop connects still handshaking. Every opening connection listens to it,
   * so a page with many origins legitimately has more than Node's default 10 listeners.
   */
  private readonly closing = unboundedAbortController();
  /**
   * Headers by destination, as a browser sends them: its `Accept` for the kind of request and its
   * `Accept-Encoding` (so text crosses the link compressed, as it does for a browser; byte counts
   * are wire body bytes), plus on h2 each class's RFC 9218 `priority` field
   * (src/scheduler/priority-signal.ts). Never cookies or credentials. Built once per combination.
   */
  private readonly headers = new Map<string, Record<string, string>>();
  /** The same without a `priority` field (every HTTP/1.1 request), by resource type: no key to build per request. */
  private readonly plainHeaders = { http: new Map<string | undefined, Record<string, string>>(), https: new Map<string | undefined, Record<string, string>>() };
  private readonly prioritySignals: ReadonlyMap<PriorityClass, string> = new Map(PRIORITY_SIGNALS);

  constructor(readonly options: UndiciTransportOptions = {}) {}

  private headersFor(resourceType: string | undefined, secure: boolean, priority: PriorityClass | undefined): Record<string, string> {
    if (priority === undefined) {
      const byType = secure ? this.plainHeaders.https : this.plainHeaders.http;
      let h = byType.get(resourceType);
      if (!h) {
        h = this.headersBuilt(resourceType, secure, undefined);
        byType.set(resourceType, h);
      }
      return h;
    }
    return this.headersBuilt(resourceType, secure, priority);
  }

  private headersBuilt(resourceType: string | undefined, secure: boolean, priority: PriorityClass | undefined): Record<string, string> {
    const accept = acceptFor(resourceType);
    const signal = priority === undefined ? undefined : this.prioritySignals.get(priority);
    const key = `${secure ? 's' : ''}${accept}|${signal ?? ''}`;
    let h = this.headers.get(key);
    if (!h) {
      h = { 'user-agent': this.options.userAgent ?? 'getlist/0.1', accept, 'accept-encoding': acceptEncoding(secure), ...(signal ? { priority: signal } : {}) };
      this.headers.set(key, h);
    }
    return h;
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

  private get totalMs(): number {
    return this.options.requestTotalTimeoutMs ?? 60_000;
  }

  /**
   * Per-request total timeouts without a timer per request (this is the per-request hot path):
   * `flights` is in send order, and every flight has the same timeout, so the oldest expire
   * first. One unref'd interval, running only while flights exist, expires them at most a
   * quarter of the timeout late (at most 1 s).
   */
  private sweepDeadlines(): void {
    if (this.sweeper) return;
    const period = Math.min(1000, Math.max(10, this.totalMs / 4));
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const f of this.flights.values()) {
        if (f.deadlineAt > now) break;
        f.expire(this.totalMs);
      }
      if (this.flights.size === 0 && this.sweeper) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, period);
    this.sweeper.unref();
  }

  hold(flight: Flight): void {
    const conn = this.conns.get(flight.dispatch.connectionId);
    if (!conn) return;
    conn.heldSeq.push(flight.seq);
    conn.heldId.push(flight.dispatch.id);
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
    // An index, not `shift`: a long pipeline may hold thousands before it is first in step.
    const { heldSeq, heldId } = conn;
    while (conn.heldAt < heldSeq.length && (heldSeq[conn.heldAt] as number) < completed) {
      const id = heldId[conn.heldAt++] as number;
      if (!this.closed) this.scheduler.responseConfirmed(id);
    }
    if (conn.heldAt === heldSeq.length) {
      heldSeq.length = 0;
      heldId.length = 0;
      conn.heldAt = 0;
    }
  }

  /**
   * The response the guard blames (a bad head) fails with its own error and the rest of the
   * connection is collateral; a desync blames no one: everything unconfirmed is fetched again.
   */
  private framingFailed(conn: Conn, err: TransportError): void {
    if (conn.closed || this.closed) return;
    conn.closed = true;
    this.conns.delete(conn.id);
    conn.heldSeq = [];
    conn.heldId = [];
    conn.heldAt = 0;
    const culprit = err.responseIndex === undefined ? undefined : [...this.flights.values()].find((f) => f.dispatch.connectionId === conn.id && f.seq === err.responseIndex);
    if (culprit) this.scheduler.dispatchFailed(culprit.dispatch.id, err, true);
    else this.scheduler.connectionClosed(conn.id, err);
    if (conn.client) void conn.client.destroy().catch(() => undefined);
  }

  private connector(allowH2: boolean): TimingConnector {
    let c = this.connectors.get(allowH2);
    if (!c) {
      c = new TimingConnector({ ...this.options, allowH2 }, this.options.now);
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
            framing: undefined, trusted: 0, heldSeq: [], heldId: [], heldAt: 0, rttMs: handshake.tcpMs > 0 ? handshake.tcpMs : 0,
            secure: origin.startsWith('https:'), corked: false,
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
    const flight = new Flight(this, dispatch, conn, conn.framing ? conn.framing.expect(req.method) : -1);
    this.flights.set(dispatch.id, flight);
    flight.deadlineAt = performance.now() + this.totalMs;
    this.sweepDeadlines();
    const keepAlive = dispatch.keepAlive;
    if (conn.protocol === 'http/1.1' && !conn.corked) this.cork(conn);
    client.dispatch(
      {
        origin: conn.origin,
        path: req.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: this.headersFor(req.resourceType, conn.secure, conn.prioritySignals ? req.priority : undefined),
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
  }

  /**
   * HTTP/1.1 requests written in one tick leave in one `writev`: the socket is corked at the
   * first and uncorked once the tick's work is done. A read often completes several pipelined
   * responses on one connection, each freeing a slot the scheduler refills at once; written one
   * by one, each request cost a system call (on loopback, a third of the client's CPU per request
   * and as much again in the server's reads). Uncorking on `nextTick`, not later, adds no wait:
   * the requests leave before the event loop polls again, as they would have.
   */
  private cork(conn: Conn): void {
    conn.corked = true;
    conn.socket.cork();
    this.corked.push(conn);
    if (this.corked.length === 1) process.nextTick(this.uncorkAll);
  }

  private readonly uncorkAll = (): void => {
    const list = this.corked;
    for (let i = 0; i < list.length; i++) {
      const conn = list[i] as Conn;
      conn.corked = false;
      conn.socket.uncork();
    }
    list.length = 0;
  };

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
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.closing.abort();
    for (const id of [...this.conns.keys()]) this.closeConnection(id);
    await Promise.allSettled([...this.pending]);
  }

  private clientFor(conn: Conn): Client {
    let handed = false;
    const client = new Client(conn.origin, {
      // undici's resume loop is not re-entrant: a connector must call back asynchronously, or
      // the request that triggered the connect is never written.
      connect: (_opts, cb) => {
        process.nextTick(() => {
          if (handed || conn.closed || conn.socket.destroyed) {
            cb(new TransportError('E_CONNECTION_GONE', `connection ${conn.id} to ${conn.origin} is gone; the scheduler reconnects`), null);
            return;
          }
          handed = true;
          cb(null, conn.socket);
        });
      },
      allowH2: conn.protocol === 'h2',
      pipelining: Math.max(1, conn.maxOutstanding),
      maxConcurrentStreams: Math.max(1, conn.maxOutstanding),
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
    });
    client.on('disconnect', (_origin, _targets, err) => this.lost(conn, err));
    conn.client = client;
    return client;
  }

  private lost(conn: Conn, err: unknown): void {
    if (conn.closed) return;
    conn.closed = true;
    this.conns.delete(conn.id);
    if (conn.client) void conn.client.destroy().catch(() => undefined);
    if (!this.closed) this.scheduler.connectionClosed(conn.id, err);
  }
}

/**
 * The browser's `Accept-Encoding`: Chromium offers `br` and `zstd` only over https (a proxy on a
 * cleartext path may mangle them), so over http it is `gzip, deflate`. `zstd` only where this Node
 * can decode it (22.15+).
 */
export function acceptEncoding(secure: boolean): string {
  if (!secure) return 'gzip, deflate';
  return typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function' ? `${ACCEPT_ENCODING}, zstd` : ACCEPT_ENCODING;
}

function unboundedAbortController(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
}
