import { readFileSync } from 'node:fs';
import { CodedError } from '../../src/errors/coded-error';

/** The user's CA file cannot be used: missing, unreadable, too large or not PEM. */
export class CaFileError extends CodedError<'E_CA_FILE'> {
  override readonly name = 'CaFileError';
  constructor(message: string) {
    super('E_CA_FILE', message);
  }
}

/** A CA bundle is a few hundred KiB at most (Mozilla's whole root store is ~220 KiB). */
const MAX_CA_BYTES = 4 * 1024 * 1024;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/**
 * Reads a PEM CA file for `ca` (trusted besides the system's roots).
 * @throws CaFileError saying which file and what is wrong with it, and how to fix it.
 */
export function readCaFile(path: string, read: (p: string) => Buffer = readFileSync): string {
  let bytes: Buffer;
  try {
    bytes = read(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code;
    throw new CaFileError(`CA file ${path}: cannot read it (${why}); give the path of a PEM file the host's user can read`);
  }
  if (bytes.length > MAX_CA_BYTES) throw new CaFileError(`CA file ${path}: ${bytes.length} bytes is more than a CA bundle (at most ${MAX_CA_BYTES}); is it the right file?`);
  const text = bytes.toString('utf8');
  if (!PEM_CERT.test(text)) {
    throw new CaFileError(`CA file ${path}: no PEM certificate in it (expected -----BEGIN CERTIFICATE-----); convert a DER file with: openssl x509 -inform der -in FILE -out ca.pem`);
  }
  return text;
}
