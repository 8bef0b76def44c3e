import type { ConnState, DispatchState, FingerprintPair, HeldResponse, OriginState } from './connection-state';
import { contentTypeContradicts, isOrderProof } from './content-type-check';
import { SchedulerError } from './errors';
import { HeldResponses } from './held-responses';
import { isFramingProof, isFramingProofHead } from './order-probe';
import type { ScheduledRequest } from './request';
import { keepAliveBudget } from './request-budget';
import { fingerprintOf, pairVerdict, type PairEnd } from './response-fingerprint';
import type { Acceptance, SchedulerContext, SchedulerParts } from './scheduler-parts';
import type { ResponseEndInfo, ResponseStartInfo } from './transport-port';

/**
 * Whether a response is its request's, and when its result may be delivered.
 *
 * On HTTP/1.1 nothing ties a response to its request but order (docs/scheduler.md, "Desync: never
 * a wrong body"). So a response is delivered only once it is trusted: at once when the transport
 * confirms it in step, else held until `responseConfirmed` (held-responses.ts); a member of a
 * fingerprint pair only with the pair's verdict (response-fingerprint.ts). A `Content-Type` from
 * another family than the request expects, on a connection with other requests in flight, is
 * treated as a desync (Firefox's "yellow" signal). Clean responses feed the origin's pipelining
 * probe (pipeline-health.ts) with the order proofs they carry.
 *
 * Invariant: no result leaves here unverified — a held response or pair member either settles as
 * received once trusted, or is lost (and fetched again) with its connection.
 */
