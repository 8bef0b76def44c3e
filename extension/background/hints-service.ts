import { hintRules, type DnrRule } from '../../src/page/hints/dnr-rules';
import { hintsFor, withAppliedHints } from '../../src/page/hints/hint-list';
import { hintOutcome } from '../../src/page/hints/hint-outcome';
import { DEFAULT_HINT_LIMITS, headerHintLimits, type Hint, type HintLimits, type HintList, type LearnedEntry, type LearnedState } from '../../src/page/hints/hint-types';
import { blockUrls, createLearnedState, forgetHost, recordVisit } from '../../src/page/hints/learned-state';
import { observeVisit } from '../../src/page/hints/observe-visit';
import { hostResources, mergeHostResources } from '../../src/page/hints/host-fill-in';
import type { DiscoveredItem } from '../../src/protocol/replies';
import { LEARN_DELAY_MS, NAVIGATED_LEARN_DELAY_MS, settleDelay, type VisitEnd } from '../../src/page/hints/visit-end';
import { hostOf, pageKey, templateKey } from '../../src/page/hints/site-template';
import type { ContentHintsReply, HintsView, Settings } from '../../src/page/messages/messages';
import type { PageRecord } from '../../src/page/model/page-record';
import { isExcludedSite, isHttpUrl } from '../../src/page/model/site-rules';
import type { PageStore, SessionStorageLike } from './page-store';
import { HintsMemo, type TabHints } from './hints-memo';
import type { SettingsStore } from './settings-store';
import { LearnedStore } from './learned-store';
import type { ItemStorageLike } from './item-storage';

/**
 * A closed tab's page sends its last reports at `pagehide` (extension/content/index.ts); they reach
 * the background about when the tab's removal does, in either order. Its record is kept this long
 * before it is learned from and dropped.
 */
export const CLOSE_GRACE_MS = 300;

/** The part of `declarativeNetRequest` the hints use: session rules only (gone when the browser closes). */
export interface DnrLike {
  getSessionRules(): Promise<Array<{ id: number }>>;
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: DnrRule[] }): Promise<void>;
}

export interface HintsServiceDeps {
  /** `storage.local`: the learned state, an item per learned key (learned-store.ts). */
  local: ItemStorageLike;
  dnr: DnrLike;
  store: PageStore;
  settings: SettingsStore;
  /** Whether the tab is in a private / incognito window (undefined: the tab is gone). */
  isIncognito: (tabId: number) => Promise<boolean | undefined>;
  /**
   * How hints reach the browser: a `Link` response header added by DNR session rules (Detailed
   * capture in Chromium, which grants declarativeNetRequest), or `<link>` elements the background
   * pushes into the page at commit (`forDocument`, hint-push.ts; lean capture, and Firefox, where
   * DNR cannot be an optional permission). @default 'link-header'
   */
  mechanism?: 'link-header' | 'content-script';
  limits?: HintLimits;
  /** Called after a visit was learned from (the host's fill-in listens). */
  onLearned?: (page: PageRecord, why: VisitEnd) => void;
  /**
   * `storage.session`: which visits were learned and each tab's applied list, so a suspended and
   * restarted service worker learns each visit once and still knows what it hinted. @default none (memory only)
   */
  session?: SessionStorageLike;
  /** Hints the user applied to a page from the popup's suggestions (suggestions-store.ts), merged into its list. @default none */
  applied?: (url: string, limits: HintLimits) => Promise<readonly Hint[]>;
  /** Every page's applied hints, by page key: the `Link` header rules carry them (dnr-rules.ts). @default none */
  appliedPages?: (limits: HintLimits) => Promise<ReadonlyMap<string, readonly Hint[]>>;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  now?: () => number;
  warn?: (message: string) => void;
}

/**
 * Learned lists → early hints, as a `Link` response header on the main document added by DNR
 * session rules. Both Chromium and Firefox ESR act on the header (test/e2e/hints.test.ts), at the
 * document's response headers — no later than a document_start content script inserting `<link>`
 * elements (docs/extension.md, "How the hints reach the page"), and with no message round trip nor
 * DOM change in the page. Learns from each settled top-level load (not in private windows,
 * not on excluded sites or sites with hints off), keeps the learned state in `storage.local`, and
 * keeps the declarativeNetRequest session rules in step with it, so a navigation's `Link` header is
 * in place before its request is sent: nothing runs on the navigation's critical path. The rules
 * follow a learned change with its storage write (learned-store.ts, LEARNED_WRITE_DELAY_MS later),
 * just before it: a visit is learned after the next page commits (visit-end.ts), and Chromium indexes the whole
 * session rule set again on its main thread at each update (`rules_monitor_service.cc`,
 * `UpdateSessionRulesInternal`), where it writes storage too and the new page's first frame waits.
 *
 * Invariant: rule updates run one at a time, in the order the state changed (`syncing` chain).
 */
