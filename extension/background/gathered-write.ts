/**
 * One write that the changes of a while share: the first change schedules it `delayMs` later, and
 * the changes before it runs ride along. What a service keeps in `storage.local` is written so, off
 * the moment that changed it — a top-frame commit, the next page's first frame still to come — and
 * once for several changes. `flush` writes now (a user's "forget" is not left pending).
 *
 * Invariant: writes run one at a time, in order.
 */
export class GatheredWrite {
  /** The pending timer's turn; a flush before it fires takes its place. */
  private scheduled: object | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: () => Promise<void>,
    private readonly delayMs: number,
    private readonly setTimer: (fn: () => void, ms: number) => unknown,
  ) {}

  schedule(): void {
    if (this.scheduled) return;
    const turn = {};
    this.scheduled = turn;
    this.setTimer(() => {
      if (this.scheduled === turn) void this.flush();
    }, this.delayMs);
  }

  /** Writes now (after a write already running); the write scheduled before it is then not made. */
  flush(): Promise<void> {
    this.scheduled = undefined;
    const next = this.chain.then(() => this.write());
    // A write that failed does not stop the ones after it.
    this.chain = next.catch(() => undefined);
    return next;
  }
}
