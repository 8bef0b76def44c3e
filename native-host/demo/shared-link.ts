/**
 * One direction of the emulated bottleneck: a single FIFO serialiser shared by EVERY relayed
 * connection (a link, not a per-connection shaper), so parallel connections split the rate
 * instead of multiplying it.
 */

export class SharedLink {
  private freeAt = Number.NEGATIVE_INFINITY;

  /**
   * @param bitsPerSec serialisation rate; `Infinity` means no serialisation delay.
   */
  constructor(readonly bitsPerSec: number) {}

  /**
   * Queues `bytes` behind everything already queued (from any connection) and returns the
   * time (ms) its last bit leaves the link: `max(now, free) + bytes*8/rate`. Zero bytes
   * (a FIN) waits for the queue but occupies no time.
   */
  transmit(now: number, bytes: number): number {
    if (!Number.isFinite(this.bitsPerSec)) return now;
    const start = Math.max(now, this.freeAt);
    this.freeAt = start + (bytes * 8 * 1000) / this.bitsPerSec;
    return this.freeAt;
  }
}
