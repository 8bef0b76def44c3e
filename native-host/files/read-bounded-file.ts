import { constants, type Stats } from 'node:fs';
import { open as fsOpen, type FileHandle } from 'node:fs/promises';
import { CodedError } from '../../src/errors/coded-error';

/**
 * Why a file named from outside (a native message, a command-line flag) was not read:
 * - `E_FILE_UNREADABLE`: it could not be opened (`errno` says why: ENOENT, EACCES, ELOOP…);
 * - `E_NOT_REGULAR_FILE`: it is a directory, a device (`/dev/zero`), a FIFO or a socket;
 * - `E_FILE_TOO_LARGE`: it holds, or grew while being read to, more than the caller's cap.
 * Callers wrap it in their own code (`E_CA_FILE`, `E_MEMORY_FILE`) and keep `message` as the reason.
 */
export type BoundedFileErrorCode = 'E_FILE_UNREADABLE' | 'E_NOT_REGULAR_FILE' | 'E_FILE_TOO_LARGE';

export class BoundedFileError extends CodedError<BoundedFileErrorCode> {
  override readonly name = 'BoundedFileError';
  constructor(
    code: BoundedFileErrorCode,
    message: string,
    /** The open's errno for `E_FILE_UNREADABLE`. */
    readonly errno?: string,
  ) {
    super(code, message);
  }
}

export interface ReadBoundedFileOptions {
  /** Opens the file read-only with these flags. @default fs.promises.open */
  open?: (path: string, flags: number) => Promise<FileHandle>;
}

/**
 * Non-blocking, so opening a FIFO returns at once instead of waiting for a writer (a blocked open
 * holds a libuv thread for ever); no controlling terminal from a tty. Neither changes how a
 * regular file reads. Windows has neither flag.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Bytes asked for per read once the size `fstat` gave has been read. */
const READ_STEP = 64 * 1024;

/**
 * Reads a whole regular file of at most `maxBytes`. The checks are made on the open handle, not on
 * a separate stat of the path, so the path cannot be swapped between check and read: `fstat` must
 * show a regular file no larger than the cap, and the read stops with `E_FILE_TOO_LARGE` as soon
 * as more than `maxBytes` arrive (a file that grows while read, a /proc file whose size reads 0).
 * At most `maxBytes + 1` bytes are ever held.
 * @throws BoundedFileError; its message starts with what is wrong, for the caller to prefix with the file's name.
 */
export async function readBoundedFile(path: string, maxBytes: number, options: ReadBoundedFileOptions = {}): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await (options.open ?? fsOpen)(path, OPEN_FLAGS);
  } catch (err) {
    const errno = (err as NodeJS.ErrnoException).code ?? 'error';
    // Windows refuses to open a directory at all.
    if (errno === 'EISDIR') throw new BoundedFileError('E_NOT_REGULAR_FILE', 'it is a directory, not a regular file');
    throw new BoundedFileError('E_FILE_UNREADABLE', `cannot open it (${OPEN_ERRORS[errno] ?? errno})`, errno);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new BoundedFileError('E_NOT_REGULAR_FILE', `it is ${fileKind(stats)}, not a regular file`);
    if (stats.size > maxBytes) throw tooLarge(`it holds ${stats.size} bytes`, maxBytes);
    return await readUpTo(handle, stats.size, maxBytes);
  } finally {
    await handle.close();
  }
}

async function readUpTo(handle: FileHandle, expected: number, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  // The first read asks for one byte more than fstat promised, so a file of the size it said ends in one read.
  let want = Math.min(expected + 1, maxBytes + 1);
  for (;;) {
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, total);
    if (bytesRead === 0) break;
    parts.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw tooLarge('it grew while being read', maxBytes);
    want = Math.min(READ_STEP, maxBytes + 1 - total);
  }
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, total);
}

function tooLarge(what: string, maxBytes: number): BoundedFileError {
  return new BoundedFileError('E_FILE_TOO_LARGE', `${what}, more than the ${maxBytes} bytes allowed`);
}

const OPEN_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a folder on its path is a file',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

/** What a file that is not a regular one is, for messages: `a directory`, `a character device`… */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  return 'of an unknown kind';
}
