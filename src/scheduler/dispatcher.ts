import type { ConnState, DispatchState, OriginState } from './connection-state';
import { connectionsToOpen, expectedBodyBytes, pickConnection } from './dispatch-policy';
import { RESPONSE_ERROR_CODES, SchedulerError, errorCodeOf, toErrorInfo, type ResponseErrorCode } from './errors';
import { orderProbeConnection, orderProbeRequest } from './order-probe';
import { isLowLatency } from '../core/priority';
import { isPipelinable, type ScheduledRequest } from './request';
import { markIdle, retryConnection, roomForRetry, streamForRetry } from './idle-race';
import { pairIfIndistinct } from './response-fingerprint';
import { MAX_SENDS, decideRetry, finalCodeOf, isFinalError, lostError } from './retry-policy';
import type { Dispatching, SchedulerContext, SchedulerParts } from './scheduler-parts';
import { STREAM_REFUSED } from './transport-port';

/**
 * The pump: binds waiting requests to connections that have room, and keeps every dispatch (one
 * attempt of a request on a connection) until it settles.
 *
 * A request is bound only to a connection that is ready and has room (dispatch-policy.ts), so it
 * never waits on one handshake while another connection is free (McManus, "Separating HTTP
 * Connections from TCP Connections"); connections are opened speculatively, within the origin's
 * limit, for the demand ready ones cannot absorb.
 *
 * Invariants: each origin is re-decided at most once per pump (`dirty`), after whatever changed
 * it; the pump is re-entrancy safe — a transport that answers synchronously only adds to the dirty
 * list; a dispatch is in `dispatches` exactly while it is unsettled.
 */
