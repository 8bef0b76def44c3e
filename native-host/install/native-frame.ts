import { MAX_MESSAGE_BYTES } from '../../src/protocol';

/**
 * Native messaging framing as the browser reads it: a 4-byte length in native byte order (little
 * endian on every platform browsers ship on), then that many bytes of UTF-8 JSON; host → browser
 * messages stay under MAX_MESSAGE_BYTES. The doctor plays the browser, so it reads frames with
 * this small reader of its own rather than the host's decoder (native-host/host/framing.ts): a
 * framing bug in the host is then caught, not shared.
 */

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

export type FrameRead =
  | { kind: 'need-more' }
  | { kind: 'frame'; message: unknown; size: number }
  | { kind: 'not-a-frame'; reason: string };

/**
 * Reads the first frame of `buf`. A length over the 1 MiB limit, a zero length, or a body that is
 * not JSON means the stream is not framed (typically text printed to stdout), which a browser
 * treats as a broken host.
 */
export function readFrame(buf: Buffer): FrameRead {
  if (buf.length < 4) return { kind: 'need-more' };
  const size = buf.readUInt32LE(0);
  if (size === 0) return { kind: 'not-a-frame', reason: `it starts with a zero length (${preview(buf)})` };
  if (size > MAX_MESSAGE_BYTES) {
    return { kind: 'not-a-frame', reason: `its first 4 bytes would announce a ${size}-byte message, over the 1 MiB limit; it starts ${preview(buf)}` };
  }
  if (buf.length < 4 + size) return { kind: 'need-more' };
  const body = buf.subarray(4, 4 + size).toString('utf8');
  try {
    return { kind: 'frame', message: JSON.parse(body), size };
  } catch {
    return { kind: 'not-a-frame', reason: `its ${size}-byte body is not JSON: ${preview(buf.subarray(4))}` };
  }
}

/** The first bytes as a quoted string a reader can recognise (text printed by mistake, usually). */
export function preview(buf: Buffer, max = 48): string {
  const head = JSON.stringify(buf.subarray(0, max).toString('latin1'));
  return buf.length > max ? `${head}…` : head;
}
