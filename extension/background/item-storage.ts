/**
 * `storage.local` as a store of many items needs it: the area's keys (`getKeys`: Chromium 130+,
 * Firefox ESR) or, without them, every item at once; items read, written and removed by key.
 */
export interface ItemStorageLike {
  getKeys?: () => Promise<string[]>;
  get(keys: string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/**
 * The items whose keys `mine` accepts. Where the area lists its keys only those are read: the area
 * holds other stores' items too (the learned hints, the speculation state, the settings), each read
 * by its own service. An area that cannot be read gives none, and `warn` says what was lost.
 */
export async function readItems(local: ItemStorageLike, mine: (itemKey: string) => boolean, warn: (message: string) => void, what: string): Promise<Record<string, unknown>> {
  try {
    if (local.getKeys) return await local.get((await local.getKeys()).filter(mine));
    const all = await local.get(null);
    return Object.fromEntries(Object.entries(all).filter(([k]) => mine(k)));
  } catch (err) {
    warn(`could not read ${what}: ${String(err)}`);
    return {};
  }
}
