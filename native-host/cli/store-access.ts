import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandshakeStats } from '../../src/stats/handshake-stats';
import { dataDirPath, storeDirIn } from '../store/data-dir';
import { openStore, type LmdbStore } from '../store/lmdb-store';
import { pageOriginOf } from '../store/record-codec';
import { StoreError } from '../store/store-errors';
import type { HandshakeQuery, PageSummary } from '../store/store-types';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';

export const DATA_DIR_FLAG: FlagSpec = {
  type: 'string',
  description: 'the data dir holding the store (default: $GETLIST_DATA_DIR, else the per-OS user data dir)',
};

/** The store's folder: `<data dir>/handshakes`, the data dir from `--data-dir` or the environment. */
export function storeDirFromArgs(args: ParsedArgs): string {
  const flag = stringFlag(args, 'data-dir');
  return storeDirIn(flag !== undefined ? path.resolve(flag) : dataDirPath());
}

/**
 * Opens the store (alongside any hosts that have it open), runs `fn`, closes it; store failures
 * become coded CLI errors. `readOnly` commands never sweep retention, so they never wait for
 * the write lock.
 */
export async function withStore<T>(dir: string, fn: (store: LmdbStore) => Promise<T>, options: { readOnly?: boolean } = {}): Promise<T> {
  let store: LmdbStore;
  try {
    store = await openStore({ dir, readOnly: options.readOnly === true });
  } catch (err) {
    throw asCliError(err);
  }
  let result: T;
  try {
    result = await fn(store);
  } catch (err) {
    await store.close().catch(() => undefined);
    throw asCliError(err);
  }
  try {
    await store.close();
  } catch (err) {
    throw asCliError(err);
  }
  return result;
}

export function asCliError(err: unknown): unknown {
  return err instanceof StoreError ? new CliError(err.code, err.message) : err;
}

export interface StoredData {
  stats: HandshakeStats;
  pages: PageSummary[];
  /** False when there is no store yet: nothing was ever recorded (nothing is created). */
  exists: boolean;
}

/** Aggregates the matching handshakes (and, if asked, page summaries) of the store at `dir`. */
export async function readStore(dir: string, query: HandshakeQuery, withPages = false): Promise<StoredData> {
  const stats = new HandshakeStats();
  const pages: PageSummary[] = [];
  // A read must not create the user's data dir as a side effect.
  if (!existsSync(dir)) return { stats, pages, exists: false };
  await withStore(dir, async (store) => {
    for await (const r of store.handshakes(query)) stats.add(r);
    if (!withPages) return;
    for await (const p of store.pageSummaries({ since: query.since, until: query.until })) {
      if (query.origin === undefined || pageOriginOf(p.url) === query.origin) pages.push(p);
    }
  }, { readOnly: true });
  return { stats, pages, exists: true };
}
