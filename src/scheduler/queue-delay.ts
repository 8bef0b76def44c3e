/**
 * Whether a load's responses waited in a queue on the path: the sign that the client's link, not
 * the load's own demand, set the rate it received.
 *
 * A request written on a ready connection with nothing else outstanding gets its first byte a
 * round trip later, plus the server's time, plus the time this process took to read it, and, when
 * the link is the bottleneck, plus the time the response waited in the bottleneck's buffer behind
 * everything else in flight. A load that the link limits fills that buffer (TCP's slow start and
 * Reno's additive increase both send past the link's rate until a loss), so its responses' first
 * bytes come late by a good part of it; a load that asks less than its link carries leaves it
 * empty. It is the signal BBR reads as well: round trips above their minimum while delivery stays
 * flat (Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016).
 *
 * Why not the shape of the delivery alone (peak-delivery.ts `held`): a page whose many HTTP/1.1
 * images arrive steadily on a fast link holds its peak window after window, and a load on a slow
 * link whose discovery pauses does not; the queue tells the two apart where the shape cannot
 * (bench/README.md, "A queue on the path").
 *
 * Each sample is `first byte − sent − the origin's round trip`, for every response but the page's
 * document, whose first byte also carries the time the server took to make the page. The verdict
 * is their median, so a few slow server answers or late reads do not decide it. A page of a few
 * requests gives a few samples, and they decide too: few samples come from few connections,
 * whose windows the link's initial-window budget already keeps within the path (list-windows.ts),
 * while a page spread over many origins, whose connections together can overflow its link, gives
 * as many samples as it has connections (each connection's first request has it to itself).
 * Only with none does the delivery's shape decide; it misread small pages as well (bench/README.md,
 * "A queue on the path").
 *
 * Behind a relay that accepts TCP itself, the handshake's round trip is the relay's and every first
 * byte reads late by the rest of the path: the verdict then errs towards a queue, the side that
 * keeps a revisit's time budget, as a held peak does.
 *
 * Pure: no I/O.
 */
export class QueueDelay {
  private readonly samples: number[] = [];

  /**
   * A response's head arrived at `firstByteAt` for a request sent at `sentAt` on a connection that
   * carried nothing else (`alone`), to an origin whose round trip is `rttMs` (undefined: not known).
   */
  started(sentAt: number, firstByteAt: number, alone: boolean, rttMs: number | undefined): void {
    if (!alone || rttMs === undefined) return;
    this.samples.push(firstByteAt - sentAt - rttMs);
  }

  /** Samples taken so far. */
  get size(): number {
    return this.samples.length;
  }

  /** ms the middle sample came late; undefined with no sample (the delivery's shape decides then). */
  get medianMs(): number | undefined {
    if (this.samples.length === 0) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  }

  /** The responses waited in a queue: the link limited the load. Undefined: no sample to tell. */
  get queued(): boolean | undefined {
    const m = this.medianMs;
    return m === undefined ? undefined : m >= QUEUED_MS;
  }
}

/**
 * The median lateness that counts as a queue: above what a server's time and this process's reads
 * add on a path with room to spare, and below what a bottleneck's buffer adds while the link is
 * full (bench/README.md, "A queue on the path", and the script that traces it,
 * bench/real/real-queue.ts).
 */
export const QUEUED_MS = 20;
