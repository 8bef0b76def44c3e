import { randomBytes } from 'node:crypto';
import fs, { type Stats } from 'node:fs';
import path from 'node:path';
import { CodedError } from '../../src/core/coded-error';
import { fileKind } from './read-bounded-file';

/** The parts of `node:fs` an atomic write uses; the installer passes a fake one for Windows paths. */
export type AtomicWriteFs = Pick<typeof fs, 'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'chmodSync' | 'renameSync' | 'rmSync' | 'statSync'>;

export interface AtomicWriteOptions {
  /** Permission bits of the new file, whatever the umask (POSIX). @default 0o600: exports and memories hold browsing history */
  mode?: number;
  fs?: AtomicWriteFs;
  /** `path.win32` when the file names a Windows path. @default path */
  path?: path.PlatformPath;
  /** Set `mode` with chmod as well (POSIX: the umask narrows `open`'s mode). @default true */
  chmod?: boolean;
}

/**
 * `E_FILE_WRITE`: the write failed (`errno` says why); `E_NOT_REGULAR_FILE`: the target exists and
 * is a device, FIFO or socket. The message names the file; callers wrap it in their own code.
 */
export class FileWriteError extends CodedError<'E_FILE_WRITE' | 'E_NOT_REGULAR_FILE'> {
  override readonly name = 'FileWriteError';
  constructor(
    code: 'E_FILE_WRITE' | 'E_NOT_REGULAR_FILE',
    message: string,
    readonly errno?: string,
  ) {
    super(code, message);
  }
}

/**
 * Writes `data` to `file` so that a reader sees the old file or the whole new one, never a part,
 * even after a crash: a new temporary file beside it (same filesystem, so the rename is atomic),
 * written, fsync'd and given `mode`, then renamed over `file`. An existing `file` must be a
 * regular file (a link must point at one): renaming over a device node such as /dev/null, a FIFO
 * or a socket would replace it for every other program that uses it. On failure the temporary
 * file is removed and `file` is as it was.
 * @throws FileWriteError
 */
export function writeFileAtomic(file: string, data: string, options: AtomicWriteOptions = {}): void {
  const io = options.fs ?? fs;
  const p = options.path ?? path;
  const mode = options.mode ?? 0o600;
  const target = p.resolve(file);
  refuseSpecialFile(io, target);
  const tmp = p.join(p.dirname(target), `.${p.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  let created = false;
  try {
    fd = io.openSync(tmp, 'wx', mode);
    created = true;
    io.writeSync(fd, data);
    io.fsyncSync(fd);
    io.closeSync(fd);
    fd = undefined;
    if (options.chmod ?? true) io.chmodSync(tmp, mode);
    io.renameSync(tmp, target);
  } catch (err) {
    if (fd !== undefined) io.closeSync(fd);
    if (created) io.rmSync(tmp, { force: true });
    const errno = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new FileWriteError('E_FILE_WRITE', `cannot write ${target} (${errno}); check that its folder exists and is writable`, errno);
  }
}

/** A directory is left to the rename, which fails with EISDIR. */
function refuseSpecialFile(io: AtomicWriteFs, target: string): void {
  let existing: Stats | undefined;
  try {
    existing = io.statSync(target, { throwIfNoEntry: false });
  } catch {
    return; // ENOTDIR, EACCES…: the write fails and names its errno.
  }
  if (existing && !existing.isFile() && !existing.isDirectory()) {
    throw new FileWriteError('E_NOT_REGULAR_FILE', `cannot write ${target}: it is ${fileKind(existing)}, not a regular file; give the path of a new or regular file`);
  }
}