export class ResponseAcceptance implements Acceptance {
  private readonly held = new HeldResponses();
  /** Ended members of fingerprint pairs waiting for their pair's verdict, by dispatch id. */
  private readonly pairWaiting = new Map<number, { pair: FingerprintPair; dispatch: DispatchState }>();

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly parts: SchedulerParts,
  ) {}

  /**
   * Reads `req`'s remembered fingerprint at enqueue, on an origin not yet proven to keep order, so
   * it can be pipelined as one of a fingerprint pair.
   */
  recallFingerprint(req: ScheduledRequest, o: OriginState): void {
    const memory = this.ctx.memory;
    if (memory?.fingerprint && this.ctx.strategy.pipelining && req.method === 'GET' && o.protocol !== 'h2' && o.health.state(this.ctx.clock.now()) !== 'good') {
      req.knownFingerprint = memory.fingerprint(req.url);
    }
  }

  /**
   * Only on an HTTP/1.1 origin not yet proven to keep order, with a memory to remember it in, for
   * a `GET` — so the next load can pair its requests by fingerprint, or to check a pair now.
   */
  wantsFingerprint(c: ConnState, req: ScheduledRequest, now: number): boolean {
    return this.ctx.memory?.putFingerprint !== undefined && this.ctx.strategy.pipelining !== false && c.protocol === 'http/1.1' && req.method === 'GET' && !req.orderProbe && c.origin.health.state(now) !== 'good';
  }

  /** `d`'s response head arrived. False when it showed the connection out of step (it is discarded). */
  started(d: DispatchState, info: ResponseStartInfo): boolean {
    const { clock, sizes } = this.ctx;
    const { connections, origins, dispatching } = this.parts;
    d.firstByteAt = clock.now();
    d.status = info.status;
    d.httpVersion = info.httpVersion;
    d.contentLength = info.contentLength;
    d.contentType = info.contentType;
    if (info.earlyHints) d.earlyHints = info.earlyHints;
    const c = d.conn;
    if (!d.blocksPipeline && (info.contentLength ?? 0) >= sizes.largeBytes) {
      d.blocksPipeline = true;
      c.blockers += 1;
    }
    if (c.protocol !== 'http/1.1') return true;
    if (info.keepAliveMax !== undefined) connections.learnBudget(c.origin.origin, { kind: 'keep-alive-max', requests: keepAliveBudget(c, info.keepAliveMax) });
    if (contentTypeContradicts(d.request.resourceType, info.contentType, info.status) && !this.contradicted(d, info)) return false;
    if (info.httpVersion === '1.0') origins.demote(c.origin, 'http10');
    if (info.keepAlive && info.httpVersion === '1.1') c.origin.persistent = true;
    if (!info.keepAlive) {
      c.draining = true;
      // The server's budget, announced: this response's place among those the connection carried.
      // Announced mid-pipeline it is no fault of pipelining (RFC 9112 §9.6: the server closes after
      // this response, as nginx does at `keepalive_requests` and Apache at `MaxKeepAliveRequests`):
      // the requests behind it were never answered and are written again on another connection
      // (§9.3.2), and no connection is written past the budget again.
      if (info.httpVersion === '1.1' && info.status < 400) connections.learnBudget(c.origin.origin, { kind: 'connection-close', requests: c.served + 1 });
      // This connection takes nothing more: the origin may need another one.
      dispatching.markDirty(c.origin);
    } else if (info.httpVersion === '1.1' && c.origin.health.keepAliveSeen(clock.now())) {
      // Pipelining may start now, behind this response's body.
      dispatching.markDirty(c.origin);
    }
    // The heads hold the whole order proof (a swap would have shown in a Content-Type or in the
    // framing), so it counts now: full depth does not wait for a body the server holds back.
    if (!c.draining && info.httpVersion === '1.1' && !d.refetch && (isOrderProof(d) || isFramingProofHead(d, info.contentLength))) {
      d.proofCounted = true;
      this.responseOk(c.origin, clock.now(), true, d.pipelined);
      dispatching.markDirty(c.origin);
    }
    return true;
  }

  /**
   * `d`'s response has a `Content-Type` from another family than its request expects. With other
   * requests in flight on its connection it may be another request's response, shifted (Firefox's
   * "yellow" signal): the origin stops pipelining, the connection is discarded, and everything on
   * it since it was last trusted is fetched again (this request alone on a connection, retries
   * being written alone, RFC 9112 §9.3.2). Alone in flight, the answer is the request's own,
   * whatever its type — a tracking pixel answered with an HTML page by a correct server — and is
   * delivered — held until trusted, as any response, so an extra response counted as its answer
   * is still caught by the surplus behind it (docs/scheduler.md, "Desync: never a wrong body").
   * Alone but behind earlier responses on its connection, it may be an extra response one of
   * them brought, later than the quiet period: that answer is dropped and the request sent again,
   * and the connection retires. Either way the request records it. False when the connection was
   * discarded.
   */
  private contradicted(d: DispatchState, info: ResponseStartInfo): boolean {
    const c = d.conn;
    const said = `${info.status} ${info.contentType ?? ''}`.trim();
    const kind = d.request.resourceType ?? 'unknown';
    if (c.outstanding.length === 1 && (c.served === 0 || d.request.contradiction !== undefined)) {
      d.request.contradiction ??= `answered ${said} for a request of type ${kind}: delivered as answered`;
      return true;
    }
    if (c.outstanding.length === 1) {
      // Alone, but behind earlier responses: it may be an extra response one of them brought,
      // arrived after the quiet period. Read to its end and dropped; the request goes again, and
      // the connection takes nothing more (a real answer still to come shows as a surplus).
      d.request.contradiction = `answered ${said} for a request of type ${kind} on a connection that had carried others: fetched again alone, that answer delivered`;
      d.refetch = true;
      c.draining = true;
      this.parts.origins.demote(c.origin, 'content-type-mismatch');
      return true;
    }
    d.request.contradiction = `answered ${said} for a request of type ${kind} with other requests in flight on its connection: fetched again alone, that answer delivered`;
    const why = new SchedulerError('E_DESYNC', `${d.request.url} (${kind}) was answered with ${info.contentType} on a connection with other requests in flight: possibly another request's response`);
    this.parts.connections.discard(c, why, 'content-type-mismatch');
    return false;
  }

  /** `d`'s response is complete; its result is delivered now, held, or waits for its pair. */
  ended(d: DispatchState, info: ResponseEndInfo): void {
    const c = d.conn;
    const now = this.ctx.clock.now();
    if (!d.refetch) this.ctx.sizes.learn(d.request.url, info.bytes);
    if (c.protocol === 'http/1.1' && !c.draining && d.httpVersion === '1.1') {
      this.responseOk(c.origin, now, d.proofCounted !== true && (isOrderProof(d) || isFramingProof(d, info.bytes)), d.pipelined);
    }
    if (c.gate === d) c.gate = undefined;
    c.served += 1;
    this.parts.connections.served(c);
    this.parts.dispatching.settleDispatch(d);
    if (d.refetch) {
      this.parts.dispatching.sendAgain(d, new SchedulerError('E_DESYNC', `${d.request.url} was answered with another type of response on every send`));
      if (c.outstanding.length === 0 && c.state !== 'closed') this.parts.connections.retire(c);
      return;
    }
    if (d.fingerprint) d.responseFingerprint = fingerprintOf(d.status, info.bytes, info.digest);
    if (d.pair) {
      this.pairEnded(d.pair, d, { bytes: info.bytes, doneAt: now, fingerprint: d.responseFingerprint, confirmed: info.confirmed !== false });
    } else if (info.confirmed === false && c.state !== 'closed') {
      // Its slot is free (the pipeline keeps flowing); its result waits for `responseConfirmed`.
      this.held.hold(d, info.bytes, now);
    } else {
      this.parts.ledger.settle(d.request, { dispatch: d, bytes: info.bytes, doneAt: now });
    }
    this.parts.connections.retireIfDrained(c);
    this.parts.dispatching.markDirty(c.origin);
  }

  /** A response that ended unconfirmed is trusted now. */
  confirmed(dispatchId: number): void {
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
    // Its retirement waited for this (connection-lifecycle.ts `retire`): the origin may open the next connection now.
    if (this.parts.connections.retireIfDrained(c)) this.parts.dispatching.markDirty(c.origin);
    else if (c.held === 0 && c.origin.desynced) {
      // Its next request waited for this (dispatch-policy.ts `roomFor`).
      this.parts.dispatching.markDirty(c.origin);
    }
    this.parts.ledger.notifyIdle();
  }

  releaseOnClose(c: ConnState, error: unknown, desync: boolean): void {
    for (const h of this.held.takeAll(c)) {
      if (desync) this.parts.dispatching.loseDispatch(h.dispatch, error, true);
      else this.settleHeld(h);
    }
    // A pair member that ended is unverified until its partner ends, and its partner is lost now.
    for (const w of [...this.pairWaiting.values()]) {
      if (w.dispatch.conn !== c) continue;
      this.pairWaiting.delete(w.dispatch.id);
      this.parts.dispatching.loseDispatch(w.dispatch, error, true);
    }
  }

  releaseConfirmed(c: ConnState): void {
    for (const h of this.held.takeAll(c)) this.settleHeld(h);
  }

  /** The scheduler is closing: held responses settle as received; a pair member still waiting for its partner fails with `why`, never delivered unverified. */
  closeAll(why: SchedulerError): void {
    for (const h of this.held.takeEverything()) this.settleHeld(h);
    const now = this.ctx.clock.now();
    for (const w of this.pairWaiting.values()) this.parts.ledger.settle(w.dispatch.request, { dispatch: w.dispatch, bytes: 0, doneAt: now, error: why });
    this.pairWaiting.clear();
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
    const verdict = pairVerdict(p);
    if (verdict === 'proof') {
      this.responseOk(c.origin, this.ctx.clock.now(), true, false);
      for (const m of [p.ahead, p.behind]) {
        const e = p.ends.get(m) as PairEnd;
        if (e.confirmed || c.state === 'closed') this.parts.ledger.settle(m.request, { dispatch: m, bytes: e.bytes, doneAt: e.doneAt });
        else this.held.hold(m, e.bytes, e.doneAt);
      }
      return;
    }
    const both = `${p.ahead.request.url} and ${p.behind.request.url}, pipelined,`;
    if (verdict === 'swap') {
      const why = new SchedulerError('E_DESYNC', `${both} were each answered with the other's remembered body: the server answers out of order`);
      if (c.state !== 'closed') this.parts.connections.discard(c, why, 'fingerprint-swap');
      for (const m of [p.ahead, p.behind]) this.parts.dispatching.loseDispatch(m, why, true);
      return;
    }
    const why = new SchedulerError('E_RESPONSE_FAILED', `${both} did not both match their remembered bodies (content changed): discarded unverified`);
    for (const m of [p.ahead, p.behind]) this.parts.dispatching.loseDispatch(m, why, true);
    this.parts.dispatching.markDirty(c.origin);
  }

  /**
   * A clean response on a connection that stays open (`proof`: it was an order proof) moves the
   * origin's probe on; the memory learns the verdict, or how far a pipelined probe got.
   */
  private responseOk(o: OriginState, now: number, proof: boolean, pipelined: boolean): void {
    o.health.responseOk(now, proof);
    const learner = this.ctx.learner;
    if (learner && o.health.state(now) === 'good') learner.pipelining(o, 'good');
    else if (learner && pipelined) learner.probeProgress(o, o.health.proofs);
  }

  /** A held response settles as it was received. */
  private settleHeld(h: HeldResponse): void {
    this.parts.ledger.settle(h.dispatch.request, { dispatch: h.dispatch, bytes: h.bytes, doneAt: h.doneAt });
  }
}
