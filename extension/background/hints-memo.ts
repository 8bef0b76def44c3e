import type { HintList } from '../../src/page/hints/hint-types';
import type { HintOutcome } from '../../src/page/hints/hint-outcome';
import { ClaimedVisits, claimedFromJson } from '../../src/page/hints/visit-end';
import type { SessionStorageLike } from './page-store';

/** What a tab's current page was hinted, and how it went once learned from. */
export interface TabHints {
  pageId?: string;
  url: string;
  applied: HintList;
  outcome?: HintOutcome;
}

const KEY = 'getlist.hints.tabs.v1';

/**
 * The hints service's per-browser-session memory, kept in `storage.session` so a service worker
 * suspended between a page's `load` and its end resumes where it was: the visits already learned
 * from (each learned once), each tab's applied hint list, and whether each tab is private (asked at
 * `load`, while the tab exists). Written after each change, coalesced into one write per turn.
 */
export class HintsMemo {
  readonly ready: Promise<void>;
  readonly tabs = new Map<number, TabHints>();
  readonly incognito = new Map<number, boolean>();
  readonly claimed = new ClaimedVisits();
  private writing = false;

  constructor(
    private readonly session: SessionStorageLike | undefined,
    private readonly warn: (message: string) => void,
  ) {
    this.ready = session
      ? session.get(KEY).then(
          (items) => this.restore(items[KEY]),
          (err: unknown) => this.warn(`could not read the hints' session state: ${String(err)}`),
        )
      : Promise.resolve();
  }

  save(): void {
    if (!this.session || this.writing) return;
    this.writing = true;
    queueMicrotask(() => {
      this.writing = false;
      const value = { claimed: this.claimed.toJson(), tabs: [...this.tabs], incognito: [...this.incognito] };
      this.session?.set({ [KEY]: value }).catch((err: unknown) => this.warn(`could not save the hints' session state: ${String(err)}`));
    });
  }

  /** Written by this extension only (`storage.session` is not exposed to content scripts); still, anything malformed is left out. */
  private restore(stored: unknown): void {
    if (typeof stored !== 'object' || stored === null) return;
    const s = stored as { claimed?: unknown; tabs?: unknown; incognito?: unknown };
    for (const id of claimedFromJson(s.claimed)) this.claimed.claim(id);
    for (const [tabId, tab] of pairs(s.tabs)) {
      const t = tab as Partial<TabHints> | null;
      if (t && typeof t.url === 'string' && typeof t.applied === 'object' && t.applied !== null && Array.isArray(t.applied.preloads) && Array.isArray(t.applied.preconnects)) this.tabs.set(tabId, t as TabHints);
    }
    for (const [tabId, v] of pairs(s.incognito)) if (typeof v === 'boolean') this.incognito.set(tabId, v);
  }
}

function pairs(v: unknown): Array<[number, unknown]> {
  return Array.isArray(v) ? v.filter((p): p is [number, unknown] => Array.isArray(p) && p.length === 2 && Number.isInteger(p[0])) : [];
}
