import type { ConnState, DispatchState, OriginState } from './connection-state';
import { SchedulerError, errorCodeOf, toErrorInfo } from './errors';
import type { DemotionReason } from './pipeline-health';
import { applyBudget, observeBudget, type BudgetObservation, type OriginBudgets } from './request-budget';
import { collateralError, isDesync } from './retry-policy';
import type { Connections, SchedulerContext, SchedulerParts } from './scheduler-parts';
import { pipelineDepth } from './strategies';
import { HTTP2 } from './strategy-policies';
import { PEER_STREAMS_BEFORE_SETTINGS, type ConnectionInfo, type PeerSettings } from './transport-port';
import { explainedBy, refutedBy, witnessesOf } from './unexplained-close';

/** After this many failed connection attempts in a row, an origin's waiting requests fail. */
const MAX_CONSECUTIVE_CONNECT_FAILURES = 3;

/**
 * Connections from open to close: `connecting` → `ready` (ALPN has answered) → `closed`, each
 * state entered once. The scheduler chooses every connection's id, and forgets a connection the
 * moment it closes, so a late event for it from the transport finds nothing and is ignored.
 *
 * Request budgets (request-budget.ts) live here: a server's per-connection limit, however learned,
 * applies at once to every open connection of its origin, so no request is written past it.
 */
