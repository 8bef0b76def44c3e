/** Options of a {@link RequestGate}. */
export interface RequestGateOptions {
  /** Requests served at once. @default 64 */
  maxActive?: number;
  /** Requests waiting for a turn; more are turned away at once. @default 4096 */
  maxQueued?: number;
  /** Longest a request waits for a turn before it is turned away. @default 10000 */
  maxWaitMs?: number;
}

/** Ends a turn. Idempotent. */
export type Release = () => void;

/**
 * A bounded FIFO of requests: at most `maxActive` are served at once and at most `maxQueued` wait,
 * each for at most `maxWaitMs`; the rest are `busy` (the server answers 503 with Retry-After).
 * Waiting, not refusing, is the default for a burst: a scraper that is refused loses a sample,
 * while one that waits a few milliseconds for a turn does not. Turns are granted in arrival order.
 */
export class RequestGate {
  private readonly maxActive: number;
  private readonly maxQueued: number;
  private readonly maxWaitMs: number;
  private active = 0;
  private readonly waiting: Array<{ grant: (r: Release | 'busy') => void; timer: NodeJS.Timeout }> = [];
  private closed = false;

  constructor(options: RequestGateOptions = {}) {
    this.maxActive = options.maxActive ?? 64;
    this.maxQueued = options.maxQueued ?? 4096;
    this.maxWaitMs = options.maxWaitMs ?? 10_000;
  }

  /** Requests being served now. */
  get serving(): number {
    return this.active;
  }

  /** Requests waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A turn (call the release when the response is done), or `busy`. */
  enter(): Promise<Release | 'busy'> {
    if (this.closed) return Promise.resolve('busy');
    if (this.active < this.maxActive) return Promise.resolve(this.turn());
    if (this.waiting.length >= this.maxQueued) return Promise.resolve('busy');
    return new Promise((grant) => {
      const entry = {
        grant,
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          grant('busy');
        }, this.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  /** Turns every waiting request away and every later one too. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.grant('busy');
    }
  }

  private turn(): Release {
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant(this.turn());
      }
    };
  }
}
