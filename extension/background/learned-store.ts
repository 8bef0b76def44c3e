import type { LearnedState } from '../../src/page/hints/hint-types';
import { dropLeastRecent } from '../../src/page/hints/learned-state';
import { learnedItemKey, learnedKeyOfItem, learnedStateFromItems, LEGACY_LEARNED_KEY } from '../../src/page/hints/learned-state-items';
import { GatheredWrite } from './gathered-write';
import { readItems, type ItemStorageLike } from './item-storage';


/**
 * A change is written this long after it: a visit is learned soon after the next page commits in
 * its tab (visit-end.ts, NAVIGATED_LEARN_DELAY_MS), and in Chromium a `storage.local` write runs on
 * the browser's main thread, where the new page's first frame is waiting (bench/README.md, "The
 * learned hints' write held the next page's first frame").
 */
export const LEARNED_WRITE_DELAY_MS = 1000;

/** When the storage area is full, this share of the least recently visited keys gives way. */
export const FULL_AREA_DROP_SHARE = 0.25;

/**
 * The learned state's copy in `storage.local`, an item per learned key (learned-state-items.ts).
 * `changed(keys)` marks what a change touched; the write, gathered (gathered-write.ts), sets those
 * entries and removes the items of keys the state no longer holds (evicted by its bounds, or
 * forgotten). A write the area has no room for (a quota error) forgets the least recently visited
 * quarter and is made again, so the most recent learning is kept rather than none; any other failure
 * forgets nothing and leaves the write pending. `beforeWrite` runs at the start of every write, a
 * flush included. The legacy whole-state item is replaced by per-key
 * items at the first write.
 */
export class LearnedStore {
  /** Learned keys whose items storage holds (as far as this store wrote or read them). */
  private stored = new Set<string>();
  private readonly dirty = new Set<string>();
  private legacy = false;
  private readonly writer: GatheredWrite;

  constructor(
    private readonly local: ItemStorageLike,
    private readonly state: () => LearnedState,
    private readonly warn: (message: string) => void,
    setTimer: (fn: () => void, ms: number) => unknown,
    private readonly o: { delayMs?: number; beforeWrite?: () => Promise<void> } = {},
  ) {
    this.writer = new GatheredWrite(() => this.write(), o.delayMs ?? LEARNED_WRITE_DELAY_MS, setTimer);
  }

  /** Reads the stored state (its own items: item-storage.ts); an empty one when storage cannot be read. */
  async load(): Promise<LearnedState> {
    const items = await readItems(this.local, isLearnedItem, this.warn, 'the learned hints');
    for (const k of Object.keys(items)) {
      const key = learnedKeyOfItem(k);
      if (key !== undefined) this.stored.add(key);
    }
    const state = learnedStateFromItems(items);
    if (LEGACY_LEARNED_KEY in items) {
      this.legacy = true;
      for (const key of state.entries.keys()) this.dirty.add(key);
      this.writer.schedule();
    }
    return state;
  }

  /** `keys` changed (or were added); evicted and forgotten keys need not be named. Written within the delay. */
  changed(keys: Iterable<string>): void {
    for (const k of keys) this.dirty.add(k);
    this.writer.schedule();
  }

  /** Writes what is pending now. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  private async write(): Promise<void> {
    // What is derived from the state (the hint rules) is brought up to date first: once storage
    // holds a change, whatever acts on it does.
    await this.o.beforeWrite?.();
    try {
      await this.apply();
    } catch (err) {
      // Another failure forgets nothing: what it did not write stays pending for the next write.
      if (!isQuotaError(err)) {
        this.warn(`could not save the learned hints: ${String(err)}`);
        return;
      }
      const dropped = dropLeastRecent(this.state(), FULL_AREA_DROP_SHARE);
      this.warn(`could not save the learned hints (${String(err)}); forgetting the ${dropped.length} least recently visited pages and sites`);
      try {
        await this.apply();
      } catch (again) {
        this.warn(`could not save the learned hints: ${String(again)}`);
      }
    }
  }

  /** Removes the items of keys gone from the state, then sets the changed ones; what succeeded is no longer pending. */
  private async apply(): Promise<void> {
    const entries = this.state().entries;
    const gone = [...this.stored].filter((k) => !entries.has(k));
    const removals = [...gone.map(learnedItemKey), ...(this.legacy ? [LEGACY_LEARNED_KEY] : [])];
    if (removals.length > 0) {
      await this.local.remove(removals);
      for (const k of gone) this.stored.delete(k);
      this.legacy = false;
    }
    const items: Record<string, unknown> = {};
    const written = [...this.dirty].filter((k) => entries.has(k));
    for (const k of written) items[learnedItemKey(k)] = entries.get(k);
    this.dirty.clear();
    if (written.length === 0) return;
    try {
      await this.local.set(items);
    } catch (err) {
      for (const k of written) this.dirty.add(k);
      throw err;
    }
    for (const k of written) this.stored.add(k);
  }
}

function isLearnedItem(itemKey: string): boolean {
  return itemKey === LEGACY_LEARNED_KEY || learnedKeyOfItem(itemKey) !== undefined;
}

/** The storage area is full: Chromium's `QUOTA_BYTES quota exceeded`, Firefox's `QuotaExceededError`. */
function isQuotaError(err: unknown): boolean {
  return /quota/i.test(`${(err as { name?: unknown })?.name ?? ''} ${err instanceof Error ? err.message : String(err)}`);
}
