import type { HttpProtocol } from '../../src/core/http-protocol';

/** What the watch reads and keeps on each connection (undici-transport.ts `Conn`). */
export interface StallWatched {
  readonly protocol: HttpProtocol;
  /** The TCP handshake time, ms: one round trip. */
  readonly rttMs: number;
  /**
   * Response bytes (a head counts as `STALL_MIN_BYTES`) since `windowAt`; HTTP/2: since the last
   * sweep that saw any.
   */
  progress: number;
  /**
   * When the current window began (`performance.now()`); HTTP/2: the last sweep that saw response
   * bytes, or the connection take requests after having none, or the last PING.
   */
  windowAt: number;
  /** The scheduler was told of this window's stall. */
  stallReported: boolean;
  /** HTTP/2: PINGs sent since its last response byte (`h2ProbeAfterMs`). */
  quietProbes: number;
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
 * How long an HTTP/2 connection with open streams may go without a response byte before it gets a
 * PING (RFC 9113 §6.7), and each further PING of the same quiet spell after twice the wait before
 * it. A PING costs 17 bytes each way and any live peer answers it, so it can come early: two round
 * trips, or a quarter second on a fast path. It matters because an event-driven server can lose
 * track of a stream it has the window to send on and pick it up again only when the connection
 * is read: lighttpd 1.4.69 (Debian 12) held the rest of a script, windows open, until its client
 * spoke (bench/README.md, "What holds an HTTP/2 stream"). Where the quiet is the server's think
 * time or the path's, the PING changes nothing.
 */
export function h2ProbeAfterMs(rttMs: number, probesSent: number): number {
  return Math.max(250, 2 * rttMs) * 2 ** probesSent;
}

/**
 * Watches the oldest response of every HTTP/1.1 connection with flights and reports, once per
 * window, the one that made less than `STALL_MIN_BYTES` of progress for `stallAfterMs`; and every
 * HTTP/2 connection with flights, asking for a PING (`onQuiet`, with its oldest flight) when no
 * response byte arrived on it for `h2ProbeAfterMs`. One unref'd interval, running only while
 * flights exist (per-request timers would cost on the hot path); a stall is seen at most a tenth
 * of a second late, a quiet spell at most two tenths.
 */
export class StallWatch {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    /** The transport's flights by dispatch id, in send order. */
    private readonly flights: ReadonlyMap<number, Watchable>,
    private readonly onStall: (dispatchId: number) => void,
    /** An HTTP/2 connection went quiet: the dispatch id of its oldest flight. */
    private readonly onQuiet: (dispatchId: number) => void = () => undefined,
    private readonly periodMs = 100,
  ) {}

  /** Connections that had flights at the last sweep: an HTTP/2 one that had none starts its quiet anew. */
  private busyBefore: ReadonlySet<StallWatched> = new Set();

  /** A request is being written on `conn`; `idle`: nothing else was in flight there. */
  written(conn: StallWatched, idle: boolean): void {
    if (conn.protocol === 'http/1.1' && idle) this.restart(conn, performance.now());
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), this.periodMs);
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.busyBefore = new Set();
  }

  private restart(conn: StallWatched, now: number): void {
    conn.progress = 0;
    conn.windowAt = now;
    conn.stallReported = false;
  }

  /**
   * HTTP/2: quiet is no response byte since the sweep that last saw one, the later of that and the
   * last PING (or since the connection last took a request while idle); progress ends the backoff.
   * Read off `progress` at each sweep, so the flights' hot path counts bytes and reads no clock.
   */
  private sweepH2(f: Watchable, now: number): void {
    const c = f.conn;
    if (!this.busyBefore.has(c) || c.progress > 0) {
      c.progress = 0;
      c.windowAt = now;
      c.quietProbes = 0;
      return;
    }
    if (now - c.windowAt >= h2ProbeAfterMs(c.rttMs, c.quietProbes)) {
      c.quietProbes += 1;
      c.windowAt = now;
      this.onQuiet(f.dispatch.id);
    }
  }

  private sweep(): void {
    const now = performance.now();
    const seen = new Set<StallWatched>();
    for (const f of this.flights.values()) {
      const c = f.conn;
      if (seen.has(c)) continue;
      seen.add(c); // the first flight of a connection in send order is its oldest
      if (c.protocol === 'h2') {
        this.sweepH2(f, now);
        continue;
      }
      if (c.protocol !== 'http/1.1') continue;
      if (c.progress >= STALL_MIN_BYTES) this.restart(c, now);
      else if (!c.stallReported && now - c.windowAt >= stallAfterMs(c.rttMs)) {
        c.stallReported = true;
        this.onStall(f.dispatch.id);
      }
    }
    this.busyBefore = seen;
    if (this.flights.size === 0) this.stop();
  }
}
