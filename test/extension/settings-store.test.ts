import { SettingsStore } from '../../extension/background/settings-store';
import { MemoryStorage, storedItems } from './background-fakes';

const KEY = 'getlist.settings.v1';

/** MemoryStorage that counts reads and can fail the next one. */
class CountingStorage extends MemoryStorage {
  reads = 0;
  failReads = 0;
  override get = async (keys: string | string[] | null): Promise<Record<string, unknown>> => {
    this.reads++;
    if (this.failReads > 0) {
      this.failReads--;
      throw new Error('storage unavailable');
    }
    return storedItems(this.items, keys);
  };
}

/** A store whose `storage.onChanged` the test fires by hand. */
function store(initial: Record<string, unknown> = {}) {
  const storage = new CountingStorage({ [KEY]: initial });
  let fire: (changes: Record<string, { newValue?: unknown }>) => void = () => undefined;
  const settings = new SettingsStore(storage, (listener) => {
    fire = listener;
  });
  return { storage, settings, changed: (changes: Record<string, { newValue?: unknown }>) => fire(changes) };
}

describe('SettingsStore holds the settings in memory', () => {
  test('reads storage once for any number of callers, concurrent or later', async () => {
    const { storage, settings } = store({ hints: false });
    const [a, b] = await Promise.all([settings.get(), settings.get()]);
    const c = await settings.get();
    expect([a.hints, b.hints, c.hints]).toEqual([false, false, false]);
    expect(storage.reads).toBe(1);
  });

  test('what set() wrote is what the next get() returns, without reading it back', async () => {
    const { storage, settings } = store();
    await settings.set({ hints: false });
    const reads = storage.reads;
    expect((await settings.get()).hints).toBe(false);
    expect(storage.reads).toBe(reads);
    expect((storage.items[KEY] as { hints: boolean }).hints).toBe(false);
  });

  test('another writer of the key (storage.onChanged) is seen on the next get(), from the change itself; other keys change nothing', async () => {
    const { storage, settings, changed } = store({ hints: true });
    expect((await settings.get()).hints).toBe(true);
    storage.items[KEY] = { hints: false };
    changed({ 'getlist.hints.v1': { newValue: { version: 1, entries: [] } } });
    expect((await settings.get()).hints).toBe(true);
    expect(storage.reads).toBe(1);
    changed({ [KEY]: { newValue: { hints: false } } });
    expect((await settings.get()).hints).toBe(false);
    expect(storage.reads).toBe(1);
    // The key removed: the defaults (hints on), still without a read.
    changed({ [KEY]: {} });
    expect((await settings.get()).hints).toBe(true);
    expect(storage.reads).toBe(1);
  });

  test('a failed read is not held: the next caller reads again', async () => {
    const { storage, settings } = store({ hints: false });
    storage.failReads = 1;
    await expect(settings.get()).rejects.toThrow('storage unavailable');
    expect((await settings.get()).hints).toBe(false);
    expect(storage.reads).toBe(2);
  });
});
