/**
 * Relays one accepted client connection to the target through the emulated link.
 *
 * Handshake emulation: loopback completes TCP's three-way handshake instantly, hiding the very
 * cost the demo is about. So the relay holds a new connection for one full RTT (the SYN /
 * SYN-ACK round trip) before it reads anything from the client or connects upstream. The
 * client's kernel-level connect time therefore reads ~0, and the handshake RTT is charged to
 * the first request's time to first byte: request at +1 RTT, +½ RTT to the server, +½ RTT
 * back = first byte at ≥ 2 RTT, as on a real link.
 *
 * Half-close aware: a FIN from either side is forwarded after everything queued before it
 * has arrived (the other direction keeps flowing). An error or reset on one side destroys
 * the other one one-way delay later, dropping whatever was still queued.
 */
import { connect, Socket } from 'node:net';
import { DelayPipe } from './delay-pipe';
import type { LinkClock } from './link-clock';
import type { SharedLink } from './shared-link';

export interface RelayContext {
  readonly target: { readonly host: string; readonly port: number };
  readonly rttMs: number;
  readonly uplink: SharedLink;
  readonly downlink: SharedLink;
  /** Per-direction backlog before the source is paused, bytes (see {@link Backpressure}). */
  readonly queueBytes: number;
  /** Bytes each direction may have in flight on top of `queueBytes` (the bandwidth-delay product). */
  readonly upInFlightBytes: number;
  readonly downInFlightBytes: number;
  readonly clock: LinkClock;
  /** Bytes delivered so far, mutated by every relay. */
  readonly counters: { bytesUp: number; bytesDown: number };
}

/**
 * Pauses a source while its pipe (plus the destination's unsent write buffer) holds more than
 * `high` bytes and resumes it at `low`. `high` = bytes in flight + `queueBytes`, so the cap never
 * throttles a connection below the link rate; it only bounds memory when the link is the
 * bottleneck or the destination stops reading.
 */
class Backpressure {
  private paused = false;

  constructor(
    private readonly source: Socket,
    private readonly pipe: DelayPipe,
    private readonly dest: () => Socket | undefined,
    private readonly high: number,
    private readonly low: number,
  ) {}

  check(): void {
    const occupancy = this.pipe.queuedBytes + (this.dest()?.writableLength ?? 0);
    if (!this.paused && occupancy > this.high) {
      this.paused = true;
      this.source.pause();
    } else if (this.paused && occupancy <= this.low) {
      this.paused = false;
      this.source.resume();
    }
  }
}

function writeAll(dest: Socket | undefined, chunks: readonly Buffer[]): number {
  if (dest === undefined || dest.destroyed) return 0;
  let bytes = 0;
  dest.cork();
  for (const chunk of chunks) {
    dest.write(chunk);
    bytes += chunk.length;
  }
  dest.uncork();
  return bytes;
}

function endIfOpen(socket: Socket | undefined): void {
  if (socket !== undefined && !socket.destroyed) socket.end();
}

function reset(socket: Socket | undefined): void {
  if (socket === undefined || socket.destroyed) return;
  socket.resetAndDestroy();
}

/** A live relay; `destroy()` tears it down at once (used by the proxy's close()). */
export interface Relay {
  destroy(): void;
}

/**
 * Starts relaying `client`, which must have been accepted with `pauseOnConnect: true` and
 * `allowHalfOpen: true`. `onDone` runs once, when both sockets are gone.
 */
export function relayConnection(client: Socket, ctx: RelayContext, onDone: () => void): Relay {
  const { clock } = ctx;
  const oneWayMs = ctx.rttMs / 2;
  let upstream: Socket | undefined;
  let handshakeTimer: unknown = undefined;
  let resetTimer: unknown = undefined;
  let finished = false;

  const upPipe: DelayPipe = new DelayPipe({
    link: ctx.uplink, oneWayMs, clock,
    sink: { write: (chunks) => { ctx.counters.bytesUp += writeAll(upstream, chunks); }, end: () => endIfOpen(upstream) },
    onDelivered: () => upPressure.check(),
  });
  const downPipe: DelayPipe = new DelayPipe({
    link: ctx.downlink, oneWayMs, clock,
    sink: { write: (chunks) => { ctx.counters.bytesDown += writeAll(client, chunks); }, end: () => endIfOpen(client) },
    onDelivered: () => downPressure?.check(),
  });
  const upPressure = new Backpressure(client, upPipe, () => upstream,
    ctx.upInFlightBytes + ctx.queueBytes, ctx.upInFlightBytes + ctx.queueBytes / 2);
  let downPressure: Backpressure | undefined;

  function finish(): void {
    if (finished) return;
    finished = true;
    if (handshakeTimer !== undefined) clock.clearTimer(handshakeTimer);
    if (resetTimer !== undefined) clock.clearTimer(resetTimer);
    handshakeTimer = resetTimer = undefined;
    upPipe.dispose();
    downPipe.dispose();
    client.destroy();
    upstream?.destroy();
    onDone();
  }

  function maybeFinish(): void {
    const upstreamGone = upstream === undefined ? handshakeTimer === undefined : upstream.destroyed;
    if (client.destroyed && upstreamGone && resetTimer === undefined) finish();
  }

  /** One side failed: the RST reaches the other side one one-way delay later. */
  function propagateReset(toward: () => Socket | undefined): void {
    if (finished || resetTimer !== undefined) return;
    upPipe.dispose();
    downPipe.dispose();
    resetTimer = clock.setTimer(() => {
      resetTimer = undefined;
      if (handshakeTimer !== undefined) clock.clearTimer(handshakeTimer);
      handshakeTimer = undefined;
      reset(toward());
      maybeFinish();
    }, oneWayMs);
  }

  function openUpstream(): void {
    handshakeTimer = undefined;
    if (client.destroyed || finished) return maybeFinish();
    // Timers may wake a little early against the monotonic clock; the RTT must be whole.
    const early = handshakeDoneAt - clock.now();
    if (early > 0) {
      handshakeTimer = clock.setTimer(openUpstream, Math.ceil(early));
      return;
    }
    const up = connect({ host: ctx.target.host, port: ctx.target.port, allowHalfOpen: true, noDelay: true });
    upstream = up;
    downPressure = new Backpressure(up, downPipe, () => client,
      ctx.downInFlightBytes + ctx.queueBytes, ctx.downInFlightBytes + ctx.queueBytes / 2);
    up.on('data', (chunk: Buffer) => { downPipe.push(chunk); downPressure?.check(); });
    up.on('end', () => downPipe.end());
    up.on('drain', () => upPressure.check());
    up.on('error', () => propagateReset(() => client));
    up.on('close', maybeFinish);
    client.on('data', (chunk: Buffer) => { upPipe.push(chunk); upPressure.check(); });
    client.on('end', () => upPipe.end());
    client.resume();
  }

  client.setNoDelay(true);
  client.on('drain', () => downPressure?.check());
  client.on('error', () => propagateReset(() => upstream));
  client.on('close', maybeFinish);
  const handshakeDoneAt = clock.now() + ctx.rttMs;
  handshakeTimer = clock.setTimer(openUpstream, ctx.rttMs);

  return { destroy: finish };
}