export class HintsService {
  readonly ready: Promise<void>;
  private state: LearnedState = createLearnedState();
  private readonly memo: HintsMemo;
  private readonly learned: LearnedStore;
  private readonly tabs: Map<number, TabHints>;
  /** Each tab's last commit and its hint list, until forDocument takes it. */
  private readonly commits = new Map<number, { url: string; list: Promise<HintList | undefined> }>();
  /** Each tab's page since its `load`, until its visit ends (endedPage). */
  private readonly loaded = new Map<number, PageRecord>();
  private syncing: Promise<void> = Promise.resolve();
  /**
   * The session rules this service installed last, while known: a sync that would install the same
   * ones updates nothing, and the next one removes these ids without reading them back (each read
   * and update runs on Chromium's browser main thread).
   */
  private installed: { ids: number[]; json: string } | undefined;
  private headersReachPages = false;
  private readonly limits: HintLimits;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;

  constructor(private readonly deps: HintsServiceDeps) {
    this.limits = deps.limits ?? DEFAULT_HINT_LIMITS;
    this.setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.now = deps.now ?? Date.now;
    this.warn = deps.warn ?? ((m) => console.warn(`getlist: ${m}`));
    this.memo = new HintsMemo(deps.session, this.warn);
    this.tabs = this.memo.tabs;
    this.learned = new LearnedStore(deps.local, () => this.state, this.warn, this.setTimer, { beforeWrite: () => this.syncRules() });
    const local = this.learned.load().then((state) => {
      this.state = state;
    });
    this.ready = Promise.all([local, this.memo.ready]).then(() => undefined);
    // Session rules die with the browser; the learned state does not: rebuild them at start-up.
    void this.ready.then(() => this.syncRules());
    void this.ready.then(() => this.resumeSettling());
  }

  /**
   * webNavigation.onCommitted (top frame): works out the hints this navigation gets, once — the list
   * the rules gave it, or the one forDocument pushes into it — and notes it as the tab's applied list.
   */
  navigationCommitted(tabId: number, url: string): void {
    // The tab's previous page ends here, learned once the new page has had its time to paint
    // (NAVIGATED_LEARN_DELAY_MS). Its record is the one its `load` handed over; after a service
    // worker restart, the store's, read before this commit replaces it (the page store runs its
    // reads and updates in call order, and the navigation hub calls this first).
    const previous = this.tabs.get(tabId);
    void this.endedPage(tabId).then((page) => {
      if (page?.loadAt !== undefined) this.learnLater(NAVIGATED_LEARN_DELAY_MS, () => this.visitEnded(page, previous, 'navigated'));
    });
    this.tabs.delete(tabId);
    this.commits.delete(tabId);
    if (!isHttpUrl(url)) return;
    const list = this.listFor(url);
    this.commits.set(tabId, { url, list });
    void list.then(
      (applied) => {
        if (!applied) return;
        this.tabs.set(tabId, { url, applied });
        this.memo.save();
      },
      () => undefined,
    );
  }

  /** The hints a navigation to `url` gets now; undefined when none (or none allowed on its site). */
  private async listFor(url: string): Promise<HintList | undefined> {
    const [, settings] = await Promise.all([this.ready, this.deps.settings.get()]);
    if (!allowedOn(settings, hostOf(url))) return undefined;
    // What a `Link` header carries when the rules give the list; what the push inserts otherwise.
    const header = this.deps.mechanism !== 'content-script' && this.headersReachPages;
    const limits = header ? headerHintLimits(this.limits) : this.limits;
    const list = withAppliedHints(hintsFor(this.state.entries, url, limits), (await this.deps.applied?.(url, limits)) ?? []);
    return list.preconnects.length + list.preloads.length > 0 ? list : undefined;
  }

  /**
   * A webRequest event arrived (Detailed capture): Chromium proxies the pages' requests, so DNR's
   * `Link` headers reach them. Until one does, a header mechanism may have no effect — Chromium
   * holding the permission without the proxy, granted and not yet restarted (detailed-capture.ts) —
   * and the page gets the list as `<link>` elements instead (hint-push.ts). The document's own request
   * event comes before its commit, so where the proxy runs the header alone is used.
   */
  webRequestSeen(): void {
    this.headersReachPages = true;
  }

