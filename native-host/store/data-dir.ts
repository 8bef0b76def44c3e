import { chmod, readdir, stat } from 'node:fs/promises';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StoreError } from './store-errors';

/** The data dir and everything under it is the user's alone (docs/architecture.md, "Privacy"). */
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
 * Creates `dir` and its missing parents, each 0700 whatever the umask. A folder that already
 * exists keeps its mode: the user (or an admin, for `GETLIST_DATA_DIR=/srv/…`) chose it, and
 * tightening e.g. `/tmp` would lock everyone else out. See {@link privacyWarning}. Returns `dir`.
 * @throws StoreError `E_DATA_DIR` naming the directory and the errno.
 */
export function ensurePrivateDir(dir: string): string {
  try {
    const created = missingAncestors(dir);
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    // mkdir's mode is masked by the umask: set it outright, on the folders made here only.
    if (process.platform !== 'win32') for (const d of created) chmodSync(d, PRIVATE_DIR_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StoreError('E_DATA_DIR', `cannot use ${dir} as a private data directory (${code}); set GETLIST_DATA_DIR or --data-dir to a folder you own`, { cause: err });
  }
  return dir;
}

/**
 * A warning when `dir` exists and group or others may list or read it (the store's own files are
 * 0600 either way, but file names and the host log would be visible), else undefined.
 */
export function privacyWarning(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o077) === 0) return undefined;
    return `the data dir ${dir} has mode ${mode.toString(8).padStart(4, '0')}: other users can look inside; \`chmod 700 ${dir}\` if that is not intended (getlist leaves an existing folder's mode alone)`;
  } catch {
    return undefined;
  }
}

/** The folders `mkdir -p dir` would create, outermost first. */
function missingAncestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); !existsSync(d); d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) break;
  }
  return out;
}

/**
 * Sets every regular file directly in `dir` to 0600. LMDB creates `data.mdb` and `lock.mdb` with
 * 0664 minus the umask, so the store calls this on each generation folder it opens or creates.
 * The 0700 folder is what keeps others out in between.
 */
export async function tightenFiles(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    try {
      const s = await stat(file);
      if (s.isFile() && (s.mode & 0o777) !== PRIVATE_FILE_MODE) await chmod(file, PRIVATE_FILE_MODE);
    } catch (err) {
      // Another process may remove an old generation's files under us: one vanishing is fine.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** {@link tightenFiles}, synchronously (for code that runs inside an LMDB write transaction). */
export function tightenFilesSync(dir: string): void {
  if (process.platform === 'win32') return;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      const s = statSync(file);
      if (s.isFile() && (s.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(file, PRIVATE_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}
