import { LEARN_DELAY_MS } from '../../src/page/hints/visit-end';
import { browserHandshakes } from '../../src/page/model/browser-handshakes';
import type { PageRecord } from '../../src/page/model/page-record';
import { isExcludedSite, isHttpUrl, withoutFragment } from '../../src/page/model/site-rules';
import type { HostPort } from './native-port';
import type { PageStore } from './page-store';
import type { SettingsStore } from './settings-store';

/** Page ids remembered as recorded: more than the loads that can be pending at once. */
const RECORDED_MAX = 500;

export interface BrowserHandshakeRecorderDeps {
  store: Pick<PageStore, 'current'>;
  port: Pick<HostPort, 'request'>;
  settings: Pick<SettingsStore, 'get'>;
  /** Whether the tab is in a private / incognito window (undefined: the tab is gone). */
  isIncognito: (tabId: number) => Promise<boolean | undefined>;
  /** How long after `load` the page's timeline is read, so late requests are in. @default LEARN_DELAY_MS */
  delayMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  warn?: (message: string) => void;
}

/**
 * Sends the host every connection the browser opened for a page (src/page/model/browser-handshakes.ts),
 * to be stored beside the host's own handshakes with source `browser`: the handshake CDF of the
 * user's own browsing. Once per page load, `delayMs` after its `load` or when its tab closes,
 * whichever comes first; never for a private window (nothing a private window does may outlive
 * it; a tab not known to be ordinary is left out) nor an excluded site. A host that is missing or
 * fails costs nothing but the records.
 */
export class BrowserHandshakeRecorder {
  private readonly recorded = new Set<string>();
  /** Each tab's loaded page not recorded yet, and whether its window is private (asked at load). */
  private readonly pending = new Map<number, { pageId: string; incognito: Promise<boolean | undefined> }>();
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly warn: (message: string) => void;

  constructor(private readonly deps: BrowserHandshakeRecorderDeps) {
    this.setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.warn = deps.warn ?? ((m) => console.debug(`getlist: ${m}`));
  }

  /** On the top-level `load`. Whether the tab is private is asked now, while the tab exists. */
  pageLoaded(page: Pick<PageRecord, 'tabId' | 'pageId'>): void {
    const { tabId, pageId } = page;
    // Claimed now, before any wait: a second `load` of the same page schedules nothing.
    if (this.recorded.has(pageId)) return;
    this.recorded.add(pageId);
    if (this.recorded.size > RECORDED_MAX) this.recorded.delete(this.recorded.values().next().value as string);
    this.pending.set(tabId, { pageId, incognito: this.deps.isIncognito(tabId).catch(() => undefined) });
    this.setTimer(() => void this.settle(tabId, pageId), this.deps.delayMs ?? LEARN_DELAY_MS);
  }

  /** The tab is closing: its page is recorded now, while its record is still held. */
  tabClosed(tabId: number): Promise<void> {
    const p = this.pending.get(tabId);
    return p ? this.settle(tabId, p.pageId) : Promise.resolve();
  }

  private settle(tabId: number, pageId: string): Promise<void> {
    const p = this.pending.get(tabId);
    if (!p || p.pageId !== pageId) return Promise.resolve();
    this.pending.delete(tabId);
    return this.record(tabId, pageId, p.incognito);
  }

  /** Resolves once the page's connections were sent (or it was found not to be recorded). */
  async record(tabId: number, pageId: string, incognito: Promise<boolean | undefined>): Promise<void> {
    if ((await incognito) !== false) return;
    const page = await this.deps.store.current(tabId, pageId);
    if (!page || !isHttpUrl(page.url)) return;
    const settings = await this.deps.settings.get();
    if (isExcludedSite(page.url, settings.excludedSites)) return;
    const handshakes = browserHandshakes(page);
    if (handshakes.length === 0) return;
    try {
      await this.deps.port.request({ type: 'handshakes', pageUrl: withoutFragment(page.url), handshakes });
    } catch (err) {
      this.warn(`recording the browser's connections of ${withoutFragment(page.url)} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
