import { rmSync } from 'node:fs';
import path from 'node:path';
import { nextGenerationName, publishActive, readActive, removeOtherGenerations } from './generations';
import { openEnv, type Env } from './lmdb-env';
import { checkHandshake, indexKeysOf, parseJson, seqOfKey } from './record-codec';

/*
 * Forget and retention remove data by *rewriting* the live generation into a fresh one that holds
 * only what is kept, then switching ACTIVE to it and deleting the old folder. Deleting in place
 * would not do: LMDB frees a deleted record's page for reuse but leaves its bytes in data.mdb until
 * that page is written again, and the bytes of a record deleted from a page that stays in use sit
 * in the page's free gap. A fresh environment is written page by page from live records only, and
 * LMDB zero-fills the unused part of every page it writes (noMemInit off).
 *
 * The rewrite runs inside a write transaction of the live generation, so it holds that
 * generation's write lock from the first record read to the ACTIVE switch: no other process can
 * commit to the old generation in between (writers block on the lock, readers never do; every
 * writer re-reads ACTIVE inside its own transaction and moves to the new generation). A crash
 * before the switch leaves the old generation live and unchanged (the half-written folder is
 * removed by the next rewrite); a crash after it leaves the new one live and complete.
 */

/** What a rewrite does with one record (a handshake `h!`, page summary `p!`, origin facts `f!` or a page's origin list `l!`). */
export type Verdict = 'keep' | 'drop';
export type Judge = (key: string, value: string) => Verdict;

/** Records copied per transaction of the new environment (bounds its dirty pages). */
const CHUNK = 4096;

export interface RewriteResult {
  /** The new live generation's folder name and environment. */
  generation: string;
  env: Env;
  /** Handshakes and page summaries dropped. */
  removed: number;
  /** Old generation folders that could not be deleted yet (still open on Windows). */
  left: string[];
}

/**
 * Rewrites generation `current` (open as `env`) without the records `judge` drops. Index entries
 * (`o!`, `g!`) are not copied but rebuilt from the kept handshakes, so an index entry can never
 * outlive its record. Meta entries (`m!`) and unknown keys are copied.
 * @returns the new generation, or `moved` when `current` is no longer live (nothing was done).
 */
export function rewriteGeneration(storeDir: string, current: string, env: Env, judge: Judge): RewriteResult | 'moved' {
  return env.transactionSync(() => {
    if (readActive(storeDir) !== current) return 'moved' as const;
    const generation = nextGenerationName(current);
    const target = openEnv(storeDir, generation);
    let removed = 0;
    try {
      let batch: Array<[string, string]> = [];
      const put = (k: string, v: string) => {
        batch.push([k, v]);
        if (batch.length >= CHUNK) batch = flushTo(target, batch);
      };
      for (const { key, value } of env.getRange({})) {
        const kind = key.slice(0, 2);
        if (kind === 'o!' || kind === 'g!') continue;
        if (kind === 'h!' || kind === 'p!' || kind === 'f!' || kind === 'l!') {
          if (judge(key, value) === 'drop') {
            if (kind === 'h!' || kind === 'p!') removed++;
            continue;
          }
          put(key, value);
          if (kind === 'h!') {
            const r = checkHandshake(parseJson(value));
            if ('value' in r) for (const ix of indexKeysOf(r.value, seqOfKey(key))) put(ix, key);
          }
          continue;
        }
        put(key, value);
      }
      flushTo(target, batch);
      publishActive(storeDir, generation);
    } catch (err) {
      void target.close().catch(() => undefined);
      rmSync(path.join(storeDir, generation), { recursive: true, force: true });
      throw err;
    }
    const left = removeOtherGenerations(storeDir, generation);
    return { generation, env: target, removed, left };
  });
}

function flushTo(target: Env, batch: Array<[string, string]>): Array<[string, string]> {
  if (batch.length === 0) return batch;
  target.transactionSync(() => {
    for (const [k, v] of batch) target.putSync(k, v);
  });
  return [];
}