  /**
   * The hints to push into a committed document as `<link>` elements (hint-push.ts), answered
   * from memory (the learned state is held here); none when DNR headers carry them. For the
   * commit navigationCommitted has just seen (the navigation hub calls it first), its list: what is
   * pushed is what the popup reports as applied, computed once.
   */
  async forDocument(tabId: number, url: string | undefined): Promise<ContentHintsReply> {
    const commit = this.commits.get(tabId);
    this.commits.delete(tabId);
    const header = this.deps.mechanism !== 'content-script' && this.headersReachPages;
    if (header || !isHttpUrl(url)) return { type: 'hints', list: null };
    const list = await (commit?.url === url ? commit.list : this.listFor(url));
    return { type: 'hints', list: list ?? null };
  }

  /**
   * webNavigation.onCompleted (top frame): the visit is learned from when it ends (visit-end.ts), or
   * LEARN_DELAY_MS from now for a user who stays. Whether the tab is private is asked now, while
   * the tab exists: a closed tab can no longer say.
   */
  pageLoaded(page: PageRecord): void {
    const { tabId, pageId } = page;
    this.loaded.set(tabId, page);
    void this.deps.isIncognito(tabId).then((incognito) => {
      if (incognito === undefined) return;
      this.memo.incognito.set(tabId, incognito);
      this.memo.save();
    });
    this.settleLater(tabId, pageId, LEARN_DELAY_MS);
  }

  /**
   * tabs.onRemoved: the tab's page ends. Resolves once it was learned from (after CLOSE_GRACE_MS,
   * for its `pagehide` reports); the caller drops the tab's record then.
   */
  async tabClosed(tabId: number): Promise<void> {
    await new Promise((r) => this.setTimer(() => r(undefined), CLOSE_GRACE_MS));
    const page = await this.endedPage(tabId);
    if (page) await this.visitEnded(page, this.tabs.get(tabId), 'closed');
    this.tabs.delete(tabId);
    this.memo.incognito.delete(tabId);
    this.memo.save();
  }

  /**
   * The tab's page whose visit ends now: the record its `load` handed over (records are live and
   * keep taking the page's late reports), or the store's where this worker saw no `load` (a
   * restart). Not the store's alone: Detailed capture opens the next navigation's record at its
   * start (`navigationStarted`, or its document request), before the commit that ends the visit.
   */
  private endedPage(tabId: number): Promise<PageRecord | undefined> {
    const page = this.loaded.get(tabId);
    this.loaded.delete(tabId);
    return page ? Promise.resolve(page) : this.deps.store.get(tabId);
  }

  /** The settled end: the tab's page `pageId`, if it is still the tab's page and not learned yet. */
  async learn(tabId: number, pageId: string): Promise<void> {
    await this.ready;
    const page = await this.deps.store.current(tabId, pageId);
    if (page) await this.visitEnded(page, this.tabs.get(tabId), 'settled');
  }

  private settleLater(tabId: number, pageId: string, ms: number): void {
    this.learnLater(ms, () => this.learn(tabId, pageId));
  }

  /** Runs a learning `ms` from now; a failure is warned of, not thrown into the timer. */
  private learnLater(ms: number, learning: () => Promise<void>): void {
    this.setTimer(() => void learning().catch((e: unknown) => this.warn(`learning hints failed: ${String(e)}`)), ms);
  }

  /** A restarted service worker lost its timers: the loaded pages not learned yet get theirs again. */
  private async resumeSettling(): Promise<void> {
    for (const page of await this.deps.store.all()) {
      if (page.loadAt !== undefined && !this.memo.claimed.has(page.pageId)) this.settleLater(page.tabId, page.pageId, settleDelay(page.loadAt, this.now()));
    }
  }

  /** Learns from a visit that ended (`why`), once, with what it reported by then. */
  private async visitEnded(page: PageRecord, tab: TabHints | undefined, why: VisitEnd): Promise<void> {
    await this.ready;
    if (page.loadAt === undefined || !isHttpUrl(page.url) || !this.memo.claimed.claim(page.pageId)) return;
    this.memo.save();
    const { tabId, pageId } = page;
    const settings = await this.deps.settings.get();
    if (!allowedOn(settings, hostOf(page.url))) return;
    // Nothing a private window does may outlive it; a tab not known to be ordinary is not learned from.
    const incognito = this.memo.incognito.get(tabId) ?? (why === 'closed' ? undefined : await this.deps.isIncognito(tabId));
    if (incognito !== false) return;
    const applied = tab && tab.url === page.url ? tab.applied : undefined;
    const hinted = new Set(applied?.preloads.map((p) => p.href) ?? []);
    // A font preloaded before the body may have held the paint; one inserted after it did not.
    const fontHinted = applied?.preloads.some((p) => p.as === 'font' && !p.afterBody) === true;
    const visit = observeVisit(page, { hinted, fontHinted, resourcesPerVisit: this.limits.resourcesPerVisit, originsPerVisit: this.limits.originsPerVisit });
    if (applied && tab) {
      tab.pageId = pageId;
      tab.outcome = hintOutcome(applied, page, this.entriesOf(page.url));
      this.memo.save();
      // A preload the page's own request did not match costs a second fetch: never again.
      blockUrls(this.state, applied.keys, tab.outcome.duplicates, this.limits);
      if (tab.outcome.duplicates.length > 0) this.learned.changed(applied.keys);
    }
    this.learned.changed(recordVisit(this.state, visit, this.limits));
    this.deps.onLearned?.(page, why);
  }