export class Dispatcher implements Dispatching {
  private readonly dispatches = new Map<number, DispatchState>();
  /** Origins whose queues or connections changed since the last pump (each at most once). */
  private readonly dirty: OriginState[] = [];
  private nextDispatchId = 1;
  pumping = false;
  closed = false;
  urgent = 0;

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly parts: SchedulerParts,
  ) {}

  /** An unsettled dispatch by id; undefined once settled (late transport events are ignored). */
  get(dispatchId: number): DispatchState | undefined {
    return this.dispatches.get(dispatchId);
  }

  markDirty(o: OriginState): void {
    if (!o.dirty) {
      o.dirty = true;
      this.dirty.push(o);
    }
    this.pump();
  }

  /** No more pumps: what is pending is being failed (`Scheduler.close`). */
  close(): void {
    this.closed = true;
  }

  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      for (let i = 0; i < this.dirty.length; i++) {
        const o = this.dirty[i] as OriginState;
        o.dirty = false;
        this.dispatchOrigin(o, this.ctx.clock.now());
      }
      if (this.dirty.length > 0) this.dirty.length = 0;
      this.parts.pacing.updatePauses(this.dispatches, this.urgent);
    } finally {
      this.pumping = false;
    }
    this.parts.ledger.notifyIdle();
  }

  private dispatchOrigin(o: OriginState, now: number): void {
    if (o.retries.size > 0) this.sendRetries(o, now);
    const probeOn = orderProbeConnection(o, this.ctx.strategy, now);
    if (probeOn) this.sendOrderProbe(o, probeOn, now);
    while (o.queue.size > 0) {
      const req = o.queue.peek() as ScheduledRequest;
      const c = pickConnection(o, req, this.ctx.strategy, now);
      if (!c) break;
      o.queue.shift();
      this.parts.ledger.dequeued();
      this.send(c, req, false, now);
    }
    markIdle(o, now);
    const pacing = this.parts.pacing;
    const want = connectionsToOpen(o, this.ctx.strategy, pacing.demandHandshakeMs(), pacing.demandRoom(o));
    for (let i = 0; i < want; i++) this.parts.connections.open(o);
    o.warm = 0;
    o.warmWindows = 0;
  }

  /**
   * A retried request goes first: on HTTP/2 as a stream wherever there is room (idle-race.ts
   * `streamForRetry`); on HTTP/1.1 alone on an idle connection — a never-used one when there is
   * one, and only such a one after an idle close raced it (idle-race.ts) — and nothing is pipelined
   * behind it until it completes (RFC 9112 §9.3.2); the connection that lost it is closed, so it is
   * always a different one. After a desync, only once what the connection carried is trusted
   * (dispatch-policy.ts `roomFor`). A retry no idle connection may take keeps its place in line
   * without holding up the ones behind it that one may.
   */
  private sendRetries(o: OriginState, now: number): void {
    let idle = o.conns.filter((c) => c.state === 'ready' && !c.draining && c.outstanding.length === 0 && (c.held === 0 || !o.desynced));
    const waiting: ScheduledRequest[] = [];
    while (o.retries.size > 0) {
      const req = o.retries.shift() as ScheduledRequest;
      const stream = streamForRetry(o, req, this.ctx.strategy, now);
      if (stream) {
        this.send(stream, req, true, now);
        idle = idle.filter((c) => c !== stream);
        continue;
      }
      const { target, stale } = retryConnection(idle, req, now);
      for (const c of stale) this.retire(c);
      if (stale.length > 0) idle = idle.filter((c) => !stale.includes(c));
      if (!target) {
        waiting.push(req);
        continue;
      }
      this.send(target, req, true, now);
      idle = idle.filter((c) => c !== target);
    }
    for (const req of waiting) o.retries.push(req);
    if (waiting.length > 0) this.makeRoomForRetry(o, idle, now);
  }

  /** A retry waits for a new connection the origin's limit leaves no room for: an idle one is closed for it. */
  private makeRoomForRetry(o: OriginState, idle: readonly ConnState[], now: number): void {
    const pacing = this.parts.pacing;
    const canOpen = connectionsToOpen(o, this.ctx.strategy, pacing.demandHandshakeMs(), pacing.demandRoom(o)) > 0;
    const room = roomForRetry(o, idle, now, canOpen);
    if (room) this.retire(room);
  }

  /** Closes an idle connection, at once or, while a response on it waits to be trusted, once it is (connection-lifecycle.ts `retire`). */
  private retire(c: ConnState): void {
    c.draining = true;
    this.parts.connections.retire(c);
  }

  /** A `HEAD` of the next waiting URL, then its `GET` right behind it (order-probe.ts). */
  private sendOrderProbe(o: OriginState, c: ConnState, now: number): void {
    const target = o.queue.shift() as ScheduledRequest;
    this.parts.ledger.dequeued();
    o.orderProbeSent = true;
    this.ctx.counters.orderProbes += 1;
    this.send(c, orderProbeRequest(target, now), false, now);
    this.send(c, target, false, now);
  }

  /** Writes `req` on `c`; `gate`: a retry, with nothing pipelined behind it until it completes. */
  private send(c: ConnState, req: ScheduledRequest, gate: boolean, now: number): void {
    const { strategy, sizes, counters } = this.ctx;
    const d: DispatchState = {
      id: this.nextDispatchId++,
      conn: c,
      connectionId: c.id,
      keepAlive: strategy.connections.keepAlive,
      request: req,
      pipelined: c.protocol === 'http/1.1' && c.outstanding.length > 0,
      reused: c.carried > 0,
      sentAt: now,
      firstByteAt: undefined,
      status: undefined,
      httpVersion: undefined,
      contentLength: undefined,
      blocksPipeline: !isPipelinable(req.method) || sizes.expected(req) >= sizes.largeBytes,
      paused: false,
      settled: false,
      earlyHints: undefined,
      aheadUnanswered: undefined,
      contentType: undefined,
      fingerprint: this.parts.acceptance.wantsFingerprint(c, req, now),
      responseFingerprint: undefined,
      pair: undefined,
      idleMs: c.idleSince === undefined ? undefined : now - c.idleSince,
      alone: c.state === 'ready' && c.outstanding.length === 0,
    };
    c.idleSince = undefined;
    const ahead = c.protocol === 'http/1.1' ? c.outstanding[c.outstanding.length - 1] : undefined;
    if (ahead !== undefined && ahead.firstByteAt === undefined) {
      d.aheadUnanswered = ahead;
      // A pair no `Content-Type` could tell apart: its results wait for the fingerprints.
      if (c.origin.health.state(now) === 'probing') pairIfIndistinct(ahead, d);
    }
    if (d.blocksPipeline) c.blockers += 1;
    c.expectedBytes += expectedBodyBytes(req);
    if (isLowLatency(req.priority)) this.urgent += 1;
    req.state = 'sent';
    req.attempts += 1;
    c.outstanding.push(d);
    c.carried += 1;
    if (!strategy.connections.keepAlive || (c.budget !== undefined && c.carried >= c.budget)) c.draining = true;
    if (gate && c.protocol === 'http/1.1') c.gate = d;
    this.dispatches.set(d.id, d);
    counters.dispatches += 1;
    this.ctx.transport.send(d);
  }

  sendAgain(d: DispatchState, why: SchedulerError): void {
    const req = d.request;
    if (req.orderProbe) return; // the scheduler's own probe: the proof it sought is void with it
    if (req.attempts >= MAX_SENDS) {
      this.parts.ledger.settle(req, { dispatch: d, bytes: 0, doneAt: this.ctx.clock.now(), error: why });
      return;
    }
    req.retrying = true;
    req.state = 'queued';
    d.conn.origin.retries.push(req);
    this.ctx.counters.retries += 1;
    this.markDirty(d.conn.origin);
  }

  settleDispatch(d: DispatchState): void {
    d.settled = true;
    if (d.blocksPipeline) d.conn.blockers -= 1;
    d.conn.expectedBytes -= expectedBodyBytes(d.request);
    if (isLowLatency(d.request.priority)) this.urgent -= 1;
    this.dispatches.delete(d.id);
    const i = d.conn.outstanding.indexOf(d);
    if (i >= 0) d.conn.outstanding.splice(i, 1);
    if (d.conn.gate === d) d.conn.gate = undefined;
    this.parts.pacing.dispatchSettled(d);
  }

  loseDispatch(d: DispatchState, error: unknown, discarded = false): void {
    if (!d.settled) this.settleDispatch(d);
    const req = d.request;
    // The scheduler's own probe is never retried: the proof it sought is void with it.
    if (req.orderProbe) return;
    const code = errorCodeOf(error);
    // An answer arrived and could not be used (discarded with a desync, a bad response): the cause
    // to report if a later send is only lost.
    if ((discarded && d.firstByteAt !== undefined) || code === 'E_BAD_RESPONSE') req.answerError = error;
    const responseStarted = d.firstByteAt !== undefined || code === 'E_BAD_RESPONSE';
    const decision = this.closed
      ? 'fail'
      : decideRetry({
          idempotent: req.idempotent,
          sends: req.attempts,
          failedAttempts: req.failedAttempts,
          reused: d.reused,
          idled: d.idleMs !== undefined,
          responseStarted,
          discarded,
        }, error);
    if (decision !== 'fail') {
      // Lost unanswered, written first on a used or idle connection: an idle close may have raced it
      // (idle-race.ts). One pipelined behind another met a close mid-pipeline, not an idle one.
      const raced = !responseStarted && !discarded && !d.pipelined && (d.reused || d.idleMs !== undefined);
      this.requeue(req, d.conn.origin, decision, raced ? (d.idleMs ?? 0) : undefined);
      return;
    }
    this.parts.ledger.settle(req, { dispatch: d, bytes: 0, doneAt: this.ctx.clock.now(), error: lostError(req, error) });
  }

  /** `req` goes back to its origin's retries, ahead of everything still queued (`sendRetries`). */
  private requeue(req: ScheduledRequest, o: OriginState, decision: 'requeue' | 'requeue-counted', lostIdleMs: number | undefined): void {
    if (decision === 'requeue-counted') req.failedAttempts += 1;
    req.lostIdleMs = lostIdleMs;
    req.retrying = true;
    req.state = 'queued';
    o.retries.push(req);
    this.ctx.counters.retries += 1;
  }

  /**
   * One attempt failed. `connectionLevel` errors (the socket died) lose every request on the
   * connection; others fail this request alone.
   */
  failed(d: DispatchState, error: unknown, connectionLevel: boolean): void {
    if (connectionLevel) {
      // A timeout or a bad response is this request's own failure; the others on the connection
      // are collateral. A socket error is the connection's: every request on it was lost alike.
      const own = isFinalError(error) || errorCodeOf(error) === 'E_BAD_RESPONSE';
      this.parts.connections.closed(d.conn.id, error, own ? d : undefined);
      if (!d.settled) this.loseDispatch(d, error);
      return;
    }
    // One stream of a multiplexed connection failed; the connection and its other streams go on.
    this.settleDispatch(d);
    const req = d.request;
    const code = errorCodeOf(error);
    const o = d.conn.origin;
    // A stream the server reset is sent again as a lost HTTP/1.1 request is: at once if the server
    // refused it unprocessed, once more if it failed on its way (retry-policy.ts).
    const decision = this.closed ? 'fail' : decideRetry({
      idempotent: req.idempotent,
      sends: req.attempts,
      failedAttempts: req.failedAttempts,
      reused: false,
      idled: false,
      responseStarted: d.firstByteAt !== undefined,
      discarded: false,
      refused: code === STREAM_REFUSED,
    }, error);
    // The last stream of a connection the server is going away from (GOAWAY) was refused: close it.
    this.parts.connections.retireIfDrained(d.conn);
    if (decision !== 'fail') this.requeue(req, o, decision, undefined);
    else {
      const message = toErrorInfo(error).message;
      // A stream's own timeout or bad response (HTTP/2) keeps its code, as on HTTP/1.1.
      const final = finalCodeOf(error);
      const kept = final ?? (code !== undefined && RESPONSE_ERROR_CODES.has(code) ? (code as ResponseErrorCode) : undefined);
      const own = kept ? new SchedulerError(kept, `${message} (after ${req.attempts} attempt(s))`) : new SchedulerError('E_RESPONSE_FAILED', `${message} (after ${req.attempts} attempt(s))`, code);
      this.parts.ledger.settle(req, { dispatch: d, bytes: 0, doneAt: this.ctx.clock.now(), error: own });
    }
    this.markDirty(o);
  }
}
