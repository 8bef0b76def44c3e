/**
 * How many connections an origin's path can take at once, from what the first response on it
 * showed: the bottleneck rate, read off the first flight of that response's body, and the round
 * trip, read off the TCP handshake.
 *
 * Why it matters: each fresh connection may send a whole initial window (10 segments, RFC 6928)
 * in its first round trip. On a slow bottleneck, six of them at once overflow its queue; the lost
 * segments are the tail of the page, with nothing behind them to trigger fast retransmit
 * (RFC 5681 §3.2), so each costs a retransmission timeout — the packet-level benchmark's
 * `pm95-2544-40` on P&M's 1.544 Mbit/s link shows it (docs/scheduler.md, "Connections sized to
 * the path"; bench/RESULTS.md). On a fast path the same six windows are what lets a many-request
 * page start quickly (`mcmanus-159` at 20 Mbit/s). So the cap is `2 × BDP / initial window`: the path's bandwidth-delay product, plus as
 * much again for its queue (a buffer of about one BDP is the classic sizing, Villamizar & Song
 * 1994), divided among initial windows and rounded.
 */

/** Payload bytes of a full segment on a 1500-byte MTU path with TCP timestamps. */
export const SEGMENT_BYTES = 1448;
/** Linux's initial congestion window (RFC 6928), in bytes. */
export const INITIAL_WINDOW_BYTES = 10 * SEGMENT_BYTES;

/**
 * Delivery rate of the first flight of one response body: the bytes that arrived back to back
 * after its first chunk, over the time they took. A flight ends at the first gap longer than
 * `gapMs` (a pause for ACKs to return, about a round trip); its first chunk only marks the start,
 * since its bytes arrived before the clock started.
 */
export class FlightRate {
  private firstAt: number | undefined;
  private lastAt = 0;
  private bytes = 0;
  private ended = false;
  private atOnce = false;

  constructor(
    private readonly gapMs: number,
    /** Bytes after the first chunk needed for an estimate: fewer say little about the rate. */
    private readonly minBytes = 3 * SEGMENT_BYTES,
    private readonly burstBytes = 4 * SEGMENT_BYTES,
  ) {}

  /**
   * A chunk of `bytes` arrived at `now` (ms). A first chunk of `burstBytes` or more means the path
   * delivered that many segments faster than one read of the socket: too fast for any cap (at the
   * rates where a cap applies, segments arrive milliseconds apart and are read one by one; on a
   * 20 Mbit/s link a document's whole first flight arrives as one chunk).
   */
  add(bytes: number, now: number): void {
    if (this.ended) return;
    if (this.firstAt === undefined) {
      this.firstAt = now;
      this.lastAt = now;
      if (bytes >= this.burstBytes) {
        this.atOnce = true;
        this.ended = true;
      }
      return;
    }
    if (now - this.lastAt > this.gapMs) {
      this.ended = true;
      return;
    }
    this.bytes += bytes;
    this.lastAt = now;
  }

  /**
   * Bytes per ms, or undefined until enough has arrived. Chunks read in one event-loop turn can
   * share a timestamp; a flight that took under 1 ms is taken as 1 ms, which can only
   * underestimate a fast path's rate by a factor that still leaves it uncapped.
   */
  estimate(): number | undefined {
    if (this.atOnce) return Infinity;
    if (this.firstAt === undefined || this.bytes < this.minBytes) return undefined;
    return this.bytes / Math.max(1, this.lastAt - this.firstAt);
  }

  /** Bytes counted so far (those after the first chunk, within the first flight). */
  get countedBytes(): number {
    return this.bytes;
  }

  /** No more bytes will count (a gap ended the flight). */
  get done(): boolean {
    return this.ended;
  }
}

/**
 * Connections that fit the path at once: `2 × rate × rtt / initial window`, rounded, at least 1, at
 * most `max`. `rateBytesPerMs` × `rttMs` is the bandwidth-delay product in bytes.
 */
export function connectionsForPath(rateBytesPerMs: number, rttMs: number, max: number, initialWindowBytes = INITIAL_WINDOW_BYTES): number {
  if (!(rateBytesPerMs > 0) || !(rttMs > 0) || rateBytesPerMs === Infinity) return max;
  // Rounded, not floored: on P&M's link 2 × BDP is just under two windows, and one connection
  // left the probe round trips of pipelining unshared where two stayed loss-free (bench/RESULTS.md, pm95 pages).
  const fit = Math.round((2 * rateBytesPerMs * rttMs) / initialWindowBytes);
  return Math.max(1, Math.min(max, fit));
}
