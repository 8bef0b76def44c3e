import { isBadPort } from '../targets/bad-ports';
import { createOrigin, type ConnState, type DispatchState, type HeldResponse, type OriginState } from './connection-state';
import { contentTypeContradicts, expectedFamily, isOrderProof } from './content-type-check';
import { DeliveryMeter } from './delivery-meter';
import { connectionsToOpen, pickConnection } from './dispatch-policy';
import { SchedulerError, errorCodeOf, toErrorInfo } from './errors';
import { HeldResponses } from './held-responses';
import { LoadPath } from './load-path';
import { LowLatencyPauser } from './low-latency-pauser';
import { decidePathSize, measureFirstFlight, type PathSizing } from './path-sizing';
import type { OriginMemory } from '../origins/origin-memory';
import { OriginLearner, recallOrigin } from './origin-recall';
import { isFramingProof, orderProbeConnection, orderProbeRequest } from './order-probe';
import type { DemotionReason } from './pipeline-health';
import { isLowLatency } from '../core/priority';
import { createRequest, isPipelinable, type RequestResult, type RequestSpec, type ScheduledRequest } from './request';
import { MemoryBudgets, applyBudget, keepAliveBudget, observeBudget, type BudgetObservation, type OriginBudgets } from './request-budget';
import { RememberedBudgets } from './remembered-budgets';
import { RequestUrls } from './request-url';
import { toResult } from './request-result';
import { canPair, fingerprintOf, pairVerdict, type FingerprintPair, type PairEnd } from './response-fingerprint';
import { collateralError, decideRetry, isDesync, isFinalError, lostError } from './retry-policy';
import { validateStrategy, type Strategy } from './strategies';
import { noteStreamData } from './stream-stall';
import type { Clock, ConnectionInfo, ResponseEndInfo, ResponseStartInfo, TransportHandler, TransportPort } from './transport-port';

export interface SchedulerObserver {
  onRequestSettled?(result: RequestResult): void;
  onConnectionOpening?(connectionId: number, origin: string): void;
  onDemoted?(origin: string, reason: DemotionReason): void;
  /** An origin's HTTP/1.1 connection cap was set from its path (`adaptConnectionsToPath`). */
  onPathSized?(origin: string, sizing: PathSizing): void;
}

export type { PathSizing };

export interface SchedulerOptions {
  strategy: Strategy;
  transport: TransportPort;
  clock: Clock;
  observer?: SchedulerObserver;
  /**
   * Sizes of responses known to be large, keyed by URL, learned on earlier loads and updated as
   * responses complete. Only sizes ≥ `largeResponseBytes` are kept: they are the only ones that
   * change a decision, and a small page then costs no memory here.
   */
  sizeHints?: Map<string, number>;
  /** Requests that may wait at once; more are refused with `E_QUEUE_FULL`. @default 50000 */
  maxQueued?: number;
  /** What earlier loads learned per origin; read and written when `strategy.useOriginMemory`. */
  memory?: OriginMemory;
  /**
   * Per-origin connection request budgets, learned and used (request-budget.ts). @default the
   * origin memory's `requestBudget` facts when a memory is used, else a new `MemoryBudgets`
   */
  budgets?: OriginBudgets;
  /**
   * Connect to ports on the Fetch standard's bad-ports list. Otherwise such a request settles at
   * once with `E_UNSAFE_PORT`, as browsers refuse it. @default false
   */
  allowUnsafePorts?: boolean;
}

export interface SchedulerStats {
  connectionsOpened: number;
  dispatches: number;
  retries: number;
  demotions: Array<{ origin: string; reason: DemotionReason }>;
  pauses: number;
  /** `HEAD`s the scheduler sent of its own to prove an origin keeps order (order-probe.ts). */
  orderProbes: number;
}

/** After this many failed connection attempts in a row, an origin's waiting requests fail. */
const MAX_CONSECUTIVE_CONNECT_FAILURES = 3;

/**
 * The dispatch policy. It owns the queues; the transport owns sockets.
 *
 * A request is bound to a connection only when that connection is connected and has room, so a
 * request never waits on one handshake while another connection is free (McManus, "Separating
 * HTTP Connections from TCP Connections"). Connections are opened speculatively, up to the
 * per-origin limit, for the demand that ready connections cannot absorb.
 */
