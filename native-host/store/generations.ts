import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './data-dir';

/*
 * The store folder holds one LMDB environment per *generation*, and a pointer to the live one:
 *
 *   <store>/ACTIVE              "gen-000003-1f2e3d4c\n": the generation every process uses
 *   <store>/gen-000003-1f2e3d4c/data.mdb, lock.mdb
 *
 * A new generation is made only by rewriting the live one (forget, retention: see compaction.ts)
 * or by the first open (empty, or migrated from LevelDB). The rewrite happens under the live
 * generation's LMDB write lock, and every writer reads ACTIVE inside its own write transaction,
 * so no write can land in a generation after it was replaced: a writer that finds ACTIVE moved
 * aborts, opens the new generation and writes there.
 */

export const ACTIVE_FILE = 'ACTIVE';
const GEN_PATTERN = /^gen-(\d{6})-[0-9a-f]{8}$/;

/** The live generation's folder name, or undefined before the store was ever created. */
export function readActive(storeDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(storeDir, ACTIVE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const name = text.trim();
  return GEN_PATTERN.test(name) ? name : undefined;
}

/** A fresh generation name after `previous` (gen-000001-… for the first). */
export function nextGenerationName(previous: string | undefined): string {
  const n = previous === undefined ? 0 : Number(GEN_PATTERN.exec(previous)?.[1] ?? 0);
  return `gen-${String(n + 1).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}

/** Makes `name` the live generation, replacing ACTIVE atomically (rename) and durably (fsync). */
export function publishActive(storeDir: string, name: string): void {
  const tmp = path.join(storeDir, `${ACTIVE_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeDurably(tmp, `${name}\n`);
  renameSync(tmp, path.join(storeDir, ACTIVE_FILE));
  syncDir(storeDir);
}

/**
 * Makes `name` the live generation only if there is none yet (the first open). Two processes
 * creating the store at once race on link(2), which fails for all but one.
 * @returns whether `name` won.
 */
export function publishFirstActive(storeDir: string, name: string): boolean {
  const tmp = path.join(storeDir, `${ACTIVE_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeDurably(tmp, `${name}\n`);
  try {
    linkSync(tmp, path.join(storeDir, ACTIVE_FILE));
    syncDir(storeDir);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Removes every generation folder but `keep`, and stray ACTIVE temp files. Only called while
 * holding the live generation's write lock (so no other process is building one). A folder still
 * open elsewhere disappears from the directory at once; its blocks are freed when the last process
 * closes it (on Windows, where open files cannot be removed, it is left for a later sweep).
 * @returns the folders that could not be removed.
 */
export function removeOtherGenerations(storeDir: string, keep: string): string[] {
  const left: string[] = [];
  for (const name of readdirSync(storeDir)) {
    const stray = (name.startsWith(`${ACTIVE_FILE}.`) && name.endsWith('.tmp')) || ((GEN_PATTERN.test(name) || /^gen-.*\.tmp$/.test(name)) && name !== keep);
    if (!stray) continue;
    try {
      rmSync(path.join(storeDir, name), { recursive: true, force: true });
    } catch {
      left.push(name);
    }
  }
  return left;
}

function writeDurably(file: string, text: string): void {
  writeFileSync(file, text, { mode: PRIVATE_FILE_MODE });
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync a directory so a rename in it survives a power cut (not possible on Windows: skipped). */
function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