export class ConnectionLifecycle implements Connections {
  private readonly conns = new Map<number, ConnState>();
  private nextConnId = 1;

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly parts: SchedulerParts,
    private readonly budgets: OriginBudgets,
  ) {}

  open(o: OriginState): void {
    const { strategy, clock, counters, observer, transport } = this.ctx;
    const c: ConnState = {
      id: this.nextConnId++, origin: o, state: 'connecting', protocol: undefined, maxStreams: 1, outstanding: [], carried: 0, openedAt: clock.now(), readyAt: undefined, idleSince: undefined, blockers: 0, expectedBytes: 0, receivedBytes: 0,
      draining: false, stalled: false, gate: undefined, budget: this.budgets.get(o.origin)?.budget, served: 0, held: 0, lastDataAt: undefined,
    };
    o.conns.push(c);
    this.conns.set(c.id, c);
    counters.connectionsOpened += 1;
    observer.onConnectionOpening?.(c.id, o.origin);
    // Room in the transport for whatever the scheduler may put on the connection: h2 streams or a pipeline.
    const h2 = strategy.http2;
    const maxOutstanding = h2 ? Math.max(h2.maxStreams, pipelineDepth(strategy)) : pipelineDepth(strategy);
    transport.openConnection(c.id, o.origin, { allowH2: h2 !== false && o.https, maxOutstanding, prioritySignals: h2 !== false && strategy.ordering === 'priorities' });
  }

  ready(connectionId: number, info: ConnectionInfo): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state !== 'connecting') return;
    c.state = 'ready';
    c.readyAt = this.ctx.clock.now();
    c.protocol = info.protocol;
    const o = c.origin;
    o.consecutiveConnectFailures = 0;
    o.rttMs ??= info.handshakeRttMs;
    this.ctx.learner?.connected(o, info.protocol, info.handshakeRttMs);
    o.protocol = info.protocol;
    // Before its own SETTINGS: what an earlier connection's said (recalled or this load's), else 100.
    c.maxStreams = info.protocol === 'h2' ? this.streamsAllowed(o.peerMaxStreams ?? PEER_STREAMS_BEFORE_SETTINGS) : 1;
    // The path is judged without what this process's own busy loop added: several TLS handshakes'
    // crypto at once on a loaded machine must not read as a far path.
    this.parts.pacing.handshake(c.readyAt - c.openedAt - (info.loopDelayMs ?? 0));
    this.parts.dispatching.markDirty(o);
  }

  /**
   * An h2 server's SETTINGS: its stream limit is the connection's, within the strategy's, and the
   * origin's next connections start from it (and later loads, through origin memory). Streams
   * already open beyond a lower one stay open (the server refuses those it will not process,
   * dispatcher.ts `failed`); no more go until they are under it.
   */
  settings(connectionId: number, peer: PeerSettings): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state !== 'ready' || c.protocol !== 'h2' || peer.maxConcurrentStreams === undefined) return;
    c.maxStreams = this.streamsAllowed(peer.maxConcurrentStreams);
    c.origin.peerMaxStreams = peer.maxConcurrentStreams;
    this.ctx.learner?.streamLimit(c.origin, peer.maxConcurrentStreams);
    this.parts.dispatching.markDirty(c.origin);
  }

  /**
   * The streams an h2 connection may carry when its server allows `peer`: within the strategy's
   * `http2.maxStreams` (ALPN answers h2 only where it was offered, an `http2` policy; a transport
   * that says so anyway gets the default limit).
   */
  private streamsAllowed(peer: number): number {
    const { maxStreams } = this.ctx.strategy.http2 || HTTP2;
    return Math.max(1, Math.min(maxStreams, peer));
  }

  /**
   * An h2 server going away gracefully (GOAWAY, RFC 9113 §6.8): `c` takes nothing more, and closes
   * once its streams have ended; the origin opens another for what waits (dispatch-policy.ts
   * `connectionsToOpen`). Having processed fewer streams than `c` carried, the server stopped at
   * a per-connection limit, as an HTTP/1.1 server closes at its budget: two connections that
   * stopped after the same count make it the origin's budget (request-budget.ts). The client's
   * streams are the odd ids from 1 (RFC 9113 §5.1.1), so `lastStreamId` counts those processed.
   */
  draining(connectionId: number, lastStreamId: number): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state !== 'ready') return;
    c.draining = true;
    const processed = Math.floor((lastStreamId + 1) / 2);
    if (c.carried > processed) this.learnBudget(c.origin.origin, { kind: 'closed-after', responses: processed });
    this.retireIfDrained(c);
    this.parts.dispatching.markDirty(c.origin);
  }

  failed(connectionId: number, error: unknown): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state === 'closed') return;
    const o = c.origin;
    this.forget(c);
    o.consecutiveConnectFailures += 1;
    const ready = o.conns.some((x) => x.state === 'ready');
    if (!ready && (o.conns.length === 0 || o.consecutiveConnectFailures >= MAX_CONSECUTIVE_CONNECT_FAILURES)) {
      const code = errorCodeOf(error);
      // A refused target keeps its own code: it is a decision, not a network failure.
      const why = code === 'E_PRIVATE_NETWORK' || code === 'E_UNSAFE_PORT'
        ? new SchedulerError(code, toErrorInfo(error).message)
        : new SchedulerError('E_CONNECT_FAILED', `could not connect to ${o.origin}: ${toErrorInfo(error).message}`, code);
      for (const req of [...o.retries.clear(), ...o.queue.drain()]) this.parts.ledger.fail(req, why);
      o.consecutiveConnectFailures = 0;
    }
    this.parts.dispatching.markDirty(o);
  }

  /**
   * The connection is gone (peer close, reset, or our own close). Outstanding requests are lost;
   * with an `E_DESYNC` error, so are its unconfirmed responses (they may belong to other requests).
   */
  closed(connectionId: number, error: unknown, culprit?: DispatchState, desyncReason: DemotionReason = 'desync'): void {
    const c = this.conns.get(connectionId);
    if (!c || c.state === 'closed') return;
    if (c.state === 'connecting') {
      // Closed before it was ever ready: a failed connect.
      this.failed(connectionId, error ?? new SchedulerError('E_CONNECT_FAILED', 'connection closed during the handshake'));
      return;
    }
    this.forget(c);
    const o = c.origin;
    const lost = c.outstanding.filter((d) => !d.settled);
    const desync = isDesync(error);
    if (c.protocol === 'http/1.1') {
      if (desync) {
        this.parts.origins.demote(o, desyncReason);
        // A framing failure, not a contradiction or a swap: the origin sent more than was asked.
        if (desyncReason === 'desync') o.desynced = true;
      }
      else if (lost.length > 1 && !this.atBudget(c)) this.unexplained(c);
      // Closed at a response boundary with requests unanswered: the server's per-connection budget.
      if (!desync && culprit === undefined && c.served > 0 && lost.length > 0 && lost.every((d) => d.firstByteAt === undefined)) {
        this.learnBudget(o.origin, { kind: 'closed-after', responses: c.served });
      }
      // A witness of an earlier unexplained close is gone: with none left, nothing explained it.
      const pending = o.unexplainedClose;
      if (pending?.witnesses.delete(c.id) && pending.witnesses.size === 0) this.demoteForClose(o);
    }
    this.parts.acceptance.releaseOnClose(c, error, desync);
    const collateral = culprit === undefined ? error : collateralError(error);
    for (const d of lost) this.parts.dispatching.loseDispatch(d, d === culprit ? error : collateral, desync);
    this.parts.dispatching.markDirty(o);
  }

  discard(c: ConnState, why: SchedulerError, reason: DemotionReason): void {
    this.closed(c.id, why, undefined, reason);
    this.ctx.transport.closeConnection(c.id);
  }

  /** A response ended on `c`: a witness that served as many as an unexplained close carried, and stays open, refutes the budget. */
  served(c: ConnState): void {
    const pending = c.origin.unexplainedClose;
    if (pending && refutedBy(pending, c)) this.demoteForClose(c.origin);
  }

  /**
   * Whether `c` closed at the server's budget: it served the whole budget, or was written past it
   * (the server closed at its budget, and the reset lost the answers, unexplained-close.ts).
   */
  private atBudget(c: ConnState): boolean {
    // `c.budget` is the origin's budget too: it is set when `c` opens and whenever one is learned (applyBudget).
    return c.budget !== undefined && (c.served >= c.budget || c.carried > c.budget);
  }

  /** `c` closed with requests unanswered and no known budget: judged now, or once its witnesses have shown the budget (unexplained-close.ts). */
  private unexplained(c: ConnState): void {
    const o = c.origin;
    const witnesses = witnessesOf(o, c);
    if (o.unexplainedClose !== undefined || witnesses.size === 0 || !this.ctx.strategy.pipelining) {
      this.demoteForClose(o);
      return;
    }
    o.unexplainedClose = { carried: c.carried, witnesses };
  }

  private demoteForClose(o: OriginState): void {
    o.unexplainedClose = undefined;
    this.parts.origins.demote(o, 'closed-with-outstanding');
  }

  /** Records an observation; a budget learned now applies to the origin's open connections too. */
  learnBudget(origin: string, obs: BudgetObservation): void {
    const facts = observeBudget(this.budgets.get(origin), obs);
    this.budgets.set(origin, facts);
    const o = this.parts.origins.get(origin);
    if (facts.budget === undefined || !o) return;
    if (o.unexplainedClose && explainedBy(o.unexplainedClose, facts.budget)) o.unexplainedClose = undefined;
    for (const c of applyBudget(o.conns, facts.budget)) this.retire(c);
  }

  /**
   * Closes a connection that has nothing outstanding and takes nothing more — once the transport
   * trusts its responses: with nothing outstanding, a response still held is one the transport
   * waits to see followed by silence (a surplus may be on its way), and closing now would trust
   * it unseen. `responseConfirmed` retires it then.
   */
  retire(c: ConnState): void {
    if (c.held > 0) return;
    // Every request on it was answered and no surplus arrived, so what it still holds is confirmed.
    this.forget(c);
    this.ctx.transport.closeConnection(c.id);
    this.parts.acceptance.releaseConfirmed(c);
  }

  /**
   * Closes `c` when it takes nothing more (`draining`) and nothing is left on it, so the origin may
   * open the next connection now rather than at the peer's FIN (whose `connectionClosed` is then
   * ignored). True when it did.
   */
  retireIfDrained(c: ConnState): boolean {
    if (!c.draining || c.state !== 'ready' || c.outstanding.length > 0) return false;
    this.retire(c);
    return true;
  }

  activeCount(): number {
    let active = 0;
    for (const c of this.conns.values()) if (c.state === 'connecting' || c.outstanding.length > 0) active += 1;
    return active;
  }

  /** The scheduler is closing: `o`'s connections close, what they carried fails with `why`. */
  closeOrigin(o: OriginState, why: SchedulerError): void {
    for (const c of [...o.conns]) {
      this.forget(c);
      for (const d of c.outstanding.filter((x) => !x.settled)) {
        this.parts.dispatching.settleDispatch(d);
        this.parts.ledger.settle(d.request, { dispatch: d, bytes: 0, doneAt: this.ctx.clock.now(), error: why });
      }
      this.ctx.transport.closeConnection(c.id);
    }
  }

  private forget(c: ConnState): void {
    c.state = 'closed';
    this.conns.delete(c.id);
    const i = c.origin.conns.indexOf(c);
    if (i >= 0) c.origin.conns.splice(i, 1);
  }
}
