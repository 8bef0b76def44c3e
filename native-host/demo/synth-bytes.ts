/**
 * Binary bodies of an exact declared size: images (valid GIF89a) and web fonts.
 *
 * The bytes after the fixed headers come from a PRNG seeded by the resource path, so they are
 * incompressible (no transfer can cheat by compressing them) yet identical across builds.
 */
import { CodedError } from '../../src/core/coded-error';
import { Prng } from '../../src/core/prng';

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
  return assembleGif(size, GIF_HEAD, GIF_TAIL, new Prng(seed));
}

/**
 * `head` (signature, screen, colour table), a comment extension of pseudo-random bytes that makes
 * the whole exactly `size` bytes, then `tail` (image descriptor, LZW data, trailer). The caller has
 * checked that `size` leaves the comment 0 or at least 2 bytes of sub-blocks.
 */
function assembleGif(size: number, head: ArrayLike<number>, tail: ArrayLike<number>, rng: Prng): Buffer {
  const out = Buffer.alloc(size);
  out.set(head, 0);
  const at = writeComment(out, head.length, size - head.length - tail.length - GIF_COMMENT_OVERHEAD, rng);
  out.set(tail, at);
  return out;
}

/**
 * A comment extension at `at` whose sub-blocks carry `pad` bytes (length bytes included) of
 * pseudo-random data; `pad` is 0 or at least 2. Returns the offset after it.
 */
function writeComment(out: Buffer, at: number, pad: number, rng: Prng): number {
  out[at++] = 0x21; // extension introducer
  out[at++] = 0xfe; // comment label
  // `pad` counts sub-block bytes still to emit, each sub-block costing 1 length byte + data.
  while (pad > 0) {
    let data = Math.min(255, pad - 1);
    if (pad - (data + 1) === 1) data -= 1; // never leave a 1-byte remainder
    out[at++] = data;
    rng.fillBytes(out.subarray(at, at + data));
    at += data;
    pad -= data + 1;
  }
  out[at++] = 0x00; // comment block terminator
  return at;
}

/** An image's intrinsic size in CSS pixels at DPR 1. */
export interface GifPixels {
  width: number;
  height: number;
}

/**
 * A valid GIF89a of exactly `size` bytes whose picture is `pixels.width` × `pixels.height`: eight
 * horizontal bands in two colours drawn from `seed`, LZW-compressed, padded with a comment
 * extension of pseudo-random bytes (decoders ignore comments). A browser lays it out, decodes it
 * and counts its area for Largest Contentful Paint as it would a photo of that size and weight — a
 * 1×1 picture shown at 320×200 counts as one pixel (the LCP spec takes the smaller of the intrinsic
 * and displayed areas), so a page of such images can only ever have text as its largest paint.
 * Chromium leaves out of LCP images under 0.05 bits per displayed pixel (a placeholder heuristic);
 * counted over the whole body, these are far above it.
 *
 * @throws SynthSizeError when `size` cannot hold the picture (the bands' LZW data is about
 *   width × height / 80 bytes at 320×200, less per pixel for larger pictures).
 */
export function gifPictureBytes(size: number, seed: string, pixels: GifPixels): Buffer {
  const min = minGifPictureSize(pixels);
  const { width, height } = pixels;
  if (!Number.isInteger(size) || size < min) {
    throw new SynthSizeError(`a ${width}×${height} GIF needs at least ${min} bytes, got ${size}`);
  }
  const rng = new Prng(seed);
  const colours = [0, 1].map(() => [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)]).flat();
  const u16 = (n: number) => [n & 0xff, n >> 8];
  const head = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, ...u16(width), ...u16(height), 0x80, 0x00, 0x00, ...colours];
  const descriptor = [0x2c, 0x00, 0x00, 0x00, 0x00, ...u16(width), ...u16(height), 0x00, GIF_MIN_CODE_SIZE];
  return assembleGif(size, head, Buffer.concat([Buffer.from(descriptor), bandsData(width, height), Buffer.from([0x3b])]), rng);
}

/** GIF's 16-bit dimensions, at most 4,000 × 4,000 here (a picture is drawn in memory first). */
function checkPixels(pixels: GifPixels): GifPixels {
  const { width, height } = pixels;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 4_000 || height > 4_000) {
    throw new SynthSizeError(`GIF picture size must be integers in 1..4000, got ${width}×${height}`);
  }
  return pixels;
}

/** GIF's smallest LZW code size (two-colour pictures use it too: GIF89a §22). */
const GIF_MIN_CODE_SIZE = 2;

/** The bands' LZW data as sub-blocks, by picture size: the same for every seed, so made once. */
const bandsCache = new Map<string, Buffer>();
function bandsData(width: number, height: number): Buffer {
  const key = `${width}x${height}`;
  let data = bandsCache.get(key);
  if (data === undefined) {
    const indices = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) indices.fill(Math.floor((y * 8) / height) % 2, y * width, (y + 1) * width);
    data = subBlocks(lzwEncode(indices, GIF_MIN_CODE_SIZE));
    bandsCache.set(key, data);
  }
  return data;
}

/** The smallest body {@link gifPictureBytes} can draw a picture of this size in. */
export function minGifPictureSize(pixels: GifPixels): number {
  const { width, height } = checkPixels(pixels);
  // Signature 6, screen 7, two-colour table 6, image descriptor 10, LZW code size 1, trailer 1,
  // the comment's own 3 and its smallest body 2; then the bands' sub-blocks.
  return 6 + 7 + 6 + 10 + 1 + 1 + GIF_COMMENT_OVERHEAD + 2 + bandsData(width, height).length;
}

/**
 * GIF's variable-length LZW (GIF89a appendix F): codes start at `minCodeSize + 1` bits and grow
 * as the table fills, packed least significant bit first; at 4,096 entries a clear code starts a
 * new table. Ends with the end-of-information code.
 */
export function lzwEncode(indices: Uint8Array, minCodeSize: number): Buffer {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let codeSize = minCodeSize + 1;
  let next = end + 1;
  let table = new Map<number, number>();
  const emit = (code: number) => {
    acc |= code << bits;
    bits += codeSize;
    while (bits >= 8) {
      out.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  };
  emit(clear);
  if (indices.length === 0) {
    emit(end);
    if (bits > 0) out.push(acc & 0xff);
    return Buffer.from(out);
  }
  let prefix = indices[0] as number;
  for (let i = 1; i < indices.length; i++) {
    const k = indices[i] as number;
    const key = prefix * 256 + k;
    const hit = table.get(key);
    if (hit !== undefined) {
      prefix = hit;
      continue;
    }
    emit(prefix);
    if (next === 4096) {
      emit(clear);
      table = new Map();
      codeSize = minCodeSize + 1;
      next = end + 1;
    } else {
      if (next >= 1 << codeSize) codeSize++;
      table.set(key, next++);
    }
    prefix = k;
  }
  emit(prefix);
  emit(end);
  if (bits > 0) out.push(acc & 0xff);
  return Buffer.from(out);
}

/** LZW bytes as GIF data sub-blocks (a length byte, at most 255 bytes), then the block terminator. */
function subBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const chunk = data.subarray(at, at + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  parts.push(Buffer.from([0x00]));
  return Buffer.concat(parts);
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
