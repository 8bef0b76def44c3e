import type { Settings } from '../../src/page/messages/messages';
import { parseSettingsPatch, settingsFromStorage } from '../../src/page/messages/settings';

export interface LocalStorageLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** `storage.onChanged` as the store needs it: what changed in `storage.local`, by key, with its new value. */
export type LocalChanges = (listener: (changes: Readonly<Record<string, { newValue?: unknown }>>) => void) => void;

const KEY = 'getlist.settings.v1';

/**
 * The user's settings in `storage.local`; what is read is made whole, what is written is validated.
 * Read once and held in memory: every top-level commit asks for them (hints), and a storage read is a
 * message to the browser process on the navigation's critical path. Another writer of the key (a
 * benchmark, another extension page) is seen through `onLocalChanges`, whose new value is held
 * instead (a removed key: the defaults), with no read.
 */
export class SettingsStore {
  private held: Promise<Settings> | undefined;

  constructor(
    private readonly storage: LocalStorageLike,
    onLocalChanges?: LocalChanges,
  ) {
    onLocalChanges?.((changes) => {
      const change = changes[KEY];
      if (change) this.held = Promise.resolve(settingsFromStorage(change.newValue));
    });
  }

  get(): Promise<Settings> {
    if (this.held) return this.held;
    const read = this.storage.get(KEY).then((items) => settingsFromStorage(items[KEY]));
    // A failed read is not kept: the next caller reads again.
    read.catch(() => {
      if (this.held === read) this.held = undefined;
    });
    this.held = read;
    return read;
  }

  /** @throws SettingsError (code `E_INVALID_SETTINGS`) naming the invalid field. */
  async set(patch: unknown): Promise<Settings> {
    const valid = parseSettingsPatch(patch);
    const settings = { ...(await this.get()), ...valid };
    await this.storage.set({ [KEY]: settings });
    this.held = Promise.resolve(settings);
    return settings;
  }
}
