import type { Db } from './level-open';
import { checkHandshake, checkPageSummary, indexKeysOf, originPrefix, pageOriginOf, parseJson, seqOfKey, timeRange } from './record-codec';
import type { WriteOp } from './write-batcher';

/** Ops per delete batch: bounds memory on large stores. */
const CHUNK = 512;

/**
 * Deletes handshakes and page summaries older than `cutoff` (epoch ms) with their index entries;
 * returns how many records went. An unreadable value in the expired key range goes too (its
 * index entries, if any, are left dangling: readers skip them).
 */
export async function expireBefore(db: Db, cutoff: number): Promise<number> {
  let removed = 0;
  const dels = new DeleteBatch(db);
  for await (const [key, value] of db.iterator(timeRange('h!', undefined, cutoff))) {
    const r = decodeOrUndefined(checkHandshake, value);
    if (r && r.startedAt >= cutoff) continue;
    await dels.add([key, ...(r ? indexKeysOf(r, seqOfKey(key)) : [])]);
    removed++;
  }
  for await (const [key, value] of db.iterator(timeRange('p!', undefined, cutoff))) {
    const p = decodeOrUndefined(checkPageSummary, value);
    if (p && p.at >= cutoff) continue;
    await dels.add([key]);
    removed++;
  }
  await dels.done();
  return removed;
}

/** Deletes every record and index entry; returns how many records (handshakes, pages) went. */
export async function forgetAll(db: Db): Promise<number> {
  let removed = 0;
  for (const prefix of ['h!', 'p!']) for await (const _ of db.keys({ gte: prefix, lt: `${prefix}~` })) removed++;
  for (const prefix of ['g!', 'h!', 'o!', 'p!']) await db.clear({ gte: prefix, lt: `${prefix}~` });
  return removed;
}

/**
 * Deletes `origin`'s connections, the connections its pages opened (found through the page-origin
 * index) and its page summaries; returns how many records went.
 */
export async function forgetOrigin(db: Db, origin: string): Promise<number> {
  const dels = new DeleteBatch(db);
  const seen = new Set<string>();
  let removed = 0;
  for (const index of ['o', 'g'] as const) {
    for await (const [ixKey, hKey] of db.iterator(timeRange(originPrefix(index, origin)))) {
      const value = seen.has(hKey) ? undefined : await db.get(hKey);
      seen.add(hKey);
      const r = value === undefined ? undefined : decodeOrUndefined(checkHandshake, value);
      if (value !== undefined) removed++;
      await dels.add([ixKey, hKey, ...(r ? indexKeysOf(r, seqOfKey(hKey)) : [])]);
    }
  }
  for await (const [key, value] of db.iterator({ gte: 'p!', lt: 'p!~' })) {
    const p = decodeOrUndefined(checkPageSummary, value);
    if (p && pageOriginOf(p.url) === origin) {
      await dels.add([key]);
      removed++;
    }
  }
  await dels.done();
  return removed;
}

/** Deletes keys in bounded batches while an iterator (on its own snapshot) walks the store. */
class DeleteBatch {
  private ops: WriteOp[] = [];
  constructor(private readonly db: Db) {}

  async add(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.ops.push({ type: 'del', key });
    if (this.ops.length >= CHUNK) await this.done();
  }

  async done(): Promise<void> {
    if (this.ops.length === 0) return;
    const ops = this.ops;
    this.ops = [];
    await this.db.batch(ops, { sync: true });
  }
}

function decodeOrUndefined<T>(check: (x: unknown) => { value: T } | { problem: string }, value: string): T | undefined {
  const result = check(parseJson(value));
  return 'value' in result ? result.value : undefined;
}
