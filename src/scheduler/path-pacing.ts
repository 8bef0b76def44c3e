import type { DispatchState, OriginState } from './connection-state';
import { DeliveryMeter } from './delivery-meter';
import { LoadPath } from './load-path';
import { LowLatencyPauser } from './low-latency-pauser';
import { decidePathSize, measureFirstFlight } from './path-sizing';
import type { Pacing, SchedulerContext, SchedulerParts } from './scheduler-parts';
import { windowsForDemand } from './strategies';
import { noteStreamData } from './stream-stall';
import { PeakDelivery } from './peak-delivery';
import { QueueDelay } from './queue-delay';

/**
 * What the path allows, read off response bodies as they arrive:
 *
 * - **connections sized to the path** (`connections.fitToPath`): an origin's first HTTP/1.1 flight
 *   caps its connections (path-sizing.ts, path-estimate.ts);
 * - **HTTP/2 windows for demand** (`http2.connectionsForDemand`): the load's quickest handshake
 *   and first measured flight say whether, and how many, extra connections an h2 origin may open
 *   before ALPN answers (h2-windows.ts, load-path.ts), and an h2 connection that stalls earns a
 *   second one (stream-stall.ts);
 * - **pausing** (`pausing`): lower-priority bodies pause while urgent ones are in flight
 *   (low-latency-pauser.ts), with `onlyWhenLinkBusy` only while the link is the bottleneck
 *   (delivery-meter.ts).
 *
 * Each is off, and costs nothing per chunk, unless its policy is on.
 */
