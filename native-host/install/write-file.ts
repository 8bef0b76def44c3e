import { hasCode } from '../../src/core/coded-error';
import { readBoundedFileSync } from '../files/read-bounded-file';
import { FileWriteError, writeFileAtomic } from '../files/write-file-atomic';
import { pathFor, type InstallSystem } from './system';
import { InstallError } from './install-error';

/** A native messaging manifest is a few hundred bytes; a file larger than this is not one. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** What a write did; `unchanged` makes repeated installs quiet. */
export type FileChange = 'created' | 'updated' | 'unchanged';

/**
 * Writes `text` to `file` only if it differs, and makes sure of `mode` on POSIX. The write is
 * atomic (write-file-atomic.ts), so a browser never reads a half-written manifest. Missing parent
 * directories are created with `dirMode`.
 */
export function writeFileIfChanged(sys: Pick<InstallSystem, 'fs' | 'platform'>, file: string, text: string, mode: number, dirMode = 0o755): FileChange {
  const { fs } = sys;
  const posix = sys.platform !== 'win32';
  let existing: string | undefined;
  try {
    existing = readBoundedFileSync(fs, file, MAX_MANIFEST_BYTES).toString('utf8');
  } catch (err) {
    // A missing, unreadable or oversized file is replaced; a FIFO or device is not ours to replace.
    if (hasCode(err, 'E_NOT_REGULAR_FILE')) throw new InstallError('E_INSTALL_WRITE', `cannot write ${file}: ${err.message}; remove it, or install elsewhere`);
    existing = undefined;
  }
  try {
    if (existing === text) {
      if (posix && (fs.statSync(file).mode & 0o777) !== mode) {
        fs.chmodSync(file, mode);
        return 'updated';
      }
      return 'unchanged';
    }
    fs.mkdirSync(pathFor(sys.platform).dirname(file), { recursive: true, mode: dirMode });
    writeFileAtomic(file, text, { mode, fs, path: pathFor(sys.platform), chmod: posix });
  } catch (err) {
    throw new InstallError('E_INSTALL_WRITE', err instanceof FileWriteError ? err.message : `cannot write ${file}: ${(err as Error).message}`);
  }
  return existing === undefined ? 'created' : 'updated';
}

/** Removes a file; true if it existed. */
export function removeFile(sys: Pick<InstallSystem, 'fs'>, file: string): boolean {
  if (!sys.fs.existsSync(file)) return false;
  try {
    sys.fs.rmSync(file, { force: true });
  } catch (err) {
    throw new InstallError('E_INSTALL_WRITE', `cannot remove ${file}: ${(err as Error).message}`);
  }
  return true;
}
