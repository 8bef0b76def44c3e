import { chmodSync, mkdirSync, statfsSync } from 'node:fs';
import path from 'node:path';
import type { RootDatabase } from 'lmdb';
import { PRIVATE_DIR_MODE, tightenFilesSync } from './data-dir';
import { StoreError, describeCause, errnoOf, errorCode } from './store-errors';

/** One generation's LMDB environment: string keys (ordered by their UTF-8 bytes), JSON text values. */
export type Env = RootDatabase<string, string>;

/**
 * Opens (creating if needed) the environment in `storeDir/name`. Writes go through
 * `transactionSync` only: lmdb's asynchronous commits leave an internal promise rejected without
 * a handler when a commit fails (a full disk), which would crash the host. `overlappingSync` is
 * off in every process (the flag must agree between processes sharing an environment): a commit
 * returns once its pages and meta page are fsynced, so an acknowledged batch survives even a power
 * cut. The price is one fsync on the event loop per commit, which is why records are written in
 * batches (write-batcher.ts), never one commit per record.
 */
export function openEnv(storeDir: string, name: string): Env {
  const dir = path.join(storeDir, name);
  let env: Env;
  try {
    // Made here, 0700, before lmdb would make it with the umask's mode.
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (process.platform !== 'win32') chmodSync(dir, PRIVATE_DIR_MODE);
    // Loaded at the first open, not at start: most commands never open the store, and a native
    // addon that cannot load is then this store error rather than a CLI that cannot start.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { open } = require('lmdb') as typeof import('lmdb');
    env = open<string, string>({ path: dir, encoding: 'string', compression: false, noMemInit: false, overlappingSync: false });
  } catch (err) {
    throw asStoreError(err, 'E_STORE_OPEN', `cannot open the store at ${dir}`, storeDir);
  }
  tightenFilesSync(dir);
  return env;
}

/** Free bytes on the file system holding `dir`, or undefined when it cannot be asked. */
function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

const ENOSPC = 28;
const EDQUOT = 122;
const EIO = 5;
const MDB_MAP_FULL = -30792;
/** An I/O error with less than this free is the disk filling up (LMDB reports some ENOSPC as EIO). */
const NEARLY_FULL_BYTES = 4 * 1024 * 1024;

/**
 * Whether a write failure means "no space": ENOSPC or EDQUOT outright, or the EIO / MDB_MAP_FULL
 * that LMDB reports when a page write ran out of room, with the disk nearly full.
 */
export function isFullDisk(err: unknown, dir: string): boolean {
  const inner = (err as { cause?: unknown } | null)?.cause ?? err;
  const errno = errnoOf(inner);
  const code = errorCode(inner);
  if (errno === ENOSPC || errno === EDQUOT || code === 'ENOSPC' || code === 'EDQUOT') return true;
  if (errno === EIO || errno === MDB_MAP_FULL || code === 'EIO') {
    const free = freeBytes(dir);
    return free !== undefined && free < NEARLY_FULL_BYTES;
  }
  return false;
}

/** A StoreError for a failure of lmdb or the file system; E_STORE_FULL when the disk is full. */
export function asStoreError(err: unknown, code: 'E_STORE_READ' | 'E_STORE_WRITE' | 'E_STORE_OPEN', doing: string, storeDir: string): StoreError {
  if (err instanceof StoreError) return err;
  if (code !== 'E_STORE_READ' && isFullDisk(err, storeDir)) {
    return new StoreError('E_STORE_FULL', `${doing}: the disk is full (${describeCause(err)}); free some space: records wait in memory and are written when it returns`, { cause: err });
  }
  const closed = /has been closed|not open/i.test(err instanceof Error ? err.message : '');
  return new StoreError(closed ? 'E_STORE_CLOSED' : code, `${doing}: ${describeCause(err)}`, { cause: err });
}
