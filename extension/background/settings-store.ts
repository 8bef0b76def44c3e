import type { Settings } from '../../src/extension-messages/messages';
import { parseSettingsPatch, settingsFromStorage } from '../../src/extension-messages/settings';

export interface LocalStorageLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const KEY = 'getlist.settings.v1';

/** The user's settings in `storage.local`; what is read is made whole, what is written is validated. */
export class SettingsStore {
  constructor(private readonly storage: LocalStorageLike) {}

  async get(): Promise<Settings> {
    const items = await this.storage.get(KEY);
    return settingsFromStorage(items[KEY]);
  }

  /** @throws SettingsError (code `E_INVALID_SETTINGS`) naming the invalid field. */
  async set(patch: unknown): Promise<Settings> {
    const valid = parseSettingsPatch(patch);
    const settings = { ...(await this.get()), ...valid };
    await this.storage.set({ [KEY]: settings });
    return settings;
  }
}
