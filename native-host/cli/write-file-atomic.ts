import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileKind } from '../files/read-bounded-file';
import { PRIVATE_FILE_MODE } from '../store/data-dir';
import { CliError } from './cli-error';

/**
 * Writes `data` to `file` so that a reader sees the old file or the whole new one, never a part:
 * a temporary file beside it (same filesystem, so rename is atomic), fsync'd, 0600 whatever the
 * umask (exports hold browsing history), then renamed over `file`. An existing `file` must be a
 * regular file (a link must point at one): renaming over a device node such as /dev/null, a FIFO
 * or a socket would replace it with the export for every other program that uses it.
 * @throws CliError `E_EXPORT_WRITE` naming the file and the errno or what the file is.
 */
export function writeFileAtomic(file: string, data: string): void {
  const target = path.resolve(file);
  refuseSpecialFile(target);
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  let created = false;
  try {
    fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
    created = true;
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    chmodSync(tmp, PRIVATE_FILE_MODE);
    renameSync(tmp, target);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    if (created) rmSync(tmp, { force: true });
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError('E_EXPORT_WRITE', `cannot write ${target} (${code}); check that its folder exists and is writable`);
  }
}

/** A directory is left to the rename, which fails with EISDIR. */
function refuseSpecialFile(target: string): void {
  let existing: Stats | undefined;
  try {
    existing = statSync(target, { throwIfNoEntry: false });
  } catch {
    return; // ENOTDIR, EACCES…: the write below fails and names its errno.
  }
  if (existing && !existing.isFile() && !existing.isDirectory()) {
    throw new CliError('E_EXPORT_WRITE', `cannot write ${target}: it is ${fileKind(existing)}, not a regular file; give the path of a new or regular file`);
  }
}
