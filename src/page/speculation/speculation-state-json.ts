import { createSpeculationState } from './follow-state';
import type { PageFollows, ServedTiming, SiteOutcome, SpeculationState } from './speculation-types';

/**
 * The speculation state as stored in `storage.local`, and back. Storage may hold anything an older
 * or corrupted build wrote: reading keeps every well-formed item and drops the rest, item by item.
 */
export interface StoredSpeculationState {
  version: 1;
  pages: Array<[string, PageFollows]>;
  queryKeys: Array<[string, string[]]>;
  noStore: string[];
  docBytes: Array<[string, number]>;
  baselines: Array<[string, ServedTiming[]]>;
  sites: Array<[string, SiteOutcome]>;
}

const MAX_KEY = 8192;

export function speculationStateToJson(state: SpeculationState): StoredSpeculationState {
  return {
    version: 1,
    pages: [...state.pages],
    queryKeys: [...state.queryKeys],
    noStore: [...state.noStore],
    docBytes: [...state.docBytes],
    baselines: [...state.baselines],
    sites: [...state.sites],
  };
}

/** The state's keyed maps, by the name the stored forms use. */
export type SpeculationMapName = 'pages' | 'queryKeys' | 'docBytes' | 'baselines' | 'sites';

/** Each map's value, read from what storage holds: undefined when it is not well formed. */
export const READ_VALUE: { readonly [K in SpeculationMapName]: (v: unknown) => MapValue<K> | undefined } = {
  pages: toFollows,
  queryKeys: (v) => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string' && k.length <= 256) : undefined),
  docBytes: (v) => (isCount(v) ? v : undefined),
  baselines: (v) => (Array.isArray(v) ? v.map(toTiming).filter((t): t is ServedTiming => t !== undefined) : undefined),
  sites: toOutcome,
};

type MapValue<K extends SpeculationMapName> = SpeculationState[K] extends Map<string, infer V> ? V : never;

export function speculationStateFromJson(stored: unknown): SpeculationState {
  const state = createSpeculationState();
  if (!isObject(stored) || stored.version !== 1) return state;
  fill(state.pages, stored.pages, READ_VALUE.pages);
  fill(state.queryKeys, stored.queryKeys, READ_VALUE.queryKeys);
  fill(state.docBytes, stored.docBytes, READ_VALUE.docBytes);
  fill(state.baselines, stored.baselines, READ_VALUE.baselines);
  fill(state.sites, stored.sites, READ_VALUE.sites);
  if (Array.isArray(stored.noStore)) for (const k of stored.noStore) if (isKey(k)) state.noStore.add(k);
  return state;
}

function fill<V>(map: Map<string, V>, entries: unknown, read: (v: unknown) => V | undefined): void {
  if (!Array.isArray(entries)) return;
  for (const e of entries) {
    if (!Array.isArray(e) || e.length !== 2 || !isKey(e[0])) continue;
    const value = read(e[1]);
    if (value !== undefined) map.set(e[0], value);
  }
}

function toFollows(v: unknown): PageFollows | undefined {
  if (!isObject(v) || !isCount(v.visits) || !isObject(v.follows)) return undefined;
  const follows = Object.fromEntries(Object.entries(v.follows).filter(([k, n]) => isKey(k) && isCount(n)));
  return { visits: v.visits, follows: follows as Record<string, number> };
}

function toTiming(v: unknown): ServedTiming | undefined {
  if (!isObject(v) || !isMs(v.responseStartMs)) return undefined;
  return { responseStartMs: v.responseStartMs, ...(isMs(v.lcpMs) ? { lcpMs: v.lcpMs } : {}) };
}

function toOutcome(v: unknown): SiteOutcome | undefined {
  if (!isObject(v) || !isCount(v.speculated) || !isCount(v.followed) || !isCount(v.wastedBytes) || !isCount(v.wastedUnsized) || v.followed > v.speculated) return undefined;
  return { speculated: v.speculated, followed: v.followed, wastedBytes: v.wastedBytes, wastedUnsized: v.wastedUnsized };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isKey(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_KEY;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isMs(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}
