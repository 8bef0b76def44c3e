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
 * whole buckets. O(1) per chunk, but for the busy check below, which scans the windows at most once
 * per bucket.
 *
 * Whether the peak was the link's or the load's: a link that limits a load holds its rate window
 * after window, while a load that asks less than its link carries arrives in slow start's bursts,
 * each round about twice the one before (RFC 5681), or in a discovery-paced stream that rises and
 * falls. So the peak counts as `held` when {@link HELD_WINDOWS} windows in a row each carried
 * {@link HELD_SHARE} of it; otherwise it is only a floor under a link the load did not fill.
 *
 * And each of those windows must have been busy: a link that limits the load delivers through the
 * whole round trip, while one connection that the page's discovery paces gets a window's worth
 * every round trip in one burst that lasts a few milliseconds, and then nothing until the next
 * (equal bursts, so equal windows: bench/README.md, "A burst is not the link's rate"). A window counts
 * only when its bytes arrived spread over {@link SPREAD_SHARE} of it, from the earliest moment any
 * of them may have arrived (a read's time less how late the event loop may have read it, `lateMs`)
 * to the last read.
 */
export class PeakDelivery {
  /** {@link HELD_WINDOWS} windows of `size` buckets, the newest last before `head`. */
  private ring: number[] | undefined;
  /** Per bucket: the earliest moment its bytes may have arrived, and its last read (ms). */
  private earliest: number[] = [];
  private latest: number[] = [];
  private size = 0;
  private head = 0;
  private headStart = 0;
  /** Bytes in each window, the current one first. */
  private readonly windows = new Array<number>(HELD_WINDOWS).fill(0);
  private peak = 0;
  private plateau = 0;
  /** `headStart` of the bucket whose windows were last found not busy: checked again from the next bucket on. */
  private notBusyAt = -1;

  constructor(private readonly bucketMs = 10, private readonly minWindowMs = 100, private readonly maxBuckets = 100) {}

  /**
   * `bytes` were read at `now` (ms) on an origin whose round trip is `rttMs` (undefined: not known
   * yet), at most `lateMs` after they arrived (the event loop's busy time before the read).
   */
  add(bytes: number, now: number, rttMs: number | undefined, lateMs = 0): void {
    if (this.ring === undefined) {
      if (rttMs === undefined) return;
      const windowMs = Math.max(rttMs, this.minWindowMs);
      this.size = Math.max(1, Math.min(this.maxBuckets, Math.round(windowMs / this.bucketMs)));
      this.ring = new Array<number>(HELD_WINDOWS * this.size).fill(0);
      this.earliest = new Array<number>(this.ring.length).fill(Infinity);
      this.latest = new Array<number>(this.ring.length).fill(-Infinity);
      this.headStart = now;
    }
    this.advance(now);
    this.ring[this.head] = (this.ring[this.head] as number) + bytes;
    this.earliest[this.head] = Math.min(this.earliest[this.head] as number, now - lateMs);
    this.latest[this.head] = Math.max(this.latest[this.head] as number, now);
    const current = (this.windows[0] as number) + bytes;
    this.windows[0] = current;
    if (current > this.peak) this.peak = current;
    // Every body chunk comes through here: the least of the windows without an array per call.
    let all = current;
    for (let k = 1; k < HELD_WINDOWS; k++) all = Math.min(all, this.windows[k] as number);
    // The windows' spans are scanned at most once a bucket while they are not busy.
    if (all > this.plateau && this.headStart !== this.notBusyAt) {
      if (this.busyWindows()) this.plateau = all;
      else this.notBusyAt = this.headStart;
    }
  }

  /** Bytes/ms over the busiest window so far; undefined until a byte was counted. */
  get bytesPerMs(): number | undefined {
    if (this.ring === undefined || this.peak === 0) return undefined;
    return this.peak / (this.size * this.bucketMs);
  }

  /** Windows in a row carried most of the peak: the link's rate, not the rise and fall of the load's demand. */
  get held(): boolean {
    return this.peak > 0 && this.plateau >= HELD_SHARE * this.peak;
  }

  /** Each of the {@link HELD_WINDOWS} windows received its bytes over {@link SPREAD_SHARE} of it or more. */
  private busyWindows(): boolean {
    const n = this.earliest.length;
    for (let k = 0; k < HELD_WINDOWS; k++) {
      let first = Infinity;
      let last = -Infinity;
      for (let j = 0; j < this.size; j++) {
        const b = (this.head - k * this.size - j + 2 * n) % n;
        first = Math.min(first, this.earliest[b] as number);
        last = Math.max(last, this.latest[b] as number);
      }
      if (!(last - first >= SPREAD_SHARE * this.size * this.bucketMs)) return false;
    }
    return true;
  }

  private advance(now: number): void {
    const ring = this.ring as number[];
    const steps = Math.floor((now - this.headStart) / this.bucketMs);
    if (steps <= 0) return;
    const n = ring.length;
    for (let i = 1; i <= Math.min(steps, n); i++) {
      // The oldest bucket leaves the oldest window; each window's oldest moves to the one before it in time.
      const next = (this.head + i) % n;
      this.windows[HELD_WINDOWS - 1] = (this.windows[HELD_WINDOWS - 1] as number) - (ring[next] as number);
      ring[next] = 0;
      this.earliest[next] = Infinity;
      this.latest[next] = -Infinity;
      for (let k = 1; k < HELD_WINDOWS; k++) {
        const moving = ring[(this.head + i - k * this.size + n) % n] as number;
        this.windows[k - 1] = (this.windows[k - 1] as number) - moving;
        this.windows[k] = (this.windows[k] as number) + moving;
      }
    }
    this.head = (this.head + steps) % n;
    this.headStart += steps * this.bucketMs;
  }
}

/** Windows in a row that must each carry {@link HELD_SHARE} of the peak for it to be the link's. */
export const HELD_WINDOWS = 3;
/** The share of the peak each of those windows must carry. */
export const HELD_SHARE = 0.75;
/** The share of a window its bytes must have arrived over for it to count towards a held peak. */
export const SPREAD_SHARE = 0.5;
