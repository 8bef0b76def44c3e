import type { SpeculationState } from '../../src/page/speculation/speculation-types';
import { isSpeculationItem, LEGACY_SPECULATION_KEY, speculationEntries, speculationItemOf, speculationStateFromItems, type StoredSpeculationEntry } from '../../src/page/speculation/speculation-state-items';
import { GatheredWrite } from './gathered-write';
import { readItems, type ItemStorageLike } from './item-storage';

/** Writes of the speculation state are gathered for this long: a commit writes nothing on its own (gathered-write.ts). */
export const SPECULATION_WRITE_DELAY_MS = 2000;

/**
 * The speculation state's copy in `storage.local`, an item per entry (speculation-state-items.ts).
 * A write compares the state with what storage holds and sets only the entries whose value or
 * place changed, and removes the items of entries the state dropped (its bounds, a forget). An entry
 * keeps its `at` while nothing written after it was moved before it; one the state re-wrote (moved
 * to its map's end) gets a new, larger one. A failed write leaves storage's copy as it was known,
 * so the next write makes the same comparison again; the legacy whole-state item is replaced by
 * entry items at the first write.
 */
export class SpeculationStore {
  /** What storage holds: each entry item's `at` and value, as JSON. */
  private readonly stored = new Map<string, { at: number; json: string }>();
  private lastAt = 0;
  private legacy = false;
  private readonly writer: GatheredWrite;

  constructor(
    private readonly local: ItemStorageLike,
    private readonly state: () => SpeculationState,
    private readonly warn: (message: string) => void,
    setTimer: (fn: () => void, ms: number) => unknown,
    delayMs = SPECULATION_WRITE_DELAY_MS,
  ) {
    this.writer = new GatheredWrite(() => this.write(), delayMs, setTimer);
  }

  /** Reads the stored state; an empty one when storage cannot be read. */
  async load(): Promise<SpeculationState> {
    const items = await readItems(this.local, isSpeculationItem, this.warn, 'the speculation state');
    const { state, at, legacy } = speculationStateFromItems(items);
    const entries = new Map(speculationEntries(state).map((e) => [e.itemKey, e.value]));
    for (const [itemKey, n] of at) {
      this.stored.set(itemKey, { at: n, json: JSON.stringify(entries.get(itemKey)) });
      this.lastAt = Math.max(this.lastAt, n);
    }
    // Items dropped when read (ill-formed, over a bound) are removed at the next write.
    for (const itemKey of Object.keys(items)) if (itemKey !== LEGACY_SPECULATION_KEY && !at.has(itemKey)) this.stored.set(itemKey, { at: 0, json: '' });
    this.legacy = legacy;
    if (legacy || at.size < Object.keys(items).length) this.writer.schedule();
    return state;
  }

  /** The state changed: written within the delay, with the changes after it. */
  schedule(): void {
    this.writer.schedule();
  }

  /** Writes what is pending now. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  private async write(): Promise<void> {
    const entries = speculationEntries(this.state());
    const current = new Set(entries.map((e) => e.itemKey));
    const moved = new Set<string>();
    for (const part of new Set(entries.map((e) => e.part))) {
      const now = entries.filter((e) => e.part === part).map((e) => e.itemKey);
      const before = [...this.stored].filter(([k]) => speculationItemOf(k)?.part === part).sort((a, b) => a[1].at - b[1].at).map(([k]) => k);
      for (const k of movedOrNew(before, now)) moved.add(k);
    }
    const sets: Record<string, StoredSpeculationEntry> = {};
    const next = new Map<string, { at: number; json: string }>();
    let lastAt = this.lastAt;
    for (const e of entries) {
      const json = JSON.stringify(e.value);
      const was = this.stored.get(e.itemKey);
      const at = was === undefined || moved.has(e.itemKey) ? ++lastAt : was.at;
      if (was === undefined || was.at !== at || was.json !== json) sets[e.itemKey] = { at, value: e.value };
      next.set(e.itemKey, { at, json });
    }
    const removals = [...this.stored.keys()].filter((k) => !current.has(k));
    if (this.legacy) removals.push(LEGACY_SPECULATION_KEY);
    try {
      if (removals.length > 0) {
        await this.local.remove(removals);
        for (const k of removals) this.stored.delete(k);
        this.legacy = false;
      }
      if (Object.keys(sets).length > 0) await this.local.set(sets);
    } catch (err) {
      this.warn(`could not save the speculation state: ${String(err)}`);
      return;
    }
    this.stored.clear();
    for (const [k, v] of next) this.stored.set(k, v);
    this.lastAt = lastAt;
  }
}

/**
 * The keys of `now` whose place `before` (storage's order of the same part) does not already give:
 * the longest run at the start of `now` that keeps `before`'s order stays, the rest (re-written
 * entries, moved to the end, and new ones) is moved.
 */
export function movedOrNew(before: readonly string[], now: readonly string[]): string[] {
  const present = new Set(now);
  let kept = 0;
  for (const k of before) if (present.has(k) && now[kept] === k) kept += 1;
  return now.slice(kept);
}
