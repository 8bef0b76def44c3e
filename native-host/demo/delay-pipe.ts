/**
 * One direction of one relayed connection: bytes enter, cross the shared bottleneck
 * ({@link SharedLink}), then arrive after the one-way propagation delay, in order.
 *
 * Invariants:
 * - Delivery times are non-decreasing within a pipe (the link is FIFO and the delay is
 *   constant), so one timer, always armed for the head entry, serves the whole queue.
 * - The FIN is delivered after every byte pushed before it.
 */
import type { LinkClock } from './link-clock';
import type { SharedLink } from './shared-link';

/** Where a pipe's output goes. */
export interface PipeSink {
  /** Chunks whose delivery time has come, oldest first (a sink may cork around them). */
  write(chunks: readonly Buffer[]): void;
  /** Everything pushed before the FIN has been written: half-close the destination. */
  end(): void;
}

export interface DelayPipeOptions {
  link: SharedLink;
  /** Propagation delay added after serialisation, ms. */
  oneWayMs: number;
  clock: LinkClock;
  sink: PipeSink;
  /**
   * Largest piece serialised as one unit, like a packet: the first byte of a response arrives
   * one packet's serialisation after it left, and connections interleave packet by packet on
   * the shared link. @default 1460 (the Ethernet TCP MSS)
   */
  segmentBytes?: number;
  /** Called after each delivery batch, e.g. to resume a source paused for backpressure. */
  onDelivered?: () => void;
}

/** See {@link DelayPipeOptions.segmentBytes}. */
export const DEFAULT_SEGMENT_BYTES = 1460;

interface Entry {
  readonly at: number;
  /** null marks the FIN. */
  readonly chunk: Buffer | null;
}

export class DelayPipe {
  private readonly opts: DelayPipeOptions;
  private readonly segmentBytes: number;
  private queue: Entry[] = [];
  private head = 0;
  private queued = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: unknown = undefined;
  private ended = false;
  private disposed = false;

  constructor(opts: DelayPipeOptions) {
    this.opts = opts;
    this.segmentBytes = opts.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
  }

  /** Bytes pushed but not yet delivered. */
  get queuedBytes(): number {
    return this.queued;
  }

  push(chunk: Buffer): void {
    if (this.ended || this.disposed || chunk.length === 0) return;
    const now = this.opts.clock.now();
    for (let off = 0; off < chunk.length; off += this.segmentBytes) {
      const piece = chunk.subarray(off, Math.min(chunk.length, off + this.segmentBytes));
      this.enqueue(this.opts.link.transmit(now, piece.length) + this.opts.oneWayMs, piece);
      this.queued += piece.length;
    }
    this.arm();
  }

  /** Queues the FIN: it waits its turn on the link like a (zero-length) packet. */
  end(): void {
    if (this.ended || this.disposed) return;
    this.ended = true;
    this.enqueue(this.opts.link.transmit(this.opts.clock.now(), 0) + this.opts.oneWayMs, null);
    this.arm();
  }

  /** Drops everything queued and stops the timer (the connection was reset or torn down). */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.head = 0;
    this.queued = 0;
  }

  private enqueue(at: number, chunk: Buffer | null): void {
    // max() only guards float noise: link times are already monotone.
    this.lastAt = Math.max(this.lastAt, at);
    this.queue.push({ at: this.lastAt, chunk });
  }

  private arm(): void {
    if (this.timer !== undefined || this.disposed) return;
    const next = this.queue[this.head];
    if (next === undefined) return;
    // ceil: a timer must never fire before the entry is due; a late wake-up is re-checked.
    const delay = Math.max(0, Math.ceil(next.at - this.opts.clock.now()));
    this.timer = this.opts.clock.setTimer(() => this.fire(), delay);
  }

  private fire(): void {
    this.timer = undefined;
    if (this.disposed) return;
    const now = this.opts.clock.now();
    const batch: Buffer[] = [];
    let fin = false;
    for (let e = this.queue[this.head]; e !== undefined && e.at <= now; e = this.queue[this.head]) {
      this.head++;
      if (e.chunk === null) {
        fin = true;
        break;
      }
      batch.push(e.chunk);
      this.queued -= e.chunk.length;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (batch.length > 0) this.opts.sink.write(batch);
    if (fin && !this.disposed) this.opts.sink.end();
    if (this.disposed) return;
    this.opts.onDelivered?.();
    this.arm();
  }
}
