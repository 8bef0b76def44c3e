import { constants, type Stats } from 'node:fs';
import { open as fsOpen, type FileHandle } from 'node:fs/promises';
import { CodedError } from '../../src/core/coded-error';

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
    throw openError(err);
  }
  try {
    const stats = await handle.stat();
    checkStats(stats, maxBytes);
    const read = new CappedRead(stats.size, maxBytes);
    for (let want = read.first(); want > 0; ) {
      const buffer = Buffer.allocUnsafe(want);
      want = read.took((await handle.read(buffer, 0, want, read.total)).bytesRead, buffer);
    }
    return read.bytes();
  } finally {
    await handle.close();
  }
}

/** The `fs` calls {@link readBoundedFileSync} makes (the installer passes its own). */
export type BoundedReadFs = Pick<typeof import('node:fs'), 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;

/** {@link readBoundedFile} for synchronous callers (the installer), with the same checks. */
export function readBoundedFileSync(fs: BoundedReadFs, path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(path, OPEN_FLAGS);
  } catch (err) {
    throw openError(err);
  }
  try {
    const stats = fs.fstatSync(fd);
    checkStats(stats, maxBytes);
    const read = new CappedRead(stats.size, maxBytes);
    for (let want = read.first(); want > 0; ) {
      const buffer = Buffer.allocUnsafe(want);
      want = read.took(fs.readSync(fd, buffer, 0, want, read.total), buffer);
    }
    return read.bytes();
  } finally {
    fs.closeSync(fd);
  }
}

function openError(err: unknown): BoundedFileError {
  const errno = (err as NodeJS.ErrnoException).code ?? 'error';
  // Windows refuses to open a directory at all.
  if (errno === 'EISDIR') return new BoundedFileError('E_NOT_REGULAR_FILE', 'it is a directory, not a regular file');
  return new BoundedFileError('E_FILE_UNREADABLE', `cannot open it (${OPEN_ERRORS[errno] ?? errno})`, errno);
}

function checkStats(stats: Stats, maxBytes: number): void {
  if (!stats.isFile()) throw new BoundedFileError('E_NOT_REGULAR_FILE', `it is ${fileKind(stats)}, not a regular file`);
  if (stats.size > maxBytes) throw tooLarge(`it holds ${stats.size} bytes`, maxBytes);
}

/** The bytes read so far, and how many to ask for next: never more than `maxBytes + 1` in all. */
class CappedRead {
  private readonly parts: Buffer[] = [];
  total = 0;
  constructor(
    private readonly expected: number,
    private readonly maxBytes: number,
  ) {}

  /** The first read asks for one byte more than fstat promised, so a file of the size it said ends in one read. */
  first(): number {
    return Math.min(this.expected + 1, this.maxBytes + 1);
  }

  /** Keeps the `n` bytes just read into `buffer`; returns how many to ask for next, 0 at the end of the file. */
  took(n: number, buffer: Buffer): number {
    if (n === 0) return 0;
    this.parts.push(buffer.subarray(0, n));
    this.total += n;
    if (this.total > this.maxBytes) throw tooLarge('it grew while being read', this.maxBytes);
    return Math.min(READ_STEP, this.maxBytes + 1 - this.total);
  }

  bytes(): Buffer {
    return this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.total);
  }
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
