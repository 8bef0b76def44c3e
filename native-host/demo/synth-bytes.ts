/**
 * Binary bodies of an exact declared size: images (valid GIF89a) and web fonts.
 *
 * The bytes after the fixed headers come from a PRNG seeded by the resource path, so they are
 * incompressible (no transfer can cheat by compressing them) yet identical across builds.
 */
import { CodedError } from '../../src/errors/coded-error';
import { Prng } from './prng';

/** Error raised when a body cannot be built at the requested size. */
export class SynthSizeError extends CodedError<'E_DEMO_BODY_SIZE'> {
  override readonly name = 'SynthSizeError';
  constructor(message: string) {
    super('E_DEMO_BODY_SIZE', message);
  }
}

// A 1×1 two-colour GIF89a, split around the point where a comment extension is inserted.
// The image data (`02 02 44 01 00`) is the classic minimal LZW stream for one pixel.
const GIF_HEAD = [
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, // "GIF89a"
  0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, // logical screen 1×1, 2-entry global colour table
  0x00, 0x00, 0x00, 0xff, 0xff, 0xff, // colour table: black, white
];
const GIF_TAIL = [
  0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, // image descriptor 1×1 at 0,0
  0x02, 0x02, 0x44, 0x01, 0x00, // LZW min code size 2, one 2-byte sub-block, terminator
  0x3b, // trailer
];
// Comment extension = introducer + label (2 bytes) + sub-blocks + block terminator (1 byte).
const GIF_COMMENT_OVERHEAD = 3;
const GIF_FIXED = GIF_HEAD.length + GIF_TAIL.length + GIF_COMMENT_OVERHEAD;

/**
 * Smallest size {@link gifBytes} can produce. (38 and 39 are not reachable with a comment
 * extension: a sub-block costs at least 2 bytes, so a 1-byte pad is impossible.)
 */
export const MIN_GIF_SIZE = GIF_FIXED + 2;

/**
 * A valid GIF89a of exactly `size` bytes: a 1×1 image padded with a comment extension
 * holding pseudo-random bytes (decoders ignore comments).
 */
export function gifBytes(size: number, seed: string): Buffer {
  if (!Number.isInteger(size) || size < MIN_GIF_SIZE) {
    throw new SynthSizeError(`GIF size must be an integer >= ${MIN_GIF_SIZE}, got ${size}`);
  }
  const out = Buffer.alloc(size);
  let at = 0;
  for (const b of GIF_HEAD) out[at++] = b;
  out[at++] = 0x21; // extension introducer
  out[at++] = 0xfe; // comment label
  const rng = new Prng(seed);
  // `pad` counts sub-block bytes still to emit, each sub-block costing 1 length byte + data.
  let pad = size - GIF_FIXED;
  while (pad > 0) {
    let data = Math.min(255, pad - 1);
    if (pad - (data + 1) === 1) data -= 1; // never leave a 1-byte remainder
    out[at++] = data;
    rng.fillBytes(out.subarray(at, at + data));
    at += data;
    pad -= data + 1;
  }
  out[at++] = 0x00; // comment block terminator
  for (const b of GIF_TAIL) out[at++] = b;
  return out;
}

/** Smallest size {@link fontBytes} can produce (the 48-byte WOFF2 header). */
export const MIN_FONT_SIZE = 48;

/**
 * Bytes that look like a WOFF2 file of exactly `size` bytes (signature, flavor and length
 * fields set; the tables are noise). Browsers fetch it fully before rejecting it, which is
 * all the demo needs: the load schedule, not the glyphs.
 */
export function fontBytes(size: number, seed: string): Buffer {
  if (!Number.isInteger(size) || size < MIN_FONT_SIZE) {
    throw new SynthSizeError(`font size must be an integer >= ${MIN_FONT_SIZE}, got ${size}`);
  }
  const out = Buffer.alloc(size);
  new Prng(seed).fillBytes(out.subarray(MIN_FONT_SIZE));
  out.write('wOF2', 0, 'latin1');
  out.writeUInt32BE(0x00010000, 4); // flavor: TrueType
  out.writeUInt32BE(size, 8); // total length
  return out;
}