export class Scheduler implements TransportHandler {
  private readonly strategy: Strategy;
  private readonly transport: TransportPort;
  private readonly clock: Clock;
  private readonly observer: SchedulerObserver;
  private readonly learned: Map<string, number>;
  private readonly maxQueued: number;
  private readonly budgets: OriginBudgets;
  private readonly allowUnsafePorts: boolean;
  private readonly held = new HeldResponses();
  /** Origins parsed before, so their URLs are split without a parse (request-url.ts). */
  private readonly urls = new RequestUrls();
  private readonly origins = new Map<string, OriginState>();
  private readonly conns = new Map<number, ConnState>();
  private readonly dispatches = new Map<number, DispatchState>();
  /** Origins whose queues or connections changed since the last pump (each at most once). */
  private readonly dirty: OriginState[] = [];
  private readonly pauser: LowLatencyPauser;
  private readonly memory: OriginMemory | undefined;
  private readonly learner: OriginLearner | undefined;
  /** Whether the link is the bottleneck (`pauseOnlyWhenLinkBusy`). */
  private readonly meter = new DeliveryMeter();
  private linkBusy = false;
  private readonly idleWaiters: Array<() => void> = [];
  private nextRequestId = 1;
  private nextConnId = 1;
  /** The quickest handshake measured so far this load, ms (`noteHandshake`). */
  private pathHandshakeMs: number | undefined;
  /** A learned list was enqueued (`RequestSpec.listed`): no HTTP/2 windows for demand this load. */
  private listBurst = false;
  /** The client's link as the load's first measured flight showed it: the budget for HTTP/2 windows for demand. */
  private readonly loadPath = new LoadPath();
  private nextDispatchId = 1;
  private unsettled = 0;
  /** Low-latency dispatches written and not yet settled. */
  private urgentOutstanding = 0;
  private queued = 0;
  private pumping = false;
  private closed = false;
  private readonly counters: SchedulerStats = { connectionsOpened: 0, dispatches: 0, retries: 0, demotions: [], pauses: 0, orderProbes: 0 };
  /** Ended members of fingerprint pairs waiting for their pair's verdict, by dispatch id. */
  private readonly pairWaiting = new Map<number, { pair: FingerprintPair; dispatch: DispatchState }>();

  constructor(options: SchedulerOptions) {
    validateStrategy(options.strategy);
    this.strategy = options.strategy;
    this.transport = options.transport;
    this.clock = options.clock;
    this.observer = options.observer ?? {};
    this.learned = options.sizeHints ?? new Map();
    this.maxQueued = options.maxQueued ?? 50_000;
    this.memory = options.strategy.useOriginMemory ? options.memory : undefined;
    this.learner = this.memory ? new OriginLearner(this.memory) : undefined;
    // One budget per origin: in the origin memory when there is one (remembered-budgets.ts).
    this.budgets = options.budgets ?? (this.memory ? new RememberedBudgets(this.memory) : new MemoryBudgets());
    this.allowUnsafePorts = options.allowUnsafePorts ?? false;
    this.pauser = new LowLatencyPauser(options.strategy.maxLowPriorityFlowing, options.strategy.minPauseBytes, this.transport, () => {
      this.counters.pauses += 1;
    });
  }

  /** Adds a request; returns its id. Throws `SchedulerError` (stable `code`) on invalid input. */
  enqueue(spec: RequestSpec): number {
    if (this.closed) throw new SchedulerError('E_SCHEDULER_CLOSED', 'the scheduler is closed');
    if (this.queued >= this.maxQueued) {
      throw new SchedulerError('E_QUEUE_FULL', `more than ${this.maxQueued} requests waiting; refusing ${spec?.url}`);
    }
    const req = createRequest(spec, this.nextRequestId, this.clock.now(), this.urls);
    if (spec.listed === true) this.listBurst = true;
    this.nextRequestId += 1;
    this.queued += 1;
    this.unsettled += 1;
    const port = req.port;
    if (!this.allowUnsafePorts && isBadPort(port)) {
      // Settled, not thrown: a page that names such a URL still gets every other result.
      this.fail(req, new SchedulerError('E_UNSAFE_PORT', `port ${port} is one browsers refuse to connect to (Fetch "bad ports"); not fetching ${req.url}`));
      this.notifyIdle();
      return req.id;
    }
    const o = this.originFor(req.origin);
    if (this.memory?.fingerprint && this.strategy.pipelining && req.method === 'GET' && o.protocol !== 'h2' && o.health.state(this.clock.now()) !== 'good') {
      req.knownFingerprint = this.memory.fingerprint(req.url);
    }
    o.queue.push(req);
    this.markDirty(o);
    return req.id;
  }

  /**
   * Opens up to `connections` connections to `origin` now, before any request for it is ready
   * (a learned list, `<link rel=preconnect>`), within the origin's limit. The connections take
   * requests like any other; unused ones close with the scheduler. An origin on a bad port is
   * never connected (unless `allowUnsafePorts`), as browsers ignore such hints. Throws `SchedulerError`
   * `E_INVALID_URL` / `E_UNSUPPORTED_SCHEME` for a bad origin.
   */
  preconnect(origin: string, connections = 1): void {
    if (this.closed) return;
    const req = createRequest({ url: `${origin}/`, priority: 'other' }, 0, 0);
    if (!this.allowUnsafePorts && isBadPort(req.port)) return;
    const o = this.originFor(req.origin);
    if (connections > o.warm) {
      o.warm = connections;
      this.markDirty(o);
    }
  }

  /** True when nothing is waiting or in flight. */
  get idle(): boolean {
    return this.unsettled === 0;
  }

