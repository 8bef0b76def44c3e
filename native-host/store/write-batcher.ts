import { StoreError, describeCause } from './store-errors';

export type WriteOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

export interface WriteBatcherOptions {
  /** Writes one batch atomically (LevelDB: one log record). */
  write: (ops: WriteOp[]) => Promise<void>;
  /** Longest an accepted op waits before its batch is written. */
  intervalMs: number;
  /** Write at once, without waiting for the timer, when this many ops are pending. */
  flushAtOps: number;
  /** Refuse new ops (E_STORE_WRITE) while this many are pending: writes keep failing. */
  maxPendingOps: number;
  /** Background (timer-driven) write failures; the ops stay pending and are retried. */
  onError: (err: StoreError) => void;
}

/**
 * Collects writes in memory and writes them as one batch per interval. Invariants:
 * - an op accepted at time t is written by t + intervalMs (plus timer lateness), or stays pending
 *   and is retried while writes fail: a crash loses at most the last interval's ops;
 * - batches are written one at a time, in acceptance order, and a failed batch keeps its place;
 * - the timer is unref'd: pending ops never keep the process alive (close() writes them).
 */
export class WriteBatcher {
  private pending: WriteOp[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lastError: StoreError | undefined;

  constructor(private readonly o: WriteBatcherOptions) {}

  get pendingOps(): number {
    return this.pending.length;
  }

  /** @throws StoreError `E_STORE_WRITE` when writes have been failing and the backlog is full. */
  enqueue(ops: readonly WriteOp[]): void {
    if (this.pending.length + ops.length > this.o.maxPendingOps) {
      throw new StoreError('E_STORE_WRITE', `${this.pending.length} writes are waiting and none can be written: ${this.lastError?.message ?? 'the store is too slow'}`);
    }
    this.pending.push(...ops);
    if (this.pending.length >= this.o.flushAtOps) void this.flush().catch(this.o.onError);
    else this.arm();
  }

  /** Writes everything pending now. @throws StoreError `E_STORE_WRITE` (the ops stay pending). */
  flush(): Promise<void> {
    this.disarm();
    const next = this.chain.then(() => this.writePending());
    this.chain = next.catch(() => undefined);
    return next;
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
      this.lastError = err instanceof StoreError ? err : new StoreError('E_STORE_WRITE', `cannot write ${ops.length} pending changes: ${describeCause(err)}`, { cause: err });
      this.arm();
      throw this.lastError;
    }
  }

  private arm(): void {
    if (this.timer !== undefined || this.pending.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(this.o.onError);
    }, this.o.intervalMs);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