export class PathPacing implements Pacing {
  private readonly meter = new DeliveryMeter();
  /** Whether the link was the bottleneck at the last look (`pausing.onlyWhenLinkBusy`). */
  private linkBusy = false;
  /** The client's link as the load's first measured flight showed it: the budget for HTTP/2 windows for demand. */
  private readonly loadPath = new LoadPath();
  private readonly pauser: LowLatencyPauser | undefined;
  /** The quickest handshake measured so far this load, ms (`handshake`). */
  private pathHandshakeMs: number | undefined;
  /** A learned list was enqueued (`RequestSpec.listed`): no HTTP/2 windows for demand this load. */
  private listBurst = false;
  /** The most the load received over a round trip, remembered for the next load's list windows (peak-delivery.ts). */
  private readonly peak: PeakDelivery | undefined;
  /** Whether its responses waited in a queue on the path: whether that peak was the link's (queue-delay.ts). */
  private readonly queue: QueueDelay | undefined;

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly parts: SchedulerParts,
  ) {
    const pausing = ctx.strategy.pausing;
    this.pauser = pausing ? new LowLatencyPauser(pausing.maxFlowing, pausing.minBytes, ctx.transport, () => { ctx.counters.pauses += 1; }) : undefined;
    this.peak = ctx.learner && windowsForDemand(ctx.strategy) !== undefined ? new PeakDelivery() : undefined;
    this.queue = this.peak ? new QueueDelay() : undefined;
  }

  recalledRate(rateBytesPerMs: number | null | undefined): void {
    if (rateBytesPerMs !== undefined && rateBytesPerMs !== null) this.meter.addCapacity(rateBytesPerMs);
  }

  /** A request of a learned list was enqueued: the list is already the whole path's burst at t = 0. */
  listed(): void {
    this.listBurst = true;
  }

  /**
   * The quickest handshake this load has measured: where even it is long, the path is far, and
   * requests that wait for a handshaking https origin earn connections of their own
   * (h2-windows.ts). The quickest, not the longest: one handshake slowed by the machine must not
   * make a near path look far. Origins already waiting are looked at again when the first
   * measured handshake is past the threshold; a later, quicker one only turns it off.
   */
  handshake(ms: number): void {
    const before = this.pathHandshakeMs;
    if (before !== undefined && before <= ms) return;
    this.pathHandshakeMs = ms;
    const h2 = windowsForDemand(this.ctx.strategy);
    if (before === undefined && h2 !== undefined && ms >= h2.demandMinHandshakeMs) this.revisitWaiting();
  }

  demandHandshakeMs(): number | undefined {
    // A revisit's learned list is already the whole path's burst at t = 0; extra windows opened
    // into it once the first handshake is measured only add handshakes and losses (h2-windows.ts).
    return this.listBurst ? undefined : this.pathHandshakeMs;
  }

  demandRoom(o: OriginState): number | undefined {
    if (this.listBurst || o.protocol === 'http/1.1' || windowsForDemand(this.ctx.strategy) === undefined) return undefined;
    // Initial windows the client's link still takes (load-path.ts): its budget less the
    // connections that are connecting or carrying requests, every origin's.
    const windows = this.loadPath.windows;
    if (windows === undefined || windows === Infinity) return windows;
    return Math.max(0, windows - this.parts.connections.activeCount());
  }

  /** `bytes` of `d`'s body were read, at most `lateMs` after they arrived. Cheap unless a policy that reads bodies is on. */
  data(d: DispatchState, bytes: number, lateMs?: number): void {
    const { strategy, clock } = this.ctx;
    const now = clock.now();
    const o = d.conn.origin;
    this.peak?.add(bytes, now, o.rttMs, lateMs);
    const h2 = strategy.http2;
    if (h2 && h2.connectionsOnStall > 1 && noteStreamData(d.conn, d, now, o.rttMs)) {
      o.h2Stalls += 1;
      o.warm = Math.max(o.warm, h2.connectionsOnStall);
      this.parts.dispatching.markDirty(o);
    }
    if (strategy.pausing && strategy.pausing.onlyWhenLinkBusy) {
      this.meter.add(bytes, now);
      // Pausing starts or stops with the link's state; only then is there anything to re-decide.
      if ((this.parts.dispatching.urgent > 0 || (this.pauser?.pausedCount ?? 0) > 0) && this.meter.linkBusy(now) !== this.linkBusy) this.parts.dispatching.markDirty(o);
    }
    if (strategy.connections.fitToPath && d.conn.protocol === 'http/1.1' && measureFirstFlight(d, bytes, now)) this.decidePath(o, true);
    if (windowsForDemand(strategy) !== undefined && this.loadPath.windows === undefined) this.measureLoadPath(d, bytes, now);
  }

  /**
   * The load is over: the most it received over a round trip is remembered on every origin it used,
   * with whether it was the link's rate. A queue on the path says so (queue-delay.ts); with no
   * request to time, the delivery's shape does (peak-delivery.ts `held`).
   */
  loadEnded(): void {
    const peak = this.peak?.bytesPerMs;
    if (peak === undefined) return;
    const held = this.queue?.queued ?? this.peak?.held ?? false;
    for (const o of this.parts.origins.values()) if (o.conns.length > 0 || o.rttMs !== undefined) this.ctx.learner?.linkPeak(o, peak, held);
  }

  /** `d`'s head arrived: how late it came, and whether, paused before its size was known, it is now known too small to be worth pausing. */
  headersKnown(d: DispatchState): void {
    // Not the document: its first byte carries the time the server took to make the page (queue-delay.ts).
    if (d.firstByteAt !== undefined && d.request.priority !== 'document') this.queue?.started(d.sentAt, d.firstByteAt, d.alone, d.conn.origin.rttMs);
    if (d.paused && this.pauser?.pausable(d) === false) this.parts.dispatching.markDirty(d.conn.origin);
    // Otherwise headers can only take room away, so there is nothing new to dispatch.
  }

  dispatchSettled(d: DispatchState): void {
    this.loadPath.ended(d.id);
    if (d.paused) this.pauser?.forget(d);
    // Ended, failed or lost: the measurement it carried ends with it (the caller pumps).
    const o = d.conn.origin;
    if (o.path.state === 'measuring' && o.path.dispatchId === d.id) this.decidePath(o, false);
  }

  updatePauses(dispatches: ReadonlyMap<number, DispatchState>, urgent: number): void {
    const pausing = this.ctx.strategy.pausing;
    // The pauser only has work while something urgent is in flight or something is paused.
    if (!pausing || !this.pauser || (urgent === 0 && this.pauser.pausedCount === 0)) return;
    if (pausing.onlyWhenLinkBusy) this.linkBusy = this.meter.linkBusy(this.ctx.clock.now());
    this.pauser.update(dispatches.values(), !pausing.onlyWhenLinkBusy || this.linkBusy);
  }

  /** Ends an origin's path measurement: a cap from the estimate, or the strategy's limit when there is none. */
  private decidePath(o: OriginState, pump: boolean): void {
    const sizing = decidePathSize(o, this.ctx.strategy.connections.maxPerOrigin);
    if (!sizing) return;
    this.meter.addCapacity(sizing.rateBytesPerMs);
    this.ctx.learner?.pathSized(o, sizing.connectionCap, sizing.rateBytesPerMs);
    this.ctx.observer.onPathSized?.(o.origin, sizing);
    if (pump) this.parts.dispatching.markDirty(o);
  }

  /** Feeds the load's path measurement (load-path.ts); once it decides, waiting demand is looked at again. */
  private measureLoadPath(d: DispatchState, bytes: number, now: number): void {
    // The round trip as path-sizing.ts takes it: the handshake's, or the request's time to first
    // byte if longer (a relay or proxy that accepts the connection itself hides the path from it).
    const rttMs = Math.max(d.conn.origin.rttMs ?? 0, d.firstByteAt === undefined ? 0 : d.firstByteAt - d.sentAt);
    if (this.loadPath.add(d.id, bytes, now, rttMs, d.conn.protocol === 'h2')) this.revisitWaiting();
  }

  /** Origins with requests waiting that may still be HTTP/2 may now earn windows of their own. */
  private revisitWaiting(): void {
    for (const x of this.parts.origins.values()) if (x.queue.size > 0 && x.protocol !== 'http/1.1') this.parts.dispatching.markDirty(x);
  }
}
