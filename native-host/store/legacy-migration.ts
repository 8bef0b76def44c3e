import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ClassicLevel } from 'classic-level';
import type { Env } from './lmdb-env';
import { LAYOUT_VERSION, META_VERSION } from './record-codec';
import { StoreError, describeCause, errorCode } from './store-errors';

/*
 * getlist ≤ 0.1 kept the store in LevelDB (classic-level), in the same folder. LevelDB is single
 * process (an fcntl lock), so the store moved to LMDB; the first open of the new store copies
 * every LevelDB entry, unchanged (same keys, same JSON values), into the first LMDB generation
 * and then deletes the LevelDB files, which would otherwise keep the user's data on disk after
 * a "forget". classic-level stays a dependency for this alone.
 */

/** File names LevelDB creates in its folder. */
const LEVEL_FILE = /^(CURRENT|LOCK|LOG|LOG\.old|MANIFEST-\d+|\d+\.(log|ldb|sst))$/;
/** Entries per LMDB transaction while copying: bounds the transaction's dirty pages. */
const CHUNK = 4096;

export function hasLegacyStore(storeDir: string): boolean {
  return existsSync(path.join(storeDir, 'CURRENT')) && readdirSync(storeDir).some((f) => f.startsWith('MANIFEST-'));
}

/**
 * Copies the LevelDB store in `storeDir` into `into`; returns how many records (handshakes and
 * page summaries) it held.
 * @throws StoreError E_STORE_LOCKED (an older getlist holds it), E_STORE_VERSION (not a getlist
 * store, or a newer layout), E_STORE_OPEN
 */
export async function migrateLegacyStore(storeDir: string, into: Env): Promise<number> {
  const db = await openLevel(storeDir);
  try {
    const version = await db.get(META_VERSION);
    if (version === undefined) {
      for await (const _key of db.keys({ limit: 1 })) {
        throw new StoreError('E_STORE_VERSION', `${storeDir} holds a LevelDB database that is not a getlist store; choose another folder`);
      }
    } else if (Number(version) !== LAYOUT_VERSION) {
      throw new StoreError('E_STORE_VERSION', `the LevelDB store at ${storeDir} has layout version ${JSON.stringify(version)}; this getlist reads version ${LAYOUT_VERSION}`);
    }
    let records = 0;
    let batch: Array<[string, string]> = [];
    const write = () => {
      const entries = batch;
      batch = [];
      into.transactionSync(() => {
        for (const [k, v] of entries) into.putSync(k, v);
      });
    };
    for await (const [key, value] of db.iterator()) {
      if (key.startsWith('h!') || key.startsWith('p!')) records++;
      batch.push([key, value]);
      if (batch.length >= CHUNK) write();
    }
    write();
    return records;
  } finally {
    await db.close().catch(() => undefined);
  }
}

/** Deletes LevelDB's files (only those: anything else in the folder stays). */
export function removeLegacyFiles(storeDir: string): void {
  for (const name of readdirSync(storeDir)) if (LEVEL_FILE.test(name)) rmSync(path.join(storeDir, name), { force: true });
}

async function openLevel(dir: string): Promise<ClassicLevel<string, string>> {
  // Loaded here, not at start: its native addon is only needed by the one open that migrates.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ClassicLevel: Level } = require('classic-level') as typeof import('classic-level');
  const open = async () => {
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8', createIfMissing: false });
    await db.open();
    return db;
  };
  try {
    return await open();
  } catch (err) {
    const cause = errorCode((err as { cause?: unknown }).cause);
    if (cause === 'LEVEL_LOCKED') {
      throw new StoreError('E_STORE_LOCKED', `the old (LevelDB) store at ${dir} is in use by an older getlist (a native host while the browser runs?); close it so the store can be upgraded`, { cause: err });
    }
    if (cause !== 'LEVEL_CORRUPTION' && cause !== 'LEVEL_IO_ERROR') {
      throw new StoreError('E_STORE_OPEN', `cannot open the old (LevelDB) store at ${dir}: ${describeCause(err)}`, { cause: err });
    }
    // A damaged CURRENT or MANIFEST: LevelDB's repair rebuilds them from the table and log files.
    try {
      await Level.repair(dir);
      return await open();
    } catch (again) {
      throw new StoreError('E_STORE_OPEN', `cannot open the old (LevelDB) store at ${dir}: ${describeCause(err)}; repair failed too: ${describeCause(again)}`, { cause: again });
    }
  }
}
