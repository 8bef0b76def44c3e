import type { LearnedEntry, LearnedState } from './hint-types';
import { createLearnedState } from './learned-state';
import { learnedEntryFromJson, learnedStateFromJson } from './learned-state-json';

/**
 * The learned state's layout in `storage.local`: one item per learned key (a page or a site
 * template), so a visit writes the one or two entries it changed, not the whole state. A
 * whole-state item is rewritten on every learned visit: it grows with every site the user visits
 * (each key keeps up to 5 visits of 32 resources), every write of it runs on the browser's main
 * thread — in Chromium `storage.local.set` serialises it there, while the next page's first frame
 * waits (bench/README.md, "The learned hints' write held the next page's first frame") — and past
 * the area's quota (10 MB in Chromium) no write of it succeeds at all.
 *
 * The Map's order (recency: least recently visited first) is not stored: it is each entry's last
 * visit, which recordVisit moves to the end.
 */

/** Prefix of every learned entry's item; the rest of the item key is the learned key itself. */
export const LEARNED_ITEM_PREFIX = 'getlist.hints.v2:';

/** The whole-state item earlier versions wrote: read once, its entries moved to their own items. */
export const LEGACY_LEARNED_KEY = 'getlist.hints.v1';

export function learnedItemKey(key: string): string {
  return `${LEARNED_ITEM_PREFIX}${key}`;
}

/** The learned key an item holds, or undefined for another item. */
export function learnedKeyOfItem(itemKey: string): string | undefined {
  return itemKey.startsWith(LEARNED_ITEM_PREFIX) ? itemKey.slice(LEARNED_ITEM_PREFIX.length) : undefined;
}

/**
 * The learned state from every item of `storage.local` (`get(null)`): each entry item validated as
 * the whole state is (learned-state-json.ts), an item whose entry names another key dropped, the
 * legacy whole-state item's entries kept where no item of their own exists yet, in recency order.
 */
export function learnedStateFromItems(items: Readonly<Record<string, unknown>>): LearnedState {
  const found = new Map<string, LearnedEntry>();
  for (const [itemKey, value] of Object.entries(items)) {
    const key = learnedKeyOfItem(itemKey);
    if (key === undefined) continue;
    const entry = learnedEntryFromJson(value);
    if (entry && entry.key === key) found.set(key, entry);
  }
  for (const [key, entry] of learnedStateFromJson(items[LEGACY_LEARNED_KEY]).entries) if (!found.has(key)) found.set(key, entry);
  const state = createLearnedState();
  const lastVisit = (e: LearnedEntry) => e.visits[e.visits.length - 1]?.at ?? 0;
  for (const e of [...found.values()].sort((a, b) => lastVisit(a) - lastVisit(b))) state.entries.set(e.key, e);
  return state;
}
