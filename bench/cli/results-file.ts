/**
 * The text of a results file named on a command line, plain or gzipped: git keeps the raw runs the
 * documents cite gzipped (bench/results/raw/), and every reader takes either form as it is.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** `bytes` as text, decompressed first when they start with gzip's magic number. */
export function textOf(bytes: Buffer, name: string, fail: (message: string) => Error): string {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (err) {
    throw fail(`${name} is gzip but does not decompress: ${(err as Error).message}`);
  }
}

/** The text of `path`, plain or gzipped; `fail` makes the coded error for a file that cannot be read. */
export function readTextFile(path: string, fail: (message: string) => Error): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw fail(`cannot read ${path}: ${(err as Error).message}`);
  }
  return textOf(bytes, path, fail);
}

/** Reads `path` (plain or gzipped) and parses it as JSON; `fail` makes the coded error for a file that cannot be. */
export function readJsonFile(path: string, fail: (message: string) => Error): unknown {
  const text = readTextFile(path, fail);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw fail(`${path} is not JSON: ${(err as Error).message}`);
  }
}