  /** Resolves once every request enqueued so far has settled. */
  whenIdle(): Promise<void> {
    if (this.unsettled === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stats(): SchedulerStats {
    return { ...this.counters, demotions: [...this.counters.demotions] };
  }

  // ── transport callbacks ────────────────────────────────────────────────────────────────────

  connectionReady(connectionId: number, info: ConnectionInfo): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state !== 'connecting') return;
    c.state = 'ready';
    c.readyAt = this.clock.now();
    c.protocol = info.protocol;
    const o = c.origin;
    o.consecutiveConnectFailures = 0;
    o.rttMs ??= info.handshakeRttMs;
    this.learner?.connected(o, info.protocol, info.handshakeRttMs);
    if (info.protocol === 'h2') {
      o.protocol = 'h2';
      c.maxStreams = Math.max(1, Math.min(this.strategy.maxConcurrentStreams, info.maxConcurrentStreams ?? Infinity));
    } else {
      o.protocol = 'h1';
      c.maxStreams = 1;
    }
    // The path is judged without what this process's own busy loop added (several TLS handshakes'
    // crypto at once on a loaded machine read as a far path in CI: 36 connections to 10 origins).
    this.noteHandshake(c.readyAt - c.openedAt - (info.loopDelayMs ?? 0));
    this.markDirty(o);
  }

