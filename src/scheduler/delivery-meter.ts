/**
 * Is the link the bottleneck right now? The delivery rate of every response body together, over a
 * recent window, compared with the bottleneck rate the path estimates found (path-estimate.ts).
 *
 * Pausing lower-priority bodies (low-latency-pauser.ts) frees bandwidth only when there is none to
 * spare: on a link with room, a paused body just arrives later and the urgent response gains
 * nothing (docs/scheduler.md, "Pausing only when it pays"). So pausing is allowed only while the
 * recent rate is at least `busyShare` of the known bottleneck rate, and ends once it falls below `idleShare` (hysteresis: a pause
 * itself lowers the rate a little, and must not end itself at once). With no finite bottleneck
 * rate known (a fast path, or nothing measured yet) the link is never taken to be the bottleneck.
 */
export class DeliveryMeter {
  /** Bytes per bucket, a ring of `buckets` buckets of `bucketMs` each. */
  private readonly ring: number[];
  private head = 0;
  private headStart = 0;
  private busy = false;
  private capacity: number | undefined;

  constructor(
    private readonly bucketMs = 10,
    private readonly buckets = 10,
    private readonly busyShare = 0.8,
    private readonly idleShare = 0.5,
  ) {
    this.ring = new Array<number>(buckets).fill(0);
  }

  /** A bottleneck rate estimate, bytes/ms (Infinity: too fast to tell). The largest finite one counts. */
  addCapacity(rateBytesPerMs: number | undefined): void {
    if (rateBytesPerMs === undefined || !Number.isFinite(rateBytesPerMs) || rateBytesPerMs <= 0) return;
    this.capacity = Math.max(this.capacity ?? 0, rateBytesPerMs);
  }

  get capacityBytesPerMs(): number | undefined {
    return this.capacity;
  }

  add(bytes: number, now: number): void {
    this.advance(now);
    this.ring[this.head] = (this.ring[this.head] ?? 0) + bytes;
  }

  /** Bytes per ms over the last full window (the current partial bucket excluded). */
  rate(now: number): number {
    this.advance(now);
    let sum = 0;
    for (let i = 1; i < this.buckets; i++) sum += this.ring[(this.head - i + this.buckets) % this.buckets] ?? 0;
    return sum / ((this.buckets - 1) * this.bucketMs);
  }

  /** Whether the link is the bottleneck now, with hysteresis between `busyShare` and `idleShare`. */
  linkBusy(now: number): boolean {
    if (this.capacity === undefined) return (this.busy = false);
    const r = this.rate(now);
    if (this.busy) this.busy = r >= this.idleShare * this.capacity;
    else this.busy = r >= this.busyShare * this.capacity;
    return this.busy;
  }

  private advance(now: number): void {
    const steps = Math.floor((now - this.headStart) / this.bucketMs);
    if (steps <= 0) return;
    for (let i = 1; i <= Math.min(steps, this.buckets); i++) this.ring[(this.head + i) % this.buckets] = 0;
    this.head = (this.head + steps) % this.buckets;
    this.headStart += steps * this.bucketMs;
  }
}
