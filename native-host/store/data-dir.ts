import { chmod, readdir, stat } from 'node:fs/promises';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StoreError } from './store-errors';

/** The data dir and everything under it is the user's alone (ARCHITECTURE.md, "Privacy"). */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Folder of the handshake store inside the data dir. */
export const STORE_SUBDIR = 'handshakes';

export interface DataDirContext {
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** @default os.homedir */
  homedir?: () => string;
}

/**
 * Where getlist keeps the user's data. `GETLIST_DATA_DIR` wins everywhere; otherwise
 * - Linux and other Unixes: `$XDG_DATA_HOME/getlist`, or `~/.local/share/getlist` (XDG Base
 *   Directory spec: a relative `XDG_DATA_HOME` is invalid and ignored);
 * - macOS: `~/Library/Application Support/getlist`;
 * - Windows: `%APPDATA%\getlist`, or `~\AppData\Roaming\getlist` when APPDATA is unset.
 * Pure: it only computes the path; {@link ensurePrivateDir} creates it.
 */
export function dataDirPath(ctx: DataDirContext = {}): string {
  const env = ctx.env ?? process.env;
  const platform = ctx.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const home = () => (ctx.homedir ?? os.homedir)();
  const override = env.GETLIST_DATA_DIR;
  if (override) return p.resolve(override);
  if (platform === 'win32') {
    const appData = env.APPDATA;
    return p.join(appData && p.isAbsolute(appData) ? appData : p.join(home(), 'AppData', 'Roaming'), 'getlist');
  }
  if (platform === 'darwin') return p.join(home(), 'Library', 'Application Support', 'getlist');
  const xdg = env.XDG_DATA_HOME;
  return p.join(xdg && p.isAbsolute(xdg) ? xdg : p.join(home(), '.local', 'share'), 'getlist');
}

/** The store's folder inside a data dir. */
export function storeDirIn(dataDir: string): string {
  return path.join(dataDir, STORE_SUBDIR);
}

/**
 * Creates `dir` (and missing parents) and makes `dir` itself 0700 whatever the umask, also when
 * it already existed with a wider mode. Returns `dir`.
 * @throws StoreError `E_DATA_DIR` naming the directory and the errno.
 */
export function ensurePrivateDir(dir: string): string {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    // mkdir's mode is masked by the umask, and an existing folder keeps its mode: set it outright.
    if (process.platform !== 'win32') chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StoreError('E_DATA_DIR', `cannot use ${dir} as a private data directory (${code}); set GETLIST_DATA_DIR or --data-dir to a folder you own`, { cause: err });
  }
  return dir;
}

/**
 * Sets every regular file directly in `dir` to 0600. LevelDB creates its files with 0644 minus
 * the umask and keeps creating new ones (logs, tables, manifests), so the store calls this after
 * opening, after each flush and on close. The 0700 folder is what keeps others out in between.
 */
export async function tightenFiles(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    try {
      const s = await stat(file);
      if (s.isFile() && (s.mode & 0o777) !== PRIVATE_FILE_MODE) await chmod(file, PRIVATE_FILE_MODE);
    } catch (err) {
      // LevelDB deletes obsolete files from its own thread: one vanishing under us is fine.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}