  /** Visits learned under the page key of `url`. */
  pageVisits(url: string): number {
    const key = pageKey(url);
    return key ? (this.state.entries.get(key)?.visits.length ?? 0) : 0;
  }

  /**
   * The host's discovery of `page` (host-fill-in.ts): what only its style sheets name and its own
   * timeline could not show joins the page's learned visits, marked `host`. Returns how many.
   */
  async mergeDiscovered(page: PageRecord, items: readonly DiscoveredItem[]): Promise<number> {
    await this.ready;
    const entry = this.state.entries.get(pageKey(page.url) ?? '');
    const found = hostResources(items, page, entry);
    if (!entry || found.length === 0) return 0;
    mergeHostResources(entry, found, this.limits.resourcesPerVisit);
    this.learned.changed([entry.key]);
    return found.length;
  }

  /** Forgets the hints learned for `origin`'s host, or everything. Returns the keys removed. */
  async forget(origin?: string): Promise<number> {
    await this.ready;
    let removed: number;
    // A list worked out before the forgetting is not pushed after it: forDocument works it out again.
    this.commits.clear();
    if (origin === undefined) {
      removed = this.state.entries.size;
      this.state = createLearnedState();
      this.tabs.clear();
    } else removed = forgetHost(this.state, hostOf(origin) || origin);
    // Forgetting is not left pending: neither storage nor the rules hold any of it once this resolves.
    await this.learned.flush();
    return removed;
  }

  /** The popup's view of a tab. */
  async view(tabId: number, url: string | undefined): Promise<HintsView> {
    await this.ready;
    const settings = await this.deps.settings.get();
    const host = url && isHttpUrl(url) ? hostOf(url) : '';
    const tab = this.tabs.get(tabId);
    const current = tab && tab.url === url ? tab : undefined;
    const visits = (k: string | undefined) => (k ? (this.state.entries.get(k)?.visits.length ?? 0) : 0);
    return {
      host,
      enabled: host !== '' && allowedOn(settings, host),
      siteDisabled: host !== '' && isExcludedSite(`https://${host}/`, settings.hintsDisabledSites),
      applied: current?.applied ?? null,
      outcome: current?.outcome ?? null,
      learnedVisits: { page: visits(url && pageKey(url)), template: visits(url && templateKey(url)) },
    };
  }

  /** Replaces every session rule with the ones the learned state, the applied suggestions and the settings give now (none when they are the ones installed). */
  syncRules(): Promise<void> {
    this.syncing = this.syncing.then(async () => {
      try {
        const settings = await this.deps.settings.get();
        if (this.deps.mechanism === 'content-script') return;
        const limits = headerHintLimits(this.limits);
        const applied = await this.deps.appliedPages?.(limits);
        const rules = hintRules(this.state, { limits, allowed: (host) => allowedOn(settings, host), ...(applied ? { applied } : {}) });
        const json = JSON.stringify(rules);
        if (this.installed?.json === json) return;
        // Rules this browser session kept from an earlier service worker are read once; a failed update reads them again.
        const old = this.installed?.ids ?? (await this.deps.dnr.getSessionRules()).map((r) => r.id);
        this.installed = undefined;
        await this.deps.dnr.updateSessionRules({ removeRuleIds: old, addRules: rules });
        this.installed = { ids: rules.map((r) => r.id), json };
      } catch (err) {
        this.warn(`could not update the hint rules: ${String(err)}`);
      }
    });
    return this.syncing;
  }

  private entriesOf(url: string): LearnedEntry[] {
    return [pageKey(url), templateKey(url)].map((k) => (k ? this.state.entries.get(k) : undefined)).filter((e): e is LearnedEntry => e !== undefined);
  }
}

/** Hints are on, this site's are not switched off, and the site is not excluded. */
export function allowedOn(settings: Settings, host: string): boolean {
  const url = `https://${host}/`;
  return settings.hints && host !== '' && !isExcludedSite(url, settings.hintsDisabledSites) && !isExcludedSite(url, settings.excludedSites);
}
