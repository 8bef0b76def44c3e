import type { HttpProtocol } from '../../src/core/http-protocol';

/** What the watch reads and keeps on each connection (undici-transport.ts `Conn`). */
export interface StallWatched {
  readonly protocol: HttpProtocol;
  /** The TCP handshake time, ms: one round trip. */
  readonly rttMs: number;
  /** Response bytes (a head counts as `STALL_MIN_BYTES`) since `windowAt`. */
  progress: number;
  /** When the current window began (`performance.now()`). */
  windowAt: number;
  /** The scheduler was told of this window's stall. */
  stallReported: boolean;
}

/** What the watch reads of each flight: its connection and its dispatch id. */
interface Watchable {
  readonly conn: StallWatched;
  readonly dispatch: { readonly id: number };
}

/**
 * Less than this in a window is no progress: one full-sized TCP segment. A slow-loris server (a
 * byte of headers or body every so often), an endless trickle of chunks and a body that stopped
 * short of its `Content-Length` all stay under it; a path slower than one segment per window is
 * not one a page can load on.
 */
export const STALL_MIN_BYTES = 1460;

/**
 * How long an HTTP/1.1 connection may go without progress before its oldest response is stalled:
 * max(1 s, 8 × RTT). Eight round trips covers a server's think time and a couple of
 * retransmission timeouts on a sound path; a second covers a busy machine's scheduling on
 * loopback. Far below the idle timeout, because what waits behind a stalled response on HTTP/1.1
 * (RFC 9112 §9.3.2: responses come in request order) waits for all of it.
 */
export function stallAfterMs(rttMs: number): number {
  return Math.max(1000, 8 * rttMs);
}

/**
 * Watches the oldest response of every HTTP/1.1 connection with flights and reports, once per
 * window, the one that made less than `STALL_MIN_BYTES` of progress for `stallAfterMs`. One
 * unref'd interval, running only while flights exist (per-request timers would cost on the hot
 * path); a stall is seen at most a quarter second late.
 */
export class StallWatch {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    /** The transport's flights by dispatch id, in send order. */
    private readonly flights: ReadonlyMap<number, Watchable>,
    private readonly onStall: (dispatchId: number) => void,
    private readonly periodMs = 250,
  ) {}

  /** A request is being written on `conn`; `idle`: nothing else was in flight there. */
  written(conn: StallWatched, idle: boolean): void {
    if (conn.protocol !== 'http/1.1') return;
    if (idle) this.restart(conn, performance.now());
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), this.periodMs);
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private restart(conn: StallWatched, now: number): void {
    conn.progress = 0;
    conn.windowAt = now;
    conn.stallReported = false;
  }

  private sweep(): void {
    const now = performance.now();
    const seen = new Set<StallWatched>();
    for (const f of this.flights.values()) {
      const c = f.conn;
      if (c.protocol !== 'http/1.1' || seen.has(c)) continue;
      seen.add(c); // the first flight of a connection in send order is its oldest
      if (c.progress >= STALL_MIN_BYTES) this.restart(c, now);
      else if (!c.stallReported && now - c.windowAt >= stallAfterMs(c.rttMs)) {
        c.stallReported = true;
        this.onStall(f.dispatch.id);
      }
    }
    if (this.flights.size === 0) this.stop();
  }
}
