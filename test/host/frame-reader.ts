import { endianness } from 'node:os';
import { ChunkAssembler, MAX_MESSAGE_BYTES, parseHostMessage, type ChunkMessage, type HostMessage } from '../../src/protocol';

export interface ReadFrame {
  /** Bytes of the frame's JSON (the length prefix). */
  bytes: number;
  message: HostMessage;
}

/**
 * Reads the host's stdout as the browser does, and is stricter: every byte must belong to a frame
 * of UTF-8 JSON under 1 MiB that passes the extension's validator (`parseHostMessage`); anything
 * else is a violation. Chunks are reassembled with the extension's `ChunkAssembler`.
 */
export class FrameReader {
  readonly frames: ReadFrame[] = [];
  /** Whole messages, chunked ones reassembled, in arrival order. */
  readonly messages: HostMessage[] = [];
  readonly violations: string[] = [];
  private buf = Buffer.alloc(0);
  private readonly assembler = new ChunkAssembler();
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private waiters: Array<{ match: (m: HostMessage) => boolean; resolve: (m: HostMessage) => void; reject: (e: Error) => void; what: string }> = [];
  private ended: string | undefined;

  push(chunk: Buffer): void {
    this.buf = Buffer.concat([this.buf, chunk]);
    while (this.buf.length >= 4) {
      const n = endianness() === 'LE' ? this.buf.readUInt32LE(0) : this.buf.readUInt32BE(0);
      if (n >= MAX_MESSAGE_BYTES) {
        this.violate(`a frame announces ${n} bytes, not under the 1 MiB browser limit (starts ${JSON.stringify(this.buf.subarray(0, 40).toString('latin1'))})`);
        this.buf = Buffer.alloc(0);
        return;
      }
      if (this.buf.length < 4 + n) return;
      const payload = this.buf.subarray(4, 4 + n);
      this.buf = this.buf.subarray(4 + n);
      this.accept(n, payload);
    }
  }

  /** The stream ended: leftover bytes are a violation; pending waits fail. */
  end(why: string): void {
    if (this.buf.length > 0) this.violate(`${this.buf.length} byte(s) after the last whole frame: ${JSON.stringify(this.buf.subarray(0, 40).toString('latin1'))}`);
    this.ended = why;
    for (const w of this.waiters.splice(0)) w.reject(new Error(`waiting for ${w.what}, but ${why}`));
  }

  /** The first message (already received or still to come) that matches. */
  waitFor(match: (m: HostMessage) => boolean, what = 'a message'): Promise<HostMessage> {
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    if (this.ended) return Promise.reject(new Error(`waiting for ${what}, but ${this.ended}`));
    return new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject, what }));
  }

  /** Every message with this id so far. */
  withId(id: unknown): HostMessage[] {
    return this.messages.filter((m) => m.id === id);
  }

  private accept(bytes: number, payload: Buffer): void {
    let message: HostMessage;
    try {
      message = parseHostMessage(JSON.parse(this.utf8.decode(payload)));
    } catch (err) {
      this.violate(`a ${bytes}-byte frame is not a valid host message: ${(err as Error).message}`);
      return;
    }
    this.frames.push({ bytes, message });
    if (message.type !== 'chunk') {
      this.deliver(message);
      return;
    }
    try {
      const text = this.assembler.accept(message as ChunkMessage);
      if (text !== undefined) this.deliver(parseHostMessage(JSON.parse(text)));
    } catch (err) {
      this.violate(`chunk reassembly failed: ${(err as Error).message}`);
    }
  }

  private deliver(m: HostMessage): void {
    this.messages.push(m);
    const ready = this.waiters.filter((w) => w.match(m));
    this.waiters = this.waiters.filter((w) => !w.match(m));
    for (const w of ready) w.resolve(m);
  }

  private violate(why: string): void {
    this.violations.push(why);
    for (const w of this.waiters.splice(0)) w.reject(new Error(`stdout carried something that is not a valid frame: ${why}`));
  }
}
