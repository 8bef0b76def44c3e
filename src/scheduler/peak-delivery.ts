/**
 * The most a load received over any one round trip, every response body together: a lower bound
 * of the client's link rate that a busy event loop cannot inflate.
 *
 * Why not a flight's own rate (path-estimate.ts `FlightRate`, load-path.ts): that times chunks a
 * few milliseconds apart, and the client's own work sets those gaps as much as the link does. On
 * HTTP/2 nginx's 4 KB TLS records are read a millisecond or more apart while the event loop parses
 * the page, on a 1 Gbit/s link as on a 10 Mbit/s one, and one late read makes a slow link look fast
 * (bench/README.md, "A revisit's HTTP/2 windows"). Bytes counted over a whole round trip, and at
 * least `minWindowMs`, under-read but for reads that come late: a read late by L moves at most L's
 * worth of the link into a window of W, an over-read of at most (W + L) ÷ W.
 *
 * Counted in `bucketMs` buckets over a window of the round trip of the first origin that received
 * bytes, or `minWindowMs` when that is longer (a relay that accepts TCP itself shows a round trip
 * shorter than the path's, and the shorter the window the more a late read over-reads), rounded to
 * whole buckets. O(1) per chunk.
 */
export class PeakDelivery {
  private ring: number[] | undefined;
  private head = 0;
  private headStart = 0;
  private sum = 0;
  private peak = 0;

  constructor(private readonly bucketMs = 10, private readonly minWindowMs = 100, private readonly maxBuckets = 100) {}

  /** `bytes` arrived at `now` (ms) on an origin whose round trip is `rttMs` (undefined: not known yet). */
  add(bytes: number, now: number, rttMs: number | undefined): void {
    if (this.ring === undefined) {
      if (rttMs === undefined) return;
      const windowMs = Math.max(rttMs, this.minWindowMs);
      this.ring = new Array<number>(Math.max(1, Math.min(this.maxBuckets, Math.round(windowMs / this.bucketMs)))).fill(0);
      this.headStart = now;
    }
    this.advance(now);
    this.ring[this.head] = (this.ring[this.head] as number) + bytes;
    this.sum += bytes;
    if (this.sum > this.peak) this.peak = this.sum;
  }

  /** Bytes/ms over the busiest window so far; undefined until a byte was counted. */
  get bytesPerMs(): number | undefined {
    if (this.ring === undefined || this.peak === 0) return undefined;
    return this.peak / (this.ring.length * this.bucketMs);
  }

  private advance(now: number): void {
    const ring = this.ring as number[];
    const steps = Math.floor((now - this.headStart) / this.bucketMs);
    if (steps <= 0) return;
    for (let i = 1; i <= Math.min(steps, ring.length); i++) {
      const k = (this.head + i) % ring.length;
      this.sum -= ring[k] as number;
      ring[k] = 0;
    }
    this.head = (this.head + steps) % ring.length;
    this.headStart += steps * this.bucketMs;
  }
}
