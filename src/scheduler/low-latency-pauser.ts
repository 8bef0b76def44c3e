import type { DispatchState } from './connection-state';
import { isLowLatency } from '../core/priority';
import type { TransportPort } from './transport-port';

/**
 * While a low-latency request (document, blocking) is outstanding, at most `maxFlowing`
 * lower-priority responses keep reading; the others are paused, so their TCP receive windows
 * close and the bottleneck's bandwidth goes to the urgent response (McManus, "HTTP Parallel
 * Connections": "temporarily slamming their recv windows"). Everything resumes when no
 * low-latency request is outstanding.
 *
 * Invariant: a response that an outstanding low-latency request is pipelined behind on the same
 * HTTP/1.1 connection is never paused — pausing it would stall the urgent one.
 *
 * A response known to be smaller than `minBytes` (its Content-Length, else the size the
 * request list declared) is never paused either: it fits in about one initial congestion window, so
 * it is mostly in flight or already received by the time its headers are read, and pausing it frees
 * almost no bandwidth while it stalls every response pipelined behind it on its connection — on a
 * page of many small images, such as `mcmanus-159`, pausing them only cost page time
 * (docs/scheduler.md, "Priority classes").
 */
export class LowLatencyPauser {
  private readonly paused = new Set<DispatchState>();

  constructor(
    private readonly maxFlowing: number,
    private readonly minBytes: number,
    private readonly transport: Pick<TransportPort, 'pause' | 'resume'>,
    private readonly onPause: () => void,
  ) {}

  get pausedCount(): number {
    return this.paused.size;
  }

  /**
   * `active` iterates unsettled dispatches in the order they were written. `linkBusy` false (the
   * link has room, delivery-meter.ts) resumes everything: a pause would cost and free nothing.
   */
  update(active: Iterable<DispatchState>, linkBusy = true): void {
    const list = [...active];
    const urgent = linkBusy && list.some((d) => isLowLatency(d.request.priority));
    if (!urgent) {
      if (this.paused.size > 0) for (const d of [...this.paused]) this.setPaused(d, false);
      return;
    }
    let flowing = 0;
    for (const d of list) {
      if (isLowLatency(d.request.priority)) continue;
      if (aheadOfUrgent(d) || !this.pausable(d)) {
        this.setPaused(d, false);
      } else if (flowing < this.maxFlowing) {
        flowing += 1;
        this.setPaused(d, false);
      } else {
        this.setPaused(d, true);
      }
    }
  }

  /** Whether pausing `d` could free bandwidth: its size is unknown or at least `minBytes`. */
  pausable(d: DispatchState): boolean {
    const size = d.contentLength ?? d.request.expectedSize;
    return size === undefined || size >= this.minBytes;
  }

  /** A settled dispatch leaves the paused set without a transport call. */
  forget(d: DispatchState): void {
    this.paused.delete(d);
  }

  private setPaused(d: DispatchState, paused: boolean): void {
    if (d.paused === paused) return;
    d.paused = paused;
    if (paused) {
      this.paused.add(d);
      this.onPause();
      this.transport.pause(d.id);
    } else {
      this.paused.delete(d);
      this.transport.resume(d.id);
    }
  }
}

function aheadOfUrgent(d: DispatchState): boolean {
  const c = d.conn;
  if (c.protocol !== 'http/1.1') return false;
  const out = c.outstanding;
  for (let i = out.indexOf(d) + 1; i < out.length; i++) {
    if (isLowLatency((out[i] as DispatchState).request.priority)) return true;
  }
  return false;
}