  connectionFailed(connectionId: number, error: unknown): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state === 'closed') return;
    const o = c.origin;
    this.forgetConnection(c);
    o.consecutiveConnectFailures += 1;
    const ready = o.conns.some((x) => x.state === 'ready');
    if (!ready && (o.conns.length === 0 || o.consecutiveConnectFailures >= MAX_CONSECUTIVE_CONNECT_FAILURES)) {
      const code = errorCodeOf(error);
      // A refused target keeps its own code: it is a decision, not a network failure.
      const why = code === 'E_PRIVATE_NETWORK' || code === 'E_UNSAFE_PORT'
        ? new SchedulerError(code, toErrorInfo(error).message)
        : new SchedulerError('E_CONNECT_FAILED', `could not connect to ${o.origin}: ${toErrorInfo(error).message}`, code);
      for (const req of [...o.retries.clear(), ...o.queue.drain()]) this.fail(req, why);
      o.consecutiveConnectFailures = 0;
    }
    this.markDirty(o);
  }

  /**
   * The connection is gone (peer close, reset, or our own close). Outstanding requests are lost;
   * with an `E_DESYNC` error, so are its unconfirmed responses (they may belong to other requests).
   */
  connectionClosed(connectionId: number, error?: unknown): void {
    this.closeConnectionState(connectionId, error, undefined);
  }

  /** `culprit` (if any) failed with `error`; the others on the connection are collateral. */
  private closeConnectionState(connectionId: number, error: unknown, culprit: DispatchState | undefined, desyncReason: DemotionReason = 'desync'): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state === 'closed') return;
    if (c.state === 'connecting') {
      // Closed before it was ever ready: a failed connect.
      this.connectionFailed(connectionId, error ?? new SchedulerError('E_CONNECT_FAILED', 'connection closed during the handshake'));
      return;
    }
    this.forgetConnection(c);
    const o = c.origin;
    const lost = c.outstanding.filter((d) => !d.settled);
    const desync = isDesync(error);
    if (c.protocol === 'http/1.1') {
      if (desync) this.demote(o, desyncReason);
      else if (lost.length > 1 && !(c.budget !== undefined && c.served >= c.budget)) this.demote(o, 'closed-with-outstanding');
      // Closed at a response boundary with requests unanswered: the server's per-connection budget.
      if (!desync && culprit === undefined && c.served > 0 && lost.length > 0 && lost.every((d) => d.firstByteAt === undefined)) {
        this.learnBudget(o.origin, { kind: 'closed-after', responses: c.served });
      }
    }
    for (const h of this.held.takeAll(c)) {
      if (desync) this.loseDispatch(h.dispatch, error, true);
      else this.settleHeld(h);
    }
    // A pair member that ended is unverified until its partner ends, and its partner is lost now.
    for (const w of [...this.pairWaiting.values()]) {
      if (w.dispatch.conn !== c) continue;
      this.pairWaiting.delete(w.dispatch.id);
      this.loseDispatch(w.dispatch, error, true);
    }
    const collateral = culprit === undefined ? error : collateralError(error);
    for (const d of lost) this.loseDispatch(d, d === culprit ? error : collateral, desync);
    this.markDirty(o);
  }

  /** Records an observation; a budget learned now applies to the origin's open connections too. */
  private learnBudget(origin: string, obs: BudgetObservation): void {
    const facts = observeBudget(this.budgets.get(origin), obs);
    this.budgets.set(origin, facts);
    const o = this.origins.get(origin);
    if (facts.budget === undefined || !o) return;
    for (const c of applyBudget(o.conns, facts.budget)) this.retire(c);
  }

  /**
   * Closes a connection that has nothing outstanding and takes nothing more — once the transport
   * trusts its responses: with nothing outstanding, a response still held is one the transport
   * waits to see followed by silence (a surplus may be on its way), and closing now would trust
   * it unseen. `responseConfirmed` retires it then.
   */
  private retire(c: ConnState): void {
    if (c.held > 0) return;
    // Every request on it was answered and no surplus arrived, so what it still holds is confirmed.
    this.forgetConnection(c);
    this.transport.closeConnection(c.id);
    for (const h of this.held.takeAll(c)) this.settleHeld(h);
  }

  responseStarted(dispatchId: number, info: ResponseStartInfo): void {
    const d = this.dispatches.get(dispatchId);
    if (!d || d.settled) return;
    d.firstByteAt = this.clock.now();
    d.status = info.status;
    d.httpVersion = info.httpVersion;
    d.contentLength = info.contentLength;
    d.contentType = info.contentType;
    if (info.earlyHints) d.earlyHints = info.earlyHints;
    const c = d.conn;
    if (!d.blocksPipeline && (info.contentLength ?? 0) >= this.strategy.largeResponseBytes) {
      d.blocksPipeline = true;
      c.blockers += 1;
    }
    if (c.protocol === 'http/1.1') {
      if (info.keepAliveMax !== undefined) this.learnBudget(c.origin.origin, { kind: 'keep-alive-max', requests: keepAliveBudget(c, info.keepAliveMax) });
      if ((c.outstanding.length > 1 || c.held > 0) && contentTypeContradicts(d.request.resourceType, info.contentType, info.status)) {
        this.contentTypeMismatch(c, d, info.contentType as string);
        return;
      }
      if (info.httpVersion === '1.0') this.demote(c.origin, 'http10');
      if (info.announcesKeepAlive) c.origin.announcesKeepAlive = true;
      if (!info.keepAlive) {
        c.draining = true;
        // The server's budget, announced: this response's place among those the connection carried.
        if (info.httpVersion === '1.1' && info.status < 400) this.learnBudget(c.origin.origin, { kind: 'connection-close', requests: c.served + 1 });
        const behind = c.outstanding.indexOf(d) < c.outstanding.length - 1;
        if (behind) this.demote(c.origin, 'connection-close-mid-pipeline');
        // This connection takes nothing more: the origin may need another one.
        this.markDirty(c.origin);
      } else if (info.httpVersion === '1.1' && c.origin.health.keepAliveSeen(this.clock.now())) {
        // Pipelining may start now, behind this response's body.
        this.markDirty(c.origin);
      }
    }
    // Paused before its size was known, and now known to be too small to be worth pausing.
    if (d.paused && !this.pauser.pausable(d)) this.markDirty(c.origin);
    // Otherwise headers can only take room away, so there is nothing new to dispatch.
  }

  /**
   * `bytes` of response body arrived. Only the first HTTP/1.1 response body of each origin is
   * looked at, and only under `adaptConnectionsToPath`: its first flight sizes the origin's
   * connection cap (path-estimate.ts). Cheap otherwise.
   */
  responseData(dispatchId: number, bytes: number): void {
    const d = this.dispatches.get(dispatchId);
    if (!d || d.settled) return;
    const now = this.clock.now();
    if (this.strategy.h2ConnectionsOnStall > 1 && noteStreamData(d.conn, d, now, d.conn.origin.rttMs)) {
      const o = d.conn.origin;
      o.h2Stalls += 1;
      o.warm = Math.max(o.warm, this.strategy.h2ConnectionsOnStall);
      this.markDirty(o);
    }
    if (this.strategy.pauseOnlyWhenLinkBusy) {
      this.meter.add(bytes, now);
      // Pausing starts or stops with the link's state; only then is there anything to re-decide.
      if ((this.urgentOutstanding > 0 || this.pauser.pausedCount > 0) && this.meter.linkBusy(now) !== this.linkBusy) this.markDirty(d.conn.origin);
    }
    if (this.strategy.adaptConnectionsToPath && d.conn.protocol === 'http/1.1' && measureFirstFlight(d, bytes, now)) this.decidePath(d.conn.origin);
    if (this.strategy.h2ConnectionsForDemand > 1 && this.loadPath.windows === undefined) this.measureLoadPath(d, bytes, now);
  }

  /** Feeds the load's path measurement (load-path.ts); once it decides, waiting demand is looked at again. */
  private measureLoadPath(d: DispatchState, bytes: number, now: number): void {
    // The round trip as path-sizing.ts takes it: the handshake's, or the request's time to first
    // byte if longer (a relay or proxy that accepts the connection itself hides the path from it).
    const rttMs = Math.max(d.conn.origin.rttMs ?? 0, d.firstByteAt === undefined ? 0 : d.firstByteAt - d.sentAt);
    if (!this.loadPath.add(d.id, bytes, now, rttMs, d.conn.protocol === 'h2')) return;
    // Requests that waited for the path's verdict may now earn windows of their own.
    for (const x of this.origins.values()) if (x.queue.size > 0 && x.protocol !== 'h1') this.markDirty(x);
  }

  /**
   * Ends the measurement: a cap from the estimate, or the strategy's limit when there is none.
   * `pump` false when the caller pumps the origin itself (settling a dispatch always does).
   */
  private decidePath(o: OriginState, pump = true): void {
    const sizing = decidePathSize(o, this.strategy.maxConnectionsPerOrigin);
    if (!sizing) return;
    this.meter.addCapacity(sizing.rateBytesPerMs);
    this.learner?.pathSized(o, sizing.connectionCap, sizing.rateBytesPerMs);
    this.observer.onPathSized?.(o.origin, sizing);
    if (pump) this.markDirty(o);
  }

  responseEnded(dispatchId: number, info: ResponseEndInfo): void {
    const d = this.dispatches.get(dispatchId);
    if (!d || d.settled) return;
    const c = d.conn;
    const now = this.clock.now();
    if (info.bytes >= this.strategy.largeResponseBytes) this.learned.set(d.request.url, info.bytes);
    else if (this.learned.size > 0) this.learned.delete(d.request.url);
    if (c.protocol === 'http/1.1' && !c.draining && d.httpVersion === '1.1') {
      c.origin.health.responseOk(now, isOrderProof(d) || isFramingProof(d, info.bytes));
      if (this.learner && c.origin.health.state(now) === 'good') this.learner.pipelining(c.origin, 'good');
      else if (this.learner && d.pipelined) this.learner.probeProgress(c.origin, c.origin.health.proofs);
    }
    if (c.gate === d) c.gate = undefined;
    c.served += 1;
    this.settleDispatch(d);
    if (d.fingerprint) d.responseFingerprint = fingerprintOf(d.status, info.bytes, info.digest);
    if (d.pair) {
      this.pairEnded(d.pair, d, { bytes: info.bytes, doneAt: now, fingerprint: d.responseFingerprint, confirmed: info.confirmed !== false });
    } else if (info.confirmed === false && c.state !== 'closed') {
      // Its slot is free (the pipeline keeps flowing); its result waits for `responseConfirmed`.
      this.held.hold(d, info.bytes, now);
    } else {
      this.settle(d.request, { dispatch: d, bytes: info.bytes, doneAt: now });
    }
    // Closing it ourselves (rather than waiting for the peer's FIN) lets the next connection
    // open now; the transport's later `connectionClosed` for it is ignored.
    if (c.draining && c.outstanding.length === 0 && c.state !== 'closed') this.retire(c);
    this.markDirty(c.origin);
  }

  /**
   * A response whose type contradicts its request (an image answered with a script), on a
   * connection with other requests in flight: it may be another request's response, shifted. It
   * is not a framing failure, so the response alone would be kept; but nothing on the connection
   * since it was last in step can be told apart from a shifted response, so the connection is
   * treated as desynchronised: discarded, its unconfirmed requests fetched again without
   * pipelining (where the same answer is accepted whatever its type), and the origin demoted.
   */
  private contentTypeMismatch(c: ConnState, d: DispatchState, type: string): void {
    const why = new SchedulerError('E_DESYNC', `${d.request.url} (${d.request.resourceType}) was answered with ${type} on a connection with other requests in flight: possibly another request's response`);
    this.closeConnectionState(c.id, why, undefined, 'content-type-mismatch');
    this.transport.closeConnection(c.id);
  }

  /** A response that ended unconfirmed is trusted now. */
  responseConfirmed(dispatchId: number): void {
    const waiting = this.pairWaiting.get(dispatchId);
    if (waiting) {
      // Its framing is trusted; its result still waits for the pair's verdict.
      const end = waiting.pair.ends.get(waiting.dispatch);
      if (end) end.confirmed = true;
      return;
    }
    const h = this.held.confirm(dispatchId);
    if (!h) return;
    this.settleHeld(h);
    const c = h.dispatch.conn;
    if (c.draining && c.state === 'ready' && c.outstanding.length === 0) {
      // Its retirement waited for this (see `retire`): the origin may open the next connection now.
      this.retire(c);
      this.markDirty(c.origin);
    }
    this.notifyIdle();
  }

  /**
   * A member of a fingerprint pair ended. Its result waits for its partner; with both ended the
   * verdict (response-fingerprint.ts) releases both, or discards both and fetches them again.
   */
  private pairEnded(p: FingerprintPair, d: DispatchState, end: PairEnd): void {
    p.ends.set(d, end);
    const other = d === p.ahead ? p.behind : p.ahead;
    if (!p.ends.has(other)) {
      this.pairWaiting.set(d.id, { pair: p, dispatch: d });
      return;
    }
    this.pairWaiting.delete(other.id);
    const c = d.conn;
    const o = c.origin;
    const verdict = pairVerdict(p);
    if (verdict === 'proof') {
      const now = this.clock.now();
      o.health.responseOk(now, true);
      if (this.learner && o.health.state(now) === 'good') this.learner.pipelining(o, 'good');
      for (const m of [p.ahead, p.behind]) {
        const e = p.ends.get(m) as PairEnd;
        if (e.confirmed || c.state === 'closed') this.settle(m.request, { dispatch: m, bytes: e.bytes, doneAt: e.doneAt });
        else this.held.hold(m, e.bytes, e.doneAt);
      }
      return;
    }
    if (verdict === 'swap') {
      const why = new SchedulerError('E_DESYNC', `${p.ahead.request.url} and ${p.behind.request.url}, pipelined, were each answered with the other's remembered body: the server answers out of order`);
      if (c.state !== 'closed') {
        this.closeConnectionState(c.id, why, undefined, 'fingerprint-swap');
        this.transport.closeConnection(c.id);
      }
      for (const m of [p.ahead, p.behind]) this.loseDispatch(m, why, true);
      return;
    }
    const why = new SchedulerError('E_RESPONSE_FAILED', `${p.ahead.request.url} and ${p.behind.request.url}, pipelined, did not both match their remembered bodies (content changed): discarded unverified`);
    for (const m of [p.ahead, p.behind]) this.loseDispatch(m, why, true);
    this.markDirty(o);
  }

  /** A held response settles as it was received. */
  private settleHeld(h: HeldResponse): void {
    this.settle(h.dispatch.request, { dispatch: h.dispatch, bytes: h.bytes, doneAt: h.doneAt });
  }

  /**
   * One attempt failed. `connectionLevel` errors (the socket died) lose every request on the
   * connection; others fail this request alone.
   */
  dispatchFailed(dispatchId: number, error: unknown, connectionLevel = true): void {
    const d = this.dispatches.get(dispatchId);
    if (!d || d.settled) return;
    if (connectionLevel) {
      // A timeout or a bad response is this request's own failure; the others on the connection
      // are collateral. A socket error is the connection's: every request on it was lost alike.
      const own = isFinalError(error) || errorCodeOf(error) === 'E_BAD_RESPONSE';
      this.closeConnectionState(d.conn.id, error, own ? d : undefined);
      if (!d.settled) this.loseDispatch(d, error);
      return;
    }
    this.settleDispatch(d);
    const code = errorCodeOf(error);
    this.settle(d.request, { dispatch: d, bytes: 0, doneAt: this.clock.now(), error: new SchedulerError('E_RESPONSE_FAILED', toErrorInfo(error).message, code) });
    this.markDirty(d.conn.origin);
  }

  /**
   * Fails everything pending with `why` (@default `E_SCHEDULER_CLOSED`) and closes every
   * connection. Responses that ended and wait for confirmation are settled as received.
   */
  close(why: SchedulerError = new SchedulerError('E_SCHEDULER_CLOSED', 'the scheduler was closed before the request completed')): void {
    if (this.closed) return;
    this.closed = true;
    for (const h of this.held.takeEverything()) this.settleHeld(h);
    // Never delivered unverified: a pair member still waiting for its partner fails.
    for (const w of this.pairWaiting.values()) this.settle(w.dispatch.request, { dispatch: w.dispatch, bytes: 0, doneAt: this.clock.now(), error: why });
    this.pairWaiting.clear();
    for (const o of this.origins.values()) {
      for (const req of [...o.retries.clear(), ...o.queue.drain()]) this.fail(req, why);
      for (const c of [...o.conns]) {
        this.forgetConnection(c);
        for (const d of c.outstanding.filter((x) => !x.settled)) {
          this.settleDispatch(d);
          this.settle(d.request, { dispatch: d, bytes: 0, doneAt: this.clock.now(), error: why });
        }
        this.transport.closeConnection(c.id);
      }
    }
    this.notifyIdle();
  }

  // ── policy ─────────────────────────────────────────────────────────────────────────────────

  private originFor(origin: string): OriginState {
    let o = this.origins.get(origin);
    if (!o) {
      o = createOrigin(origin, this.strategy);
      this.origins.set(origin, o);
      const facts = this.memory?.get(origin);
      if (facts) {
        recallOrigin(o, facts, this.strategy, this.clock.now());
        if (facts.rateBytesPerMs !== undefined && facts.rateBytesPerMs !== null) this.meter.addCapacity(facts.rateBytesPerMs);
      }
    }
    return o;
  }

  private markDirty(o: OriginState): void {
    if (!o.dirty) {
      o.dirty = true;
      this.dirty.push(o);
    }
    this.pump();
  }

  /** Re-entrancy safe: a transport that answers synchronously only adds to the dirty list. */
  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      for (let i = 0; i < this.dirty.length; i++) {
        const o = this.dirty[i] as OriginState;
        o.dirty = false;
        this.dispatchOrigin(o, this.clock.now());
      }
      if (this.dirty.length > 0) this.dirty.length = 0;
      // The pauser only has work while something urgent is in flight or something is paused.
      if (this.strategy.pauseLowPriority && (this.urgentOutstanding > 0 || this.pauser.pausedCount > 0)) {
        if (this.strategy.pauseOnlyWhenLinkBusy) this.linkBusy = this.meter.linkBusy(this.clock.now());
        this.pauser.update(this.dispatches.values(), !this.strategy.pauseOnlyWhenLinkBusy || this.linkBusy);
      }
    } finally {
      this.pumping = false;
    }
    this.notifyIdle();
  }

  private dispatchOrigin(o: OriginState, now: number): void {
    // A retried request goes first and alone on an idle connection — a never-used one when there is
    // one — and nothing is pipelined behind it until it completes (RFC 9112 §9.3.2). The connection
    // that lost it is closed, so it is always a different one.
    while (o.retries.size > 0) {
      const idle = o.conns.filter((c) => c.state === 'ready' && !c.draining && c.outstanding.length === 0);
      const target = idle.find((c) => c.carried === 0) ?? idle[0];
      if (!target) break;
      this.send(target, o.retries.shift() as ScheduledRequest, true, now);
    }
    const probeOn = orderProbeConnection(o, this.strategy, now);
    if (probeOn) this.sendOrderProbe(o, probeOn, now);
    while (o.queue.size > 0) {
      const req = o.queue.peek() as ScheduledRequest;
      const c = pickConnection(o, req, this.strategy, now);
      if (!c) break;
      o.queue.shift();
      this.queued -= 1;
      this.send(c, req, false, now);
    }
    this.openConnections(o);
  }

  /** A `HEAD` of the next waiting URL, then its `GET` right behind it (order-probe.ts). */
  private sendOrderProbe(o: OriginState, c: ConnState, now: number): void {
    const target = o.queue.shift() as ScheduledRequest;
    this.queued -= 1;
    o.orderProbeSent = true;
    this.counters.orderProbes += 1;
    this.send(c, orderProbeRequest(target, now), false, now);
    this.send(c, target, false, now);
  }

  /**
   * The quickest handshake this load has measured: where even it is long, the path is far, and
   * requests that wait for a handshaking https origin earn connections of their own
   * (h2-windows.ts). The quickest, not the longest: one handshake slowed by the machine (a TLS
   * handshake on a busy 2-core loopback took over 10 ms in CI and opened 31 connections to 10
   * origins) must not make a near path look far. Origins already waiting are looked at again when
   * the first measured handshake is past the threshold; a later, quicker one only turns it off.
   */
  private noteHandshake(ms: number): void {
    const before = this.pathHandshakeMs;
    if (before !== undefined && before <= ms) return;
    this.pathHandshakeMs = ms;
    if (before === undefined && this.strategy.h2ConnectionsForDemand > 1 && ms >= this.strategy.h2DemandMinHandshakeMs) {
      for (const x of this.origins.values()) if (x.queue.size > 0 && x.protocol !== 'h1') this.markDirty(x);
    }
  }

  private openConnections(o: OriginState): void {
    // A revisit's learned list is already the whole path's burst at t = 0; extra windows opened
    // into it once the first handshake is measured only add handshakes and losses (h2-windows.ts).
    const windows = this.strategy.h2ConnectionsForDemand > 1 && !this.listBurst && o.protocol !== 'h1';
    const want = connectionsToOpen(o, this.strategy, this.listBurst ? undefined : this.pathHandshakeMs, windows ? this.pathRoom() : undefined);
    for (let i = 0; i < want; i++) this.open(o);
    o.warm = 0;
  }

  /**
   * Initial windows the client's link still takes (load-path.ts): its budget less the connections
   * that are connecting or carrying requests, every origin's. Undefined until a flight said.
   */
  private pathRoom(): number | undefined {
    const windows = this.loadPath.windows;
    if (windows === undefined || windows === Infinity) return windows;
    let active = 0;
    for (const c of this.conns.values()) if (c.state === 'connecting' || c.outstanding.length > 0) active += 1;
    return Math.max(0, windows - active);
  }

  private open(o: OriginState): void {
    const c: ConnState = {
      id: this.nextConnId++, origin: o, state: 'connecting', protocol: undefined, maxStreams: 1, outstanding: [], carried: 0, openedAt: this.clock.now(), readyAt: undefined, blockers: 0,
      draining: false, gate: undefined, budget: this.budgets.get(o.origin)?.budget, served: 0, held: 0, lastDataAt: undefined,
    };
    o.conns.push(c);
    this.conns.set(c.id, c);
    this.counters.connectionsOpened += 1;
    this.observer.onConnectionOpening?.(c.id, o.origin);
    const maxOutstanding = this.strategy.http2 ? Math.max(this.strategy.maxConcurrentStreams, this.strategy.maxPipelineDepth) : this.strategy.pipelining ? this.strategy.maxPipelineDepth : 1;
    this.transport.openConnection(c.id, o.origin, { allowH2: this.strategy.http2 && o.https, maxOutstanding, prioritySignals: this.strategy.http2 && this.strategy.priorities });
  }

  private send(c: ConnState, req: ScheduledRequest, gate: boolean, now: number): void {
    const d: DispatchState = {
      id: this.nextDispatchId++,
      conn: c,
      connectionId: c.id,
      keepAlive: this.strategy.keepAlive,
      request: req,
      pipelined: c.protocol === 'http/1.1' && c.outstanding.length > 0,
      reused: c.carried > 0,
      sentAt: now,
      firstByteAt: undefined,
      status: undefined,
      httpVersion: undefined,
      contentLength: undefined,
      blocksPipeline: !isPipelinable(req.method) || this.expectedSize(req) >= this.strategy.largeResponseBytes,
      paused: false,
      settled: false,
      earlyHints: undefined,
      aheadUnanswered: undefined,
      contentType: undefined,
      fingerprint: this.wantsFingerprint(c, req, now),
      responseFingerprint: undefined,
      pair: undefined,
    };
    const ahead = c.protocol === 'http/1.1' ? c.outstanding[c.outstanding.length - 1] : undefined;
    if (ahead !== undefined && ahead.firstByteAt === undefined) {
      d.aheadUnanswered = ahead;
      // A pair no `Content-Type` could tell apart: its results wait for the fingerprints.
      if (c.origin.health.state(now) === 'probing' && expectedFamily(ahead.request.resourceType) === expectedFamily(req.resourceType) && canPair(ahead, req)) {
        const pair: FingerprintPair = { ahead, behind: d, ends: new Map() };
        ahead.pair = pair;
        d.pair = pair;
      }
    }
    if (d.blocksPipeline) c.blockers += 1;
    if (isLowLatency(req.priority)) this.urgentOutstanding += 1;
    req.state = 'sent';
    req.attempts += 1;
    c.outstanding.push(d);
    c.carried += 1;
    if (!this.strategy.keepAlive || (c.budget !== undefined && c.carried >= c.budget)) c.draining = true;
    if (gate && c.protocol === 'http/1.1') c.gate = d;
    this.dispatches.set(d.id, d);
    this.counters.dispatches += 1;
    this.transport.send(d);
  }

  /**
   * Whether to ask the transport for a body digest: only on an HTTP/1.1 origin not yet proven to
   * keep order, with a memory to remember it in, for a `GET` — so the next load can pair its
   * requests by fingerprint (response-fingerprint.ts), or to check a pair now.
   */
  private wantsFingerprint(c: ConnState, req: ScheduledRequest, now: number): boolean {
    return this.memory?.putFingerprint !== undefined && this.strategy.pipelining && c.protocol === 'http/1.1' && req.method === 'GET' && !req.orderProbe && c.origin.health.state(now) !== 'good';
  }

  /** Declared size, else a size learned earlier (only large ones are kept), else 0. */
  private expectedSize(req: ScheduledRequest): number {
    if (req.expectedSize !== undefined) return req.expectedSize;
    return this.learned.size > 0 ? (this.learned.get(req.url) ?? 0) : 0;
  }

  private demote(o: OriginState, reason: DemotionReason): void {
    if (!this.strategy.pipelining) return;
    o.health.demote(this.clock.now(), reason);
    this.learner?.pipelining(o, 'bad');
    this.counters.demotions.push({ origin: o.origin, reason });
    this.observer.onDemoted?.(o.origin, reason);
  }

  /**
   * A dispatch died with its connection (or its response was discarded with it, `discarded`):
   * re-queued or failed as retry-policy.ts decides.
   */
  private loseDispatch(d: DispatchState, error: unknown, discarded = false): void {
    if (!d.settled) this.settleDispatch(d);
    const req = d.request;
    // The scheduler's own probe is never retried: the proof it sought is void with it.
    if (req.orderProbe) return;
    const o = d.conn.origin;
    const code = errorCodeOf(error);
    // An answer arrived and could not be used (discarded with a desync, a bad response): the cause
    // to report if a later send is only lost.
    if ((discarded && d.firstByteAt !== undefined) || code === 'E_BAD_RESPONSE') req.answerError = error;
    const decision = this.closed
      ? 'fail'
      : decideRetry({
          idempotent: req.idempotent,
          sends: req.attempts,
          failedAttempts: req.failedAttempts,
          reused: d.reused,
          responseStarted: d.firstByteAt !== undefined || code === 'E_BAD_RESPONSE',
          discarded,
        }, error);
    if (decision !== 'fail') {
      if (decision === 'requeue-counted') req.failedAttempts += 1;
      req.retrying = true;
      req.state = 'queued';
      o.retries.push(req);
      this.counters.retries += 1;
      return;
    }
    this.settle(req, { dispatch: d, bytes: 0, doneAt: this.clock.now(), error: lostError(req, error) });
  }

  private forgetConnection(c: ConnState): void {
    c.state = 'closed';
    this.conns.delete(c.id);
    const i = c.origin.conns.indexOf(c);
    if (i >= 0) c.origin.conns.splice(i, 1);
  }

  private settleDispatch(d: DispatchState): void {
    d.settled = true;
    if (d.blocksPipeline) d.conn.blockers -= 1;
    if (isLowLatency(d.request.priority)) this.urgentOutstanding -= 1;
    this.dispatches.delete(d.id);
    this.loadPath.ended(d.id);
    const i = d.conn.outstanding.indexOf(d);
    if (i >= 0) d.conn.outstanding.splice(i, 1);
    if (d.conn.gate === d) d.conn.gate = undefined;
    if (d.paused) this.pauser.forget(d);
    // Ended, failed or lost: the measurement it carried ends with it.
    const o = d.conn.origin;
    if (o.path.state === 'measuring' && o.path.dispatchId === d.id) this.decidePath(o, false);
  }

  private fail(req: ScheduledRequest, error: SchedulerError): void {
    if (req.state === 'queued' && !req.retrying) this.queued -= 1;
    this.settle(req, { dispatch: undefined, bytes: 0, doneAt: this.clock.now(), error });
  }

  private settle(req: ScheduledRequest, how: { dispatch: DispatchState | undefined; bytes: number; doneAt: number; error?: SchedulerError }): void {
    // The scheduler's own probe is no caller's request: counted in stats, never reported.
    if (req.orderProbe) return;
    const d = how.dispatch;
    // A trusted response's fingerprint, for the next load's pairs.
    if (!how.error && d?.responseFingerprint !== undefined) this.memory?.putFingerprint?.(req.url, d.responseFingerprint);
    req.state = how.error ? 'failed' : 'done';
    this.unsettled -= 1;
    const result = toResult(req, d, how.bytes, how.doneAt, how.error);
    this.observer.onRequestSettled?.(result);
  }

  private notifyIdle(): void {
    if (this.unsettled !== 0 || this.pumping) return;
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }
}
