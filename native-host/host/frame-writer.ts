import type { Writable } from 'node:stream';
import { MAX_MESSAGE_BYTES, splitIntoChunks, type HostMessage } from '../../src/protocol';
import { encodeFrame, type Endianness } from './framing';

/**
 * Writes host messages as frames, in order, honouring the stream's backpressure (`write()`
 * returning false holds everything behind it until 'drain'). A message whose JSON would reach the
 * browser's per-message limit goes out as back-to-back `chunk` frames, each under the limit.
 *
 * Invariant: this is the only writer of the host's stdout, and it writes whole frames only.
 */
export class FrameWriter {
  private readonly queue: Buffer[] = [];
  private waitingForDrain = false;
  /** Frames handed to the stream whose write callback has not run yet. */
  private unconfirmed = 0;
  private idleWaiters: Array<() => void> = [];
  private failed: Error | undefined;

  constructor(
    private readonly out: Writable,
    private readonly options: { maxMessageBytes?: number; endian?: Endianness; onError?: (err: Error) => void } = {},
  ) {
    out.on('error', (err: Error) => this.fail(err));
  }

  /** Whether the stream has failed (e.g. EPIPE: the browser closed the port). */
  get broken(): boolean {
    return this.failed !== undefined;
  }

  send(message: HostMessage): void {
    if (this.failed) return;
    const json = JSON.stringify(message);
    const limit = this.options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    if (Buffer.byteLength(json, 'utf8') < limit) {
      this.queue.push(encodeFrame(json, this.options.endian));
    } else {
      if (message.id === null) throw new Error(`an id-less ${message.type} message cannot be chunked`);
      for (const chunk of splitIntoChunks(message.id, json, limit)) this.queue.push(encodeFrame(JSON.stringify(chunk), this.options.endian));
    }
    this.pump();
  }

  /** Resolves once every frame sent so far has been accepted by the stream (or the stream failed). */
  flush(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.waitingForDrain && !this.failed) {
      const frame = this.queue.shift() as Buffer;
      this.unconfirmed += 1;
      const ok = this.out.write(frame, (err) => {
        this.unconfirmed -= 1;
        if (err) this.fail(err);
        this.notifyIdle();
      });
      if (!ok) {
        this.waitingForDrain = true;
        this.out.once('drain', () => {
          this.waitingForDrain = false;
          this.pump();
        });
      }
    }
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = err;
    this.queue.length = 0;
    this.options.onError?.(err);
    this.notifyIdle();
  }

  private isIdle(): boolean {
    return this.failed !== undefined || (this.queue.length === 0 && this.unconfirmed === 0);
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
