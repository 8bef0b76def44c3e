import { StoreError, describeCause } from './store-errors';

export interface WriteBatcherOptions<T> {
  /** Writes one batch atomically (one LMDB transaction). */
  write: (items: T[]) => void | Promise<void>;
  /** Longest an accepted item waits before its batch is written. */
  intervalMs: number;
  /** Write at once, without waiting for the timer, when this many items are pending. */
  flushAtOps: number;
  /**
   * Refuse new items while this many are pending (writes keep failing): what bounds the memory a
   * full disk can take. Refused items are counted in `dropped`.
   */
  maxPendingOps: number;
  /**
   * Told when writes start failing (once per run of failures, whoever triggered the write); the
   * items stay pending and the timer retries them.
   */
  onError: (err: StoreError) => void;
}

/**
 * Collects writes in memory and writes them as one batch per interval. Invariants:
 * - an op accepted at time t is written by t + intervalMs (plus timer lateness), or stays pending
 *   and is retried while writes fail: a crash loses at most the last interval's ops;
 * - batches are written one at a time, in acceptance order, and a failed batch keeps its place;
 * - the timer is unref'd: pending ops never keep the process alive (close() writes them).
 */
export class WriteBatcher<T> {
  private pending: T[] = [];
  /** Items refused because the backlog was full. */
  dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lastError: StoreError | undefined;

  constructor(private readonly o: WriteBatcherOptions<T>) {}

  get pendingOps(): number {
    return this.pending.length;
  }

  /** Items waiting to be written, oldest first (a copy). */
  pendingItems(): T[] {
    return [...this.pending];
  }

  /** The failure of the last write while it has not succeeded since, else undefined. */
  get failure(): StoreError | undefined {
    return this.lastError;
  }

  /**
   * @throws StoreError with the last write failure's code (`E_STORE_FULL`, `E_STORE_WRITE`) when
   * writes have been failing and the backlog is full; the items are counted in `dropped`.
   */
  enqueue(ops: readonly T[]): void {
    if (this.pending.length + ops.length > this.o.maxPendingOps) {
      this.dropped += ops.length;
      const code = this.lastError?.code === 'E_STORE_FULL' ? 'E_STORE_FULL' : 'E_STORE_WRITE';
      throw new StoreError(code, `${this.pending.length} records are waiting and none can be written, so ${ops.length} more were not saved: ${this.lastError?.message ?? 'the store is too slow'}`);
    }
    this.pending.push(...ops);
    if (this.pending.length >= this.o.flushAtOps) void this.flush().catch(() => undefined);
    else this.arm();
  }

  /** Writes everything pending now. @throws StoreError `E_STORE_WRITE` (the ops stay pending). */
  flush(): Promise<void> {
    this.disarm();
    const next = this.chain.then(() => this.writePending());
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Takes the pending items `drop` selects out of the queue (forget); returns them. */
  removePending(drop: (item: T) => boolean): T[] {
    const removed = this.pending.filter(drop);
    if (removed.length > 0) this.pending = this.pending.filter((x) => !drop(x));
    return removed;
  }

  /** Stops the timer; what is pending stays pending (call flush first to keep it). */
  stop(): void {
    this.disarm();
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const ops = this.pending;
    this.pending = [];
    try {
      await this.o.write(ops);
      this.lastError = undefined;
    } catch (err) {
      this.pending = ops.concat(this.pending);
      const first = this.lastError === undefined;
      this.lastError = err instanceof StoreError ? err : new StoreError('E_STORE_WRITE', `cannot write ${ops.length} pending records: ${describeCause(err)}`, { cause: err });
      this.arm();
      if (first) this.o.onError(this.lastError);
      throw this.lastError;
    }
  }

  private arm(): void {
    if (this.timer !== undefined || this.pending.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined);
    }, this.o.intervalMs);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
