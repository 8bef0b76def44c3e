// The extension's icons, drawn at build time (no binary files in the repository, no image tools):
// a blue rounded square with a white "g", written as RGBA PNGs with zlib.
import { deflateSync, crc32 } from 'node:zlib';

/** 5×7 bitmap of a lower-case "g" (descender included), 1 = ink. */
const GLYPH = ['01111', '10001', '10001', '01111', '00001', '10001', '01110'];
const BLUE = [0x1f, 0x5f, 0xbf, 0xff];
const WHITE = [0xff, 0xff, 0xff, 0xff];
const CLEAR = [0, 0, 0, 0];

function pixel(size, x, y) {
  const r = size * 0.2;
  const cx = Math.min(Math.max(x + 0.5, r), size - r);
  const cy = Math.min(Math.max(y + 0.5, r), size - r);
  if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 > r * r) return CLEAR;
  const cell = (size * 0.7) / GLYPH.length;
  const gx = Math.floor((x - (size - cell * 5) / 2) / cell);
  const gy = Math.floor((y - size * 0.15) / cell);
  return GLYPH[gy]?.[gx] === '1' ? WHITE : BLUE;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A size×size RGBA PNG of the icon. */
export function iconPng(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) Buffer.from(pixel(size, x, y)).copy(raw, y * (size * 4 + 1) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

export const ICON_SIZES = [16, 32, 48, 128];
