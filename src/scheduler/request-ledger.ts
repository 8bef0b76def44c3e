import { SchedulerError } from './errors';
import type { RequestSpec, ScheduledRequest } from './request';
import { toResult } from './request-result';
import type { Ledger, SchedulerContext, SchedulerParts, Settled } from './scheduler-parts';

/**
 * Every caller's request from `enqueue` to its one result.
 *
 * Invariants: each admitted request settles exactly once (`settle`), and `unsettled` counts those
 * that have not; `queued` counts those waiting in an origin's queue (not retries, not in flight),
 * bounded by `maxQueued`. `whenIdle` resolves only between pumps, so a waiter never sees a
 * scheduler about to dispatch more.
 */
export class RequestLedger implements Ledger {
  private nextRequestId = 1;
  private unsettled = 0;
  private queued = 0;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly parts: SchedulerParts,
    private readonly maxQueued: number,
  ) {}

  /** The id the next admitted request gets. */
  get nextId(): number {
    return this.nextRequestId;
  }

  /** Throws `E_QUEUE_FULL` when no more requests may wait. */
  checkRoom(spec: RequestSpec): void {
    if (this.queued >= this.maxQueued) {
      throw new SchedulerError('E_QUEUE_FULL', `more than ${this.maxQueued} requests waiting; refusing ${spec?.url}`);
    }
  }

  /** A valid request (id `nextId`) joined a queue. */
  admitted(): void {
    this.nextRequestId += 1;
    this.queued += 1;
    this.unsettled += 1;
  }

  dequeued(): void {
    this.queued -= 1;
  }

  get idle(): boolean {
    return this.unsettled === 0;
  }

  whenIdle(): Promise<void> {
    if (this.unsettled === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  fail(req: ScheduledRequest, error: SchedulerError): void {
    if (req.state === 'queued' && !req.retrying) this.queued -= 1;
    this.settle(req, { dispatch: undefined, bytes: 0, doneAt: this.ctx.clock.now(), error });
  }

  settle(req: ScheduledRequest, how: Settled): void {
    // The scheduler's own probe is no caller's request: counted in stats, never reported.
    if (req.orderProbe) return;
    const d = how.dispatch;
    // A trusted response's fingerprint, for the next load's pairs.
    if (!how.error && d?.responseFingerprint !== undefined) this.ctx.memory?.putFingerprint?.(req.url, d.responseFingerprint);
    req.state = how.error ? 'failed' : 'done';
    this.unsettled -= 1;
    const result = toResult(req, d, how.bytes, how.doneAt, how.error);
    this.ctx.observer.onRequestSettled?.(result);
  }

  notifyIdle(): void {
    if (this.unsettled !== 0 || this.parts.dispatching.pumping) return;
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }
}
