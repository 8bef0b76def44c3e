import { checkOriginFacts, checkPageOrigins, mergeOriginFacts, type OriginFacts, type PageOrigins } from '../../src/origins/origin-facts';
import type { GetOptions } from 'lmdb';
import type { Env } from './lmdb-env';
import { META_SEQ, factsKey, indexKeysOf, pageOriginsKey, parseJson, prefixRange, recordKey, seqOfKey } from './record-codec';
import type { PageSummary, StoredHandshake } from './store-types';

/** One accepted write, waiting in memory until its batch is committed. */
export type PendingItem = { kind: 'h'; record: StoredHandshake } | { kind: 'p'; record: PageSummary } | { kind: 'f'; record: OriginFacts } | { kind: 'l'; record: PageOrigins };

/**
 * Puts `items` into `env` inside the caller's write transaction: records get their keys here, from
 * the store-wide counter `m!seq`, which is read and written in the same transaction, so keys are
 * unique across every process writing at once. Origin facts are merged with what is stored; a page's
 * origin list replaces the stored one unless that one is newer (another process's later load).
 * @returns how many handshakes and page summaries were written.
 */
export function putItems(env: Env, items: readonly PendingItem[]): number {
  let seq = readSeq(env);
  let records = 0;
  for (const item of items) {
    if (item.kind === 'f') {
      const key = factsKey(item.record.origin);
      const stored = checkOriginFacts(parseJson(env.get(key) ?? ''));
      env.putSync(key, JSON.stringify(mergeOriginFacts('value' in stored ? stored.value : undefined, item.record)));
      continue;
    }
    if (item.kind === 'l') {
      const key = pageOriginsKey(item.record.url);
      const stored = checkPageOrigins(parseJson(env.get(key) ?? ''));
      if (!('value' in stored) || stored.value.lastSeen <= item.record.lastSeen) env.putSync(key, JSON.stringify(item.record));
      continue;
    }
    const s = seq++;
    records++;
    if (item.kind === 'p') {
      env.putSync(recordKey('p', item.record.at, s), JSON.stringify(item.record));
      continue;
    }
    const key = recordKey('h', item.record.startedAt, s);
    env.putSync(key, JSON.stringify(item.record));
    for (const ix of indexKeysOf(item.record, s)) env.putSync(ix, key);
  }
  env.putSync(META_SEQ, String(seq));
  return records;
}

/** The next sequence number; recounted from the keys if the counter is damaged. */
export function readSeq(env: Env, options: GetOptions = {}): number {
  const n = Number(env.get(META_SEQ, options));
  if (Number.isSafeInteger(n) && n >= 0) return n;
  let max = -1;
  for (const prefix of ['h!', 'p!']) for (const key of env.getKeys({ ...prefixRange(prefix), ...options })) max = Math.max(max, seqOfKey(key));
  return max + 1;
}
