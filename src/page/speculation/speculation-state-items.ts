import { createSpeculationState, SPECULATION_LIMITS } from './follow-state';
import { isKey, READ_VALUE, speculationStateFromJson, type SpeculationMapName } from './speculation-state-json';
import type { SpeculationState } from './speculation-types';

/**
 * The speculation state's layout in `storage.local`: an item per entry of each of its maps, and per
 * page key of its no-store set, so a commit writes the few entries it changed rather than the whole
 * state. The whole state, rewritten after every commit, grows to hundreds of kB (300 pages of up to
 * 20 followed targets each) and Chromium serialises a `storage.local.set` on its browser main thread
 * (docs/extension.md, "What is learned").
 *
 * An item holds `{ at, value }`. The state keeps each map least recently written first; `at`, a
 * number that grows with each write, keeps that order across a restart.
 */

export const SPECULATION_ITEM_PREFIX = 'getlist.speculation.v2:';

/** The whole-state item earlier versions wrote: read while no per-entry item exists, removed at the first write. */
export const LEGACY_SPECULATION_KEY = 'getlist.speculation.v1';

export type SpeculationPart = SpeculationMapName | 'noStore';

/** The parts, and how many entries each keeps (follow-state.ts). */
export const SPECULATION_PARTS: Readonly<Record<SpeculationPart, number>> = {
  pages: SPECULATION_LIMITS.pages,
  queryKeys: SPECULATION_LIMITS.templates,
  noStore: SPECULATION_LIMITS.noStore,
  docBytes: SPECULATION_LIMITS.docBytes,
  baselines: SPECULATION_LIMITS.baselines,
  sites: SPECULATION_LIMITS.sites,
};

export interface StoredSpeculationEntry {
  at: number;
  value: unknown;
}

/** One entry of the state, as its item carries it. */
export interface SpeculationEntry {
  itemKey: string;
  part: SpeculationPart;
  value: unknown;
}

export function speculationItemKey(part: SpeculationPart, key: string): string {
  return `${SPECULATION_ITEM_PREFIX}${part}:${key}`;
}

/** The part and key an item holds, or undefined for another item. */
export function speculationItemOf(itemKey: string): { part: SpeculationPart; key: string } | undefined {
  if (!itemKey.startsWith(SPECULATION_ITEM_PREFIX)) return undefined;
  const rest = itemKey.slice(SPECULATION_ITEM_PREFIX.length);
  const colon = rest.indexOf(':');
  const part = rest.slice(0, colon);
  return colon > 0 && part in SPECULATION_PARTS ? { part: part as SpeculationPart, key: rest.slice(colon + 1) } : undefined;
}

/** Whether an item belongs to the speculation state (its entries', or the legacy whole-state item). */
export function isSpeculationItem(itemKey: string): boolean {
  return itemKey === LEGACY_SPECULATION_KEY || speculationItemOf(itemKey) !== undefined;
}

/** Every entry of the state, part by part, each part in the state's order. */
export function speculationEntries(state: SpeculationState): SpeculationEntry[] {
  const out: SpeculationEntry[] = [];
  for (const part of Object.keys(SPECULATION_PARTS) as SpeculationPart[]) {
    const entries: Iterable<readonly [string, unknown]> = part === 'noStore' ? [...state.noStore].map((k) => [k, true] as const) : state[part];
    for (const [key, value] of entries) out.push({ itemKey: speculationItemKey(part, key), part, value });
  }
  return out;
}

/**
 * The state from the speculation items of `storage.local`, with the `at` of each item read. Each
 * value is validated as the whole-state form is (speculation-state-json.ts) and ill-formed items
 * are dropped; each part is ordered by `at` and holds its most recent entries up to its bound.
 * Where no entry item exists yet, the legacy whole-state item is read (`legacy`: none of its
 * entries has an item yet).
 */
export function speculationStateFromItems(items: Readonly<Record<string, unknown>>): { state: SpeculationState; at: Map<string, number>; legacy: boolean } {
  const found = new Map<SpeculationPart, Array<{ key: string; at: number; value: unknown }>>();
  for (const [itemKey, stored] of Object.entries(items)) {
    const of = speculationItemOf(itemKey);
    if (!of || !isKey(of.key) || typeof stored !== 'object' || stored === null) continue;
    const { at, value } = stored as Partial<StoredSpeculationEntry>;
    if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0) continue;
    const read = of.part === 'noStore' ? (value === true ? true : undefined) : READ_VALUE[of.part](value);
    if (read === undefined) continue;
    const list = found.get(of.part) ?? [];
    list.push({ key: of.key, at, value: read });
    found.set(of.part, list);
  }
  if (found.size === 0 && LEGACY_SPECULATION_KEY in items) return { state: speculationStateFromJson(items[LEGACY_SPECULATION_KEY]), at: new Map(), legacy: true };
  const state = createSpeculationState();
  const at = new Map<string, number>();
  for (const [part, list] of found) {
    const kept = list.sort((a, b) => a.at - b.at).slice(-SPECULATION_PARTS[part]);
    for (const e of kept) {
      at.set(speculationItemKey(part, e.key), e.at);
      if (part === 'noStore') state.noStore.add(e.key);
      else (state[part] as Map<string, unknown>).set(e.key, e.value);
    }
  }
  return { state, at, legacy: LEGACY_SPECULATION_KEY in items };
}
