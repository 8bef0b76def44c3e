import { BoundedFileError, readBoundedFile } from '../files/read-bounded-file';
import { CodedError } from '../../src/core/coded-error';

/** The user's CA file cannot be used: missing, unreadable, not a regular file, too large or not PEM. */
export class CaFileError extends CodedError<'E_CA_FILE'> {
  override readonly name = 'CaFileError';
  constructor(message: string) {
    super('E_CA_FILE', message);
  }
}

/** A CA bundle is a few hundred KiB at most (Mozilla's whole root store is ~220 KiB). */
export const MAX_CA_BYTES = 4 * 1024 * 1024;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/**
 * Reads a PEM CA file for `ca` (trusted besides the system's roots). The path comes from outside
 * (a replay's `caFile`, `--ca`), so it is read bounded: a device, FIFO or directory is refused
 * unread, and no more than `MAX_CA_BYTES` is ever read.
 * @throws CaFileError saying which file and what is wrong with it, and how to fix it.
 */
export async function readCaFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(path, MAX_CA_BYTES);
  } catch (err) {
    if (!(err instanceof BoundedFileError)) throw err;
    const fix = err.code === 'E_FILE_TOO_LARGE' ? 'a CA bundle is far smaller; is it the right file?' : "give the path of a PEM file the host's user can read";
    throw new CaFileError(`CA file ${path}: ${err.message}; ${fix}`);
  }
  const text = bytes.toString('utf8');
  if (!PEM_CERT.test(text)) {
    throw new CaFileError(`CA file ${path}: no PEM certificate in it (expected -----BEGIN CERTIFICATE-----); convert a DER file with: openssl x509 -inform der -in FILE -out ca.pem`);
  }
  return text;
}
