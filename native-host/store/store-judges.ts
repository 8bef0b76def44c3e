import { checkOriginFacts, checkPageOrigins } from '../../src/origins/origin-facts';
import type { Judge } from './compaction';
import type { Env } from './lmdb-env';
import { checkHandshake, checkPageSummary, factsKey, pageOriginOf, parseJson, prefixRange, timeRange } from './record-codec';

/*
 * What forget and retention drop, record by record, for rewriteGeneration. A value that does not
 * decode (corrupt, or written by something else) is judged by what can still be read of it: by its
 * key's time for retention, and by its raw text for forget(origin), so a damaged record that still
 * names the origin goes too.
 */

/** Forget everything: every handshake, page summary, origin's facts and page's origin list. */
export const forgetEverything: Judge = () => 'drop';

/**
 * Forget one origin: its connections, connections its pages opened, its pages, its facts, and every
 * page origin list that names it (its own pages', and other pages' that used it).
 */
export function forgetOriginJudge(origin: string): Judge {
  const key = factsKey(origin);
  return (k, value) => {
    if (k.startsWith('f!')) return k === key ? 'drop' : 'keep';
    const parsed = parseJson(value);
    if (k.startsWith('l!')) {
      const l = checkPageOrigins(parsed);
      if (!('value' in l)) return value.includes(origin) ? 'drop' : 'keep';
      // A request list names its resources' URLs: one on the origin is about the origin too.
      const named = l.value.origins.some((o) => o.origin === origin) || (l.value.resources ?? []).some((r) => pageOriginOf(r.url) === origin);
      return pageOriginOf(l.value.url) === origin || named ? 'drop' : 'keep';
    }
    if (k.startsWith('h!')) {
      const r = checkHandshake(parsed);
      if (!('value' in r)) return value.includes(origin) ? 'drop' : 'keep';
      return r.value.origin === origin || pageOriginOf(r.value.pageUrl) === origin ? 'drop' : 'keep';
    }
    const p = checkPageSummary(parsed);
    if (!('value' in p)) return value.includes(origin) ? 'drop' : 'keep';
    return pageOriginOf(p.value.url) === origin ? 'drop' : 'keep';
  };
}

/**
 * Retention: records that started before `cutoff` (epoch ms), and origins and page lists last seen
 * before it. An origin's facts or a page's list that is not well formed (a corrupt request list
 * included) is dropped too, and told to `onInvalid` so the store can count it as skipped.
 */
export function olderThanJudge(cutoff: number, onInvalid: () => void = () => undefined): Judge {
  return (k, value) => {
    const parsed = parseJson(value);
    if (k.startsWith('f!')) {
      const f = checkOriginFacts(parsed);
      if (!('value' in f)) onInvalid();
      return 'value' in f && f.value.lastSeen >= cutoff ? 'keep' : 'drop';
    }
    if (k.startsWith('l!')) {
      const l = checkPageOrigins(parsed);
      if (!('value' in l)) onInvalid();
      return 'value' in l && l.value.lastSeen >= cutoff ? 'keep' : 'drop';
    }
    const h = k.startsWith('h!') ? checkHandshake(parsed) : undefined;
    const at = h && 'value' in h ? h.value.startedAt : (() => {
      const p = checkPageSummary(parsed);
      return 'value' in p ? p.value.at : keyTime(k);
    })();
    return at < cutoff ? 'drop' : 'keep';
  };
}

/**
 * Whether retention at `cutoff` would drop anything from `env` (read afresh): the cheap look
 * before a rewrite. Records are found by their keys' time alone, facts and page lists by the
 * judge.
 */
export function holdsAnythingOlderThan(env: Env, cutoff: number): boolean {
  env.resetReadTxn();
  for (const prefix of ['h!', 'p!']) {
    for (const _ of env.getKeys({ ...timeRange(prefix, undefined, cutoff), limit: 1 })) return true;
  }
  const judge = olderThanJudge(cutoff);
  for (const prefix of ['f!', 'l!']) {
    for (const { key, value } of env.getRange(prefixRange(prefix))) if (judge(key, value) === 'drop') return true;
  }
  return false;
}

/** The time field of a record key (`h!<ts>!<seq>`). */
function keyTime(key: string): number {
  return Number(key.split('!')[1]);
}
