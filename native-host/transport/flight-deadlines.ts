import type { Flight } from './flight';

/**
 * Per-request total timeouts without a timer per request (this is the per-request hot path):
 * `flights` is in send order and every flight has the same timeout, so the oldest expire first.
 * One unref'd interval, running only while flights exist, expires them at most a quarter of the
 * timeout late (at most 1 s).
 */
export class FlightDeadlines {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    /** The transport's flights by dispatch id, in send order (a `Map` keeps insertion order). */
    private readonly flights: ReadonlyMap<number, Flight>,
    readonly totalMs: number,
  ) {}

  /** Starts `flight`'s clock; call as it is written. */
  start(flight: Flight): void {
    flight.deadlineAt = performance.now() + this.totalMs;
    if (this.sweeper) return;
    const period = Math.min(1000, Math.max(10, this.totalMs / 4));
    this.sweeper = setInterval(() => this.sweep(), period);
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private sweep(): void {
    const now = performance.now();
    for (const f of this.flights.values()) {
      if (f.deadlineAt > now) break;
      f.expire(this.totalMs);
    }
    if (this.flights.size === 0) this.stop();
  }
}
