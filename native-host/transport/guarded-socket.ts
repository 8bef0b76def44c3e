import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { ResponseFraming } from './response-framing';
import type { TransportError } from './transport-errors';

export interface GuardEvents {
  /**
   * Responses `[0, completed)` are trusted: the connection was in step after them, or it ended
   * (cleanly or not) without a framing failure. Called with non-decreasing counts.
   */
  onTrusted(completed: number): void;
  /** A framing failure. Called once, before the socket is destroyed with `err`. */
  onFailure(err: TransportError): void;
}

/**
 * The socket undici reads an HTTP/1.1 connection through: every chunk from the real socket is
 * framed by `ResponseFraming` (response-framing.ts) before undici's parser sees it, so a surplus
 * response is caught before it can be handed to the wrong request and interim responses never
 * reach undici. The connector owns the socket, so this is the one place every byte passes.
 *
 * Why a stream in front of undici rather than a second listener beside it: a `data` listener sees
 * the bytes but cannot stop undici from parsing them, and by the time it sees a surplus undici may
 * already have completed a request with it. Why not a parser of our own: undici's stays in charge
 * of everything that is not framing (bodies, pausing, timeouts, keep-alive), and stays the one
 * the loopback benchmark compares against.
 *
 * Backpressure: when undici stops reading (a paused body) the readable buffer fills and the real
 * socket is paused, so the TCP receive window closes as it would without this layer.
 */
export class GuardedSocket extends Duplex {
  private failed = false;
  private trusted = 0;

  constructor(
    readonly inner: Socket,
    private readonly framing: ResponseFraming,
    private readonly events: GuardEvents,
  ) {
    super({ allowHalfOpen: false, readableHighWaterMark: 64 * 1024, writableHighWaterMark: 64 * 1024, decodeStrings: false });
    inner.on('data', (chunk: Buffer) => this.onData(chunk));
    let ended = false;
    inner.on('end', () => {
      ended = true;
      this.framing.end();
      this.trust(this.framing.completed);
      this.push(null);
    });
    inner.on('error', (err) => this.destroy(err));
    inner.on('close', () => {
      // A reset or a close mid-response is not a desync: what was complete stays trusted.
      if (!this.failed) this.trust(this.framing.completed);
      // After a clean end, undici first reads what is still buffered; the stream then ends and
      // destroys itself (autoDestroy). Otherwise there is nothing more to read.
      if (!ended) this.destroy();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.failed) return;
    const pieces = this.framing.scan(chunk);
    if (!Array.isArray(pieces)) {
      this.failed = true;
      this.events.onFailure(pieces);
      this.destroy(pieces);
      return;
    }
    let room = true;
    for (const p of pieces) room = this.push(p);
    if (!room) this.inner.pause();
    if (this.framing.inStep) this.trust(this.framing.completed);
  }

  private trust(completed: number): void {
    if (completed <= this.trusted) return;
    this.trusted = completed;
    this.events.onTrusted(completed);
  }

  override _read(): void {
    if (this.inner.isPaused()) this.inner.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.inner.write(chunk)) cb();
    else this.inner.once('drain', () => cb());
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.inner.cork();
    let ok = true;
    for (const c of chunks) ok = this.inner.write(c.chunk);
    this.inner.uncork();
    if (ok) cb();
    else this.inner.once('drain', () => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.inner.end();
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.inner.destroy();
    cb(err);
  }

  // What undici reads off a socket besides the stream interface.
  get remoteAddress(): string | undefined {
    return this.inner.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.inner.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.inner.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.inner.localAddress;
  }
  get localPort(): number | undefined {
    return this.inner.localPort;
  }
  get bytesRead(): number {
    return this.inner.bytesRead;
  }
  get bytesWritten(): number {
    return this.inner.bytesWritten;
  }
  get timeout(): number | undefined {
    return this.inner.timeout;
  }
  ref(): this {
    this.inner.ref();
    return this;
  }
  unref(): this {
    this.inner.unref();
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.inner.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.inner.setKeepAlive(enable, delay);
    return this;
  }
}
