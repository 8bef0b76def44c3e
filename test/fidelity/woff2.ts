import zlib from 'node:zlib';

/** WOFF2 "known table tags" (W3C WOFF2 §5.1): a tag's index goes in the flags byte. */
const KNOWN_TAGS = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT',
  'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH',
  'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt', 'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar',
  'gvar', 'hsty', 'just', 'lcar', 'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
];

/**
 * Wraps a TrueType font as WOFF2 with every table untransformed (glyf/loca with the "null
 * transform", version 3), Brotli-compressed by Node's zlib. Test servers answer `.woff2` URLs with
 * it so a browser accepts the first `src` of an `@font-face` instead of falling back to the next.
 */
export function ttfToWoff2(ttf: Buffer): Buffer {
  const numTables = ttf.readUInt16BE(4);
  const tables: Array<{ tag: string; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    const tag = ttf.toString('latin1', rec, rec + 4);
    const offset = ttf.readUInt32BE(rec + 8);
    const length = ttf.readUInt32BE(rec + 12);
    tables.push({ tag, data: ttf.subarray(offset, offset + length) });
  }
  // WOFF2 §5.1: `loca` must immediately follow `glyf` in the directory.
  const loca = tables.findIndex((t) => t.tag === 'loca');
  if (loca >= 0) {
    const [l] = tables.splice(loca, 1);
    tables.splice(tables.findIndex((t) => t.tag === 'glyf') + 1, 0, l as { tag: string; data: Buffer });
  }
  const directory: Buffer[] = [];
  for (const t of tables) {
    const known = KNOWN_TAGS.indexOf(t.tag);
    const transform = t.tag === 'glyf' || t.tag === 'loca' ? 3 : 0;
    const flags = Buffer.from([(transform << 6) | (known >= 0 ? known : 63)]);
    directory.push(flags);
    if (known < 0) directory.push(Buffer.from(t.tag, 'latin1'));
    directory.push(base128(t.data.length));
  }
  const dir = Buffer.concat(directory);
  const compressed = zlib.brotliCompressSync(Buffer.concat(tables.map((t) => t.data)), { params: { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_FONT } });
  const totalSfntSize = 12 + 16 * numTables + tables.reduce((a, t) => a + Math.ceil(t.data.length / 4) * 4, 0);
  const unpadded = 48 + dir.length + compressed.length;
  const length = Math.ceil(unpadded / 4) * 4;
  const header = Buffer.alloc(48);
  header.write('wOF2', 0, 'latin1');
  header.writeUInt32BE(ttf.readUInt32BE(0), 4);
  header.writeUInt32BE(length, 8);
  header.writeUInt16BE(numTables, 12);
  header.writeUInt32BE(totalSfntSize, 16);
  header.writeUInt32BE(compressed.length, 20);
  header.writeUInt16BE(1, 24);
  return Buffer.concat([header, dir, compressed, Buffer.alloc(length - unpadded)]);
}

function base128(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  do {
    bytes.unshift(v & 0x7f);
    v = Math.floor(v / 128);
  } while (v > 0);
  for (let i = 0; i < bytes.length - 1; i++) bytes[i] = (bytes[i] as number) | 0x80;
  return Buffer.from(bytes);
}
