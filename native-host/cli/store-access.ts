import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandshakeStats } from '../../src/stats/handshake-stats';
import { dataDirPath, storeDirIn } from '../store/data-dir';
import { openStore, type LevelStore } from '../store/level-store';
import { pageOriginOf } from '../store/record-codec';
import type { HandshakeQuery, PageSummary } from '../store/store-types';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';

export const DATA_DIR_FLAG: FlagSpec = {
  type: 'string',
  value: 'DIR',
  description: 'use the store in DIR/handshakes',
  default: '$GETLIST_DATA_DIR, else $XDG_DATA_HOME/getlist or ~/.local/share/getlist (Linux), ~/Library/Application Support/getlist (macOS), %APPDATA%\\getlist (Windows)',
};

/** The store's folder: `<data dir>/handshakes`, the data dir from `--data-dir` or the environment. */
export function storeDirFromArgs(args: ParsedArgs): string {
  const flag = stringFlag(args, 'data-dir');
  return storeDirIn(flag !== undefined ? path.resolve(flag) : dataDirPath());
}

/** Opens the store, runs `fn`, closes it (also when `fn` fails); store errors keep their codes. */
export async function withStore<T>(dir: string, fn: (store: LevelStore) => Promise<T>): Promise<T> {
  const store = await openStore({ dir });
  let result: T;
  try {
    result = await fn(store);
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  await store.close();
  return result;
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
  });
  return { stats, pages, exists: true };
}
