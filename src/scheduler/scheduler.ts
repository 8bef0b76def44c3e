import { isBadPort } from '../targets/bad-ports';
import { ConnectionLifecycle } from './connection-lifecycle';
import type { OriginState } from './connection-state';
import { Dispatcher } from './dispatcher';
import { SchedulerError } from './errors';
import { OriginLearner } from './origin-recall';
import { OriginRegistry } from './origin-registry';
import { PathPacing } from './path-pacing';
import type { PathSizing } from './path-sizing';
import { createRequest, type RequestSpec } from './request';
import { MemoryBudgets } from './request-budget';
import { RequestLedger } from './request-ledger';
import { RememberedBudgets } from './remembered-budgets';
import { RequestUrls } from './request-url';
import { ResponseAcceptance } from './response-acceptance';
import { stalled } from './stalled-response';
import type { SchedulerObserver, SchedulerOptions, SchedulerStats } from './scheduler-options';
import type { SchedulerContext, SchedulerParts } from './scheduler-parts';
import { SizeHints } from './size-hints';
import { largeResponseBytes, validateStrategy } from './strategies';
import type { ConnectionInfo, PeerSettings, ResponseEndInfo, ResponseStartInfo, TransportHandler } from './transport-port';

export type { PathSizing, SchedulerObserver, SchedulerOptions, SchedulerStats };

/**
 * The dispatch policy. It owns the queues; the transport owns sockets.
 *
 * A facade over parts with one job each (scheduler-parts.ts says how they meet): the requests and
 * their results (request-ledger.ts), origins (origin-registry.ts), the pump and dispatches
 * (dispatcher.ts), connections (connection-lifecycle.ts), whether a response is its request's
 * (response-acceptance.ts), and what the path allows (path-pacing.ts). Every transport callback
 * is keyed by an id the scheduler chose; an unknown or already settled id is ignored.
 */
export class Scheduler implements TransportHandler {
  private readonly ctx: SchedulerContext;
  private readonly allowUnsafePorts: boolean;
  /** Origins parsed before, so their URLs are split without a parse (request-url.ts). */
  private readonly urls = new RequestUrls();
  private readonly counters: SchedulerStats = { connectionsOpened: 0, dispatches: 0, retries: 0, demotions: [], pauses: 0, orderProbes: 0 };
  private readonly ledger: RequestLedger;
  private readonly origins: OriginRegistry;
  private readonly dispatcher: Dispatcher;
  private readonly connections: ConnectionLifecycle;
  private readonly acceptance: ResponseAcceptance;
  private readonly pacing: PathPacing;
  private readonly parts: SchedulerParts;

  constructor(options: SchedulerOptions) {
    const s = options.strategy;
    validateStrategy(s);
    const memory = s.memory ? options.memory : undefined;
    this.ctx = {
      strategy: s,
      clock: options.clock,
      transport: options.transport,
      observer: options.observer ?? {},
      counters: this.counters,
      sizes: new SizeHints(options.sizeHints ?? new Map(), largeResponseBytes(s)),
      memory,
      learner: memory ? new OriginLearner(memory) : undefined,
    };
    this.allowUnsafePorts = options.allowUnsafePorts ?? false;
    // Each part reaches the others through `parts`, filled in before any of them runs.
    const parts = {} as { -readonly [K in keyof SchedulerParts]: SchedulerParts[K] };
    parts.ledger = this.ledger = new RequestLedger(this.ctx, parts, options.maxQueued ?? 50_000);
    parts.origins = this.origins = new OriginRegistry(this.ctx, parts);
    parts.dispatching = this.dispatcher = new Dispatcher(this.ctx, parts);
    // One budget per origin: in the origin memory when there is one (remembered-budgets.ts).
    const budgets = options.budgets ?? (memory ? new RememberedBudgets(memory) : new MemoryBudgets());
    parts.connections = this.connections = new ConnectionLifecycle(this.ctx, parts, budgets);
    parts.acceptance = this.acceptance = new ResponseAcceptance(this.ctx, parts);
    parts.pacing = this.pacing = new PathPacing(this.ctx, parts);
    this.parts = parts;
  }

  /** Adds a request; returns its id. Throws `SchedulerError` (stable `code`) on invalid input. */
  enqueue(spec: RequestSpec): number {
    if (this.dispatcher.closed) throw new SchedulerError('E_SCHEDULER_CLOSED', 'the scheduler is closed');
    this.ledger.checkRoom(spec);
    const req = createRequest(spec, this.ledger.nextId, this.ctx.clock.now(), this.urls);
    if (spec.listed === true) this.pacing.listed();
    this.ledger.admitted();
    if (!this.allowUnsafePorts && isBadPort(req.port)) {
      // Settled, not thrown: a page that names such a URL still gets every other result.
      this.ledger.fail(req, new SchedulerError('E_UNSAFE_PORT', `port ${req.port} is one browsers refuse to connect to (Fetch "bad ports"); not fetching ${req.url}`));
      this.ledger.notifyIdle();
      return req.id;
    }
    const o = this.origins.for(req.origin);
    this.acceptance.recallFingerprint(req, o);
    o.queue.push(req);
    this.dispatcher.markDirty(o);
    return req.id;
  }

