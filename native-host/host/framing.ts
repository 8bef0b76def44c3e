import { endianness } from 'node:os';
import { MAX_INBOUND_FRAME_BYTES, ProtocolError, refuseDuplicateKeys } from '../../src/protocol';

/**
 * Native messaging framing (Chrome and Firefox alike): each message is a 32-bit unsigned length
 * in the machine's native byte order, then that many bytes of UTF-8 JSON. Both directions.
 */

export type Endianness = 'LE' | 'BE';

export type FrameEvent =
  | { kind: 'frame'; payload: Buffer }
  /** The stream cannot be read any further; nothing after this event is delivered. */
  | { kind: 'fatal'; code: 'E_FRAME_TOO_LARGE' | 'E_FRAME_TRUNCATED'; message: string };

/**
 * Splits a byte stream into frames. A length prefix over `maxBytes` is refused before anything of
 * its body is buffered (the body is never allocated); after that, and after a frame cut short by
 * the end of the stream, the stream has lost its framing and the decoder delivers nothing more.
 */
export class FrameDecoder {
  private readonly header = Buffer.alloc(4);
  private headerFill = 0;
  /** Body bytes still expected for the current frame, or -1 while reading a header. */
  private remaining = -1;
  private length = 0;
  private parts: Buffer[] = [];
  private broken = false;

  constructor(
    private readonly maxBytes: number = MAX_INBOUND_FRAME_BYTES,
    private readonly endian: Endianness = endianness(),
  ) {}

  /** Feeds a chunk of the stream; returns the frames (and at most one fatal event) it completed. */
  push(chunk: Buffer): FrameEvent[] {
    const events: FrameEvent[] = [];
    let at = 0;
    while (at < chunk.length && !this.broken) {
      if (this.remaining < 0) {
        const take = Math.min(4 - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + take);
        this.headerFill += take;
        at += take;
        if (this.headerFill < 4) break;
        this.headerFill = 0;
        this.length = this.endian === 'LE' ? this.header.readUInt32LE(0) : this.header.readUInt32BE(0);
        if (this.length > this.maxBytes) {
          this.broken = true;
          events.push({ kind: 'fatal', code: 'E_FRAME_TOO_LARGE', message: `a frame announced ${this.length} bytes; the limit is ${this.maxBytes} (${mib(this.maxBytes)}), so the stream cannot be read any further` });
          break;
        }
        this.remaining = this.length;
      }
      const take = Math.min(this.remaining, chunk.length - at);
      // Whole frames inside one chunk are views of it; only a frame split across chunks is copied.
      if (take > 0) this.parts.push(chunk.subarray(at, at + take));
      at += take;
      this.remaining -= take;
      if (this.remaining === 0) {
        const payload = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.length);
        this.parts = [];
        this.remaining = -1;
        events.push({ kind: 'frame', payload });
      }
    }
    return events;
  }

  /** The stream ended. Returns the fatal event when it ended inside a frame. */
  end(): FrameEvent | undefined {
    if (this.broken) return undefined;
    this.broken = true;
    if (this.headerFill > 0) {
      return { kind: 'fatal', code: 'E_FRAME_TRUNCATED', message: `the input ended after ${this.headerFill} of a frame's 4 length bytes` };
    }
    if (this.remaining >= 0) {
      return { kind: 'fatal', code: 'E_FRAME_TRUNCATED', message: `the input ended ${this.remaining} bytes short of a ${this.length}-byte frame` };
    }
    return undefined;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A frame's payload as a JSON value, which must read one way only: no object may repeat a key.
 * @throws ProtocolError `E_INVALID_UTF8`, `E_TOO_DEEP`, `E_INVALID_JSON` or `E_DUPLICATE_KEY` (id null: nothing could be read).
 */
export function decodePayload(payload: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(payload);
  } catch {
    throw new ProtocolError('E_INVALID_UTF8', `a frame of ${payload.length} bytes is not valid UTF-8; native messages are UTF-8 JSON`);
  }
  const depth = maxNesting(payload, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    throw new ProtocolError('E_TOO_DEEP', `a frame of ${payload.length} bytes nests arrays or objects more than ${MAX_JSON_DEPTH} deep; no message needs more than ${MAX_JSON_DEPTH}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ProtocolError('E_INVALID_JSON', `a frame of ${payload.length} bytes is not JSON (${(err as Error).message})`);
  }
  refuseDuplicateKeys(text);
  return value;
}

/**
 * No message nests deeper than a few levels (a schedule is object → requests array → item).
 * A frame of nothing but `[` would have `JSON.parse` build millions of nested arrays, work and
 * memory out of all proportion to one message, so depth is bounded before parsing.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest bracket nesting of JSON text outside strings, counted up to `limit + 1` (a linear
 * scan of the bytes, stopping as soon as the limit is passed). Malformed text is left to `JSON.parse`.
 */
export function maxNesting(bytes: Uint8Array, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (inString) {
      if (b === 0x5c /* \ */) i += 1;
      else if (b === 0x22 /* " */) inString = false;
    } else if (b === 0x22) {
      inString = true;
    } else if (b === 0x5b /* [ */ || b === 0x7b /* { */) {
      depth += 1;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (b === 0x5d /* ] */ || b === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return max;
}

/** One frame: the length prefix in native byte order, then the JSON text as UTF-8. */
export function encodeFrame(json: string, endian: Endianness = endianness()): Buffer {
  const length = Buffer.byteLength(json, 'utf8');
  const frame = Buffer.allocUnsafe(4 + length);
  if (endian === 'LE') frame.writeUInt32LE(length, 0);
  else frame.writeUInt32BE(length, 0);
  frame.write(json, 4, 'utf8');
  return frame;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MiB`;
}
