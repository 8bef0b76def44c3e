import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

const create = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/**
 * Whether this Node decodes zstd (zlib has it from 22.15). The transport offers `zstd` in
 * `Accept-Encoding` only then, so every body it is sent can be decoded (run/body-decoder.ts).
 */
export const hasZstd = typeof create === 'function';

/** A streaming zstd decoder. @throws Error when `hasZstd` is false */
export function createZstdDecompress(): Transform {
  if (!create) throw new Error('this Node has no zstd decoder (22.15+ has)');
  return create.call(zlib);
}
