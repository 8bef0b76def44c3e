import type { PageRecord } from '../../src/page/model/page-record';
import { restore, snapshot, type PageState } from '../../src/page/model/page-reducer';

/**
 * The page state and its copy in `storage.session`, so a restarted service worker (Chrome) or
 * event page (Firefox) shows the user what it showed before. A page load fires hundreds of
 * webRequest events, and each write serialises every tab's record: so request-level events only
 * mark the state dirty (`'dirty'`, written within `dirtyMs` if nothing else happens), and the
 * milestones (the load event, the page's timings, the host's answers) write it within
 * `debounceMs` — about one write per page load, after its `load`.
 *
 * Invariant: every change goes through `update`, which runs after the stored state was restored,
 * in the order the events arrived.
 */
export interface SessionStorageLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export interface PageStoreOptions {
  /** Delay of a write after a milestone change. @default 250 */
  debounceMs?: number;
  /** Longest a `'dirty'` change waits for a milestone before it is written anyway. @default 10000 */
  dirtyMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  warn?: (message: string) => void;
}

const KEY = 'getlist.pages.v1';

/** `milestone`: worth writing soon; `dirty`: written with the next milestone (or after `dirtyMs`). */
export type ChangeKind = 'milestone' | 'dirty';

export class PageStore {
  readonly ready: Promise<PageState>;
  private state: PageState | undefined;
  /** Timers pending, by kind: a milestone timer makes a dirty one unnecessary, not the reverse. */
  private readonly pending = { milestone: false, dirty: false };
  private dirty = false;
  private readonly debounceMs: number;
  private readonly dirtyMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly storage: SessionStorageLike,
    options: PageStoreOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 250;
    this.dirtyMs = options.dirtyMs ?? 10_000;
    this.setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.warn = options.warn ?? ((m) => console.warn(`getlist: ${m}`));
    this.ready = storage.get(KEY).then(
      (items) => this.restored(items[KEY]),
      (err: unknown) => {
        this.warn(`could not read the saved pages: ${String(err)}`);
        return this.restored(undefined);
      },
    );
  }

  /** Runs `change` on the state once restored; persists when it returns a record. */
  update(change: (state: PageState) => PageRecord | boolean | undefined, kind: ChangeKind = 'milestone'): Promise<PageRecord | undefined> {
    return this.ready.then((state) => {
      const changed = change(state);
      if (changed) this.changed(kind);
      return typeof changed === 'object' ? changed : undefined;
    });
  }

  async get(tabId: number): Promise<PageRecord | undefined> {
    return (await this.ready).pages.get(tabId);
  }

  /** Every tab's record, oldest first. */
  async all(): Promise<PageRecord[]> {
    return [...(await this.ready).pages.values()];
  }

  /** The tab's current record if it is still the page `pageId` (the tab may have navigated on). */
  async current(tabId: number, pageId: string): Promise<PageRecord | undefined> {
    const page = await this.get(tabId);
    return page?.pageId === pageId ? page : undefined;
  }

  /** Marks the state dirty: written within `debounceMs` (a milestone) or `dirtyMs` (`'dirty'`). */
  changed(kind: ChangeKind = 'milestone'): void {
    this.dirty = true;
    if (this.pending.milestone || this.pending[kind]) return;
    this.pending[kind] = true;
    // The sooner timer writes; a later one finds nothing dirty (or writes what changed since).
    this.setTimer(
      () => {
        this.pending[kind] = false;
        if (!this.dirty) return;
        this.dirty = false;
        void this.write();
      },
      kind === 'milestone' ? this.debounceMs : this.dirtyMs,
    );
  }

  private restored(stored: unknown): PageState {
    this.state = restore(stored);
    for (const page of this.state.pages.values()) {
      // The worker that ran this replay is gone, and its results with it.
      if (page.replay?.status === 'running') page.replay = { ...page.replay, status: 'error', error: { code: 'E_INTERRUPTED', message: 'The extension restarted while the replay ran; run it again.' } };
    }
    return this.state;
  }

  private async write(): Promise<void> {
    if (!this.state) return;
    const pages = snapshot(this.state);
    try {
      await this.storage.set({ [KEY]: pages });
    } catch (err) {
      // Over the session quota (10 MB in Chrome): keep the most recent half of the tabs stored.
      this.warn(`could not save ${pages.length} pages (${String(err)}); saving the most recent ones only`);
      await this.storage.set({ [KEY]: pages.slice(Math.floor(pages.length / 2)) }).catch((e: unknown) => this.warn(`could not save pages: ${String(e)}`));
    }
  }
}