  /**
   * Opens up to `connections` connections to `origin` now, before any request for it is ready
   * (a learned list, `<link rel=preconnect>`), within the origin's limit. The connections take
   * requests like any other; unused ones close with the scheduler. An origin on a bad port is
   * never connected (unless `allowUnsafePorts`), as browsers ignore such hints. `listWindows`: the
   * count is a learned list's HTTP/2 windows (list-windows.ts), opened even where ALPN may answer h2;
   * otherwise such an origin gets one until ALPN has answered. Throws `SchedulerError`
   * `E_INVALID_URL` / `E_UNSUPPORTED_SCHEME` for a bad origin.
   */
  preconnect(origin: string, connections = 1, listWindows = false): void {
    this.warmOrigin(origin, connections, listWindows);
  }

  /** {@link preconnect}'s work; the origin it warmed, or undefined when it opens nothing. */
  private warmOrigin(origin: string, connections: number, listWindows: boolean): OriginState | undefined {
    if (this.dispatcher.closed) return undefined;
    const req = createRequest({ url: `${origin}/`, priority: 'other' }, 0, 0);
    if (!this.allowUnsafePorts && isBadPort(req.port)) return undefined;
    const o = this.origins.for(req.origin);
    if (listWindows && connections > o.warmWindows) o.warmWindows = connections;
    if (connections > o.warm) {
      o.warm = connections;
      this.dispatcher.markDirty(o);
    }
    return o;
  }

  /**
   * The document's https origin gets `connections` as its TLS handshake starts (`http2.connectionsForDocument`,
   * opened as a learned list's windows are, even before ALPN answers), and sends its render-blocking
   * requests and fonts on the warmest of them (dispatch-policy.ts `pickConnection`).
   */
  documentWindows(origin: string, connections: number): void {
    const o = this.warmOrigin(origin, connections, true);
    if (o) o.documentWindows = true;
  }

  /**
   * What a `<link rel=preconnect>` (or `dns-prefetch`) found in the document opens: one connection,
   * and for `preconnect` to an https origin (which ALPN may make h2) up to the strategy's
   * `http2.connectionsForPreconnect`, which the origin's limit then caps (h2-windows.ts: only where
   * this load's handshakes show a far path, and within what the link has room for; one where the
   * strategy opens no extra h2 windows). An http origin is HTTP/1.1: its requests open what they
   * need as they come (path-estimate.ts).
   */
  preconnectHint(origin: string, rel: 'preconnect' | 'dns-prefetch'): void {
    const h2 = this.ctx.strategy.http2;
    this.preconnect(origin, rel === 'preconnect' && h2 && origin.startsWith('https:') ? h2.connectionsForPreconnect : 1);
  }

  /** True when nothing is waiting or in flight. */
  get idle(): boolean {
    return this.ledger.idle;
  }

  /** Resolves once every request enqueued so far has settled. */
  whenIdle(): Promise<void> {
    return this.ledger.whenIdle();
  }

  stats(): SchedulerStats {
    return { ...this.counters, demotions: [...this.counters.demotions] };
  }

  /**
   * Fails everything pending with `why` (@default `E_SCHEDULER_CLOSED`) and closes every
   * connection. Responses that ended and wait for confirmation are settled as received.
   */
  close(why: SchedulerError = new SchedulerError('E_SCHEDULER_CLOSED', 'the scheduler was closed before the request completed')): void {
    if (this.dispatcher.closed) return;
    this.dispatcher.close();
    this.pacing.loadEnded();
    this.acceptance.closeAll(why);
    for (const o of this.origins.values()) {
      for (const req of [...o.retries.clear(), ...o.queue.drain()]) this.ledger.fail(req, why);
      this.connections.closeOrigin(o, why);
    }
    this.ledger.notifyIdle();
  }

  // ── transport callbacks ────────────────────────────────────────────────────────────────────

  connectionReady(connectionId: number, info: ConnectionInfo): void {
    this.connections.ready(connectionId, info);
  }

  connectionSettings(connectionId: number, info: PeerSettings): void {
    this.connections.settings(connectionId, info);
  }

  connectionDraining(connectionId: number, info: { lastStreamId: number }): void {
    this.connections.draining(connectionId, info.lastStreamId);
  }

  connectionFailed(connectionId: number, error: unknown): void {
    this.connections.failed(connectionId, error);
  }

  connectionClosed(connectionId: number, error?: unknown): void {
    this.connections.closed(connectionId, error);
  }

  responseStarted(dispatchId: number, info: ResponseStartInfo): void {
    const d = this.dispatcher.get(dispatchId);
    if (!d || d.settled) return;
    if (this.acceptance.started(d, info)) this.pacing.headersKnown(d);
  }

  responseData(dispatchId: number, bytes: number, lateMs?: number): void {
    const d = this.dispatcher.get(dispatchId);
    if (!d || d.settled) return;
    d.conn.receivedBytes += bytes;
    this.pacing.data(d, bytes, lateMs);
  }

  responseEnded(dispatchId: number, info: ResponseEndInfo): void {
    const d = this.dispatcher.get(dispatchId);
    if (!d || d.settled) return;
    this.acceptance.ended(d, info);
  }

  responseConfirmed(dispatchId: number): void {
    this.acceptance.confirmed(dispatchId);
  }

  responseStalled(dispatchId: number): void {
    const d = this.dispatcher.get(dispatchId);
    if (!d || d.settled) return;
    stalled(d, this.ctx, this.parts);
  }

  dispatchFailed(dispatchId: number, error: unknown, connectionLevel = true): void {
    const d = this.dispatcher.get(dispatchId);
    if (!d || d.settled) return;
    this.dispatcher.failed(d, error, connectionLevel);
  }
}
