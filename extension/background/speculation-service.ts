import { hostOf, pageKey } from '../../src/page/hints/site-template';
import type { Settings } from '../../src/page/messages/messages';
import { isExcludedSite, isHttpUrl } from '../../src/page/model/site-rules';
import { baselineOf, contextFor, createSpeculationState, documentCacheControl, documentKept, emptyOutcome, forgetSpeculation, linkFollowed, pageCommitted, pageServed, servedVia, speculationsSettled, SPECULATION_LIMITS } from '../../src/page/speculation/follow-state';
import type { LinkRefusal } from '../../src/page/speculation/link-safety';
import { pageRefusal, type PageRefusal } from '../../src/page/speculation/page-gate';
import type { ServedReport, SpeculationContext, SpeculationState, SpeculationView } from '../../src/page/speculation/speculation-types';
import type { SettingsStore } from './settings-store';
import type { ItemStorageLike } from './item-storage';
import { SpeculationStore } from './speculation-store';

export interface SpeculationServiceDeps {
  /** `storage.local`: the speculation state, an item per entry (speculation-store.ts). */
  local: ItemStorageLike;
  settings: SettingsStore;
  /** Whether the tab is in a private / incognito window (undefined: the tab is gone). */
  isIncognito: (tabId: number) => Promise<boolean | undefined>;
  /** How pages are observed: in lean capture they report what the cache kept of them (`readsCache`). @default 'lean' */
  capture?: 'lean' | 'detailed';
  setTimeout?: (fn: () => void, ms: number) => unknown;
  warn?: (message: string) => void;
}

/** The tab's current document, as far as speculation goes. */
interface TabPage {
  url: string;
  /** Page keys this document asked the browser to fetch ahead. */
  speculated: string[];
  served?: ServedReport;
  refusal?: PageRefusal;
  links?: { candidates: number; refused: Partial<Record<LinkRefusal, number>> };
}

/**
 * The background's half of speculation (docs/extension.md, "The next page before the click"):
 * learns which same-origin links each page's visits follow (top-frame commits whose transition is a
 * link), hands each page's speculation script its context, and counts what became of each
 * speculation when the tab moves on. Nothing is learned or speculated in private windows, on
 * excluded sites, or where speculation is off (src/page/speculation/page-gate.ts).
 */
export class SpeculationService {
  readonly ready: Promise<void>;
  private state: SpeculationState = createSpeculationState();
  private readonly tabs = new Map<number, TabPage>();
  private readonly store: SpeculationStore;
  private readonly warn: (message: string) => void;

  constructor(private readonly deps: SpeculationServiceDeps) {
    this.warn = deps.warn ?? ((m) => console.warn(`getlist: ${m}`));
    this.store = new SpeculationStore(deps.local, () => this.state, this.warn, deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)));
    this.ready = this.store.load().then((state) => {
      this.state = state;
    });
  }

  /** webNavigation.onCommitted, top frame: settles the previous page's speculations and learns the follow. */
  async committed(tabId: number, url: string, transitionType: string | undefined): Promise<void> {
    const previous = this.tabs.get(tabId);
    this.tabs.delete(tabId);
    await this.ready;
    if (previous) speculationsSettled(this.state, hostOf(previous.url), previous.speculated, url);
    if (!isHttpUrl(url)) return this.store.schedule();
    this.tabs.set(tabId, { url, speculated: [] });
    if ((await this.refusal(tabId, url)) !== undefined) return this.store.schedule();
    pageCommitted(this.state, url);
    if (previous && transitionType === 'link') linkFollowed(this.state, previous.url, url);
    this.store.schedule();
  }

  /** The tab closed: its page's speculations were not followed. */
  tabRemoved(tabId: number): void {
    const previous = this.tabs.get(tabId);
    this.tabs.delete(tabId);
    if (!previous || previous.speculated.length === 0) return;
    speculationsSettled(this.state, hostOf(previous.url), previous.speculated, undefined);
    this.store.schedule();
  }

  /** Whether the speculation script goes into the tab's loaded document (no script where the page may not speculate). */
  async mayInject(tabId: number, url: string): Promise<boolean> {
    return isHttpUrl(url) && (await this.refusal(tabId, url)) === undefined;
  }

  /** `speculation-ready` from the page: records how it was served; answers its context, or null. */
  async pageReady(tabId: number, url: string | undefined, served: ServedReport, page: { saveData: boolean; ownRules: boolean; rulesSupported?: boolean }): Promise<SpeculationContext | null> {
    await this.ready;
    const tab = this.tabOf(tabId, url);
    if (!tab || !url) return null;
    tab.served = served;
    const refusal = await this.refusal(tabId, url, page);
    tab.refusal = refusal;
    // Learned only where learning is allowed: a page refused for what it or the browser is still counts its visits.
    if (learnsFrom(refusal)) {
      pageServed(this.state, url, served);
      this.store.schedule();
    }
    return refusal === undefined ? contextFor(this.state, url, await this.deps.settings.get()) : null;
  }

  /**
   * Whether pages report what the browser's cache kept of them: lean capture's only evidence of
   * `no-store` (follow-state.ts `documentKept`). Detailed capture reads the header itself, and its
   * webRequest would see the read as one of the page's requests.
   */
  get readsCache(): boolean {
    return (this.deps.capture ?? 'lean') === 'lean';
  }

  /** `speculation-kept` from the page, after its `speculation-ready`: whether the cache kept its document. */
  async pageKept(tabId: number, url: string | undefined, kept: boolean): Promise<void> {
    await this.ready;
    const tab = this.tabOf(tabId, url);
    if (!tab || !url || !this.readsCache || !learnsFrom(tab.refusal)) return;
    documentKept(this.state, url, kept);
    this.store.schedule();
  }

  linksReported(tabId: number, url: string | undefined, links: TabPage['links']): void {
    const tab = this.tabOf(tabId, url);
    if (tab) tab.links = links;
  }

  /** The page asked the browser to fetch `target` ahead. */
  speculated(tabId: number, url: string | undefined, target: string): void {
    const tab = this.tabOf(tabId, url);
    const key = pageKey(target);
    if (!tab || !key || tab.speculated.includes(key) || tab.speculated.length >= SPECULATION_LIMITS.perPage) return;
    tab.speculated.push(key);
  }

  /** A top-level document's response headers (Detailed capture): its `Cache-Control`. */
  documentHeaders(url: string, headers: ReadonlyArray<{ name: string; value?: string }> | undefined): void {
    void this.ready.then(() => {
      const cacheControl = headers?.filter((h) => h.name.toLowerCase() === 'cache-control').map((h) => h.value ?? '').join(', ');
      documentCacheControl(this.state, url, cacheControl);
      this.store.schedule();
    });
  }

  /** The popup's view of the tab. */
  async view(tabId: number, url: string | undefined): Promise<SpeculationView> {
    await this.ready;
    const settings = await this.deps.settings.get();
    const host = url && isHttpUrl(url) ? hostOf(url) : '';
    const tab = this.tabOf(tabId, url);
    const refusal = tab?.refusal ?? (url && isHttpUrl(url) ? await this.refusal(tabId, url) : 'off');
    const served = tab?.served ? { ...tab.served, via: servedVia(tab.served) } : null;
    const baseline = baselineOf(this.state.baselines.get(pageKey(url ?? '') ?? '') ?? []);
    const saved = served && served.via !== 'network' && baseline
      ? {
          responseStartMs: baseline.responseStartMs - served.responseStartMs,
          ...(baseline.lcpMs !== undefined && served.lcpMs !== undefined ? { lcpMs: baseline.lcpMs - served.lcpMs } : {}),
        }
      : null;
    const site = this.state.sites.get(host) ?? emptyOutcome();
    return {
      host,
      refusal: refusal ?? null,
      siteDisabled: host !== '' && isExcludedSite(`https://${host}/`, settings.speculationDisabledSites),
      served,
      baseline,
      saved,
      speculatedHere: [...(tab?.speculated ?? [])],
      links: tab?.links ?? null,
      site: { ...site, hitRate: site.speculated > 0 ? site.followed / site.speculated : null },
    };
  }

  /** Forgets what was learned for `origin`'s host, or everything. Returns the keys removed. */
  async forget(origin?: string): Promise<number> {
    await this.ready;
    const removed = forgetSpeculation(this.state, origin === undefined ? undefined : hostOf(origin) || origin);
    if (origin === undefined) this.tabs.clear();
    await this.store.flush();
    return removed;
  }

  private tabOf(tabId: number, url: string | undefined): TabPage | undefined {
    const tab = this.tabs.get(tabId);
    return tab && url !== undefined && pageKey(tab.url) === pageKey(url) ? tab : undefined;
  }

  private async refusal(tabId: number, url: string, page: { saveData?: boolean; ownRules?: boolean; rulesSupported?: boolean } = {}): Promise<PageRefusal | undefined> {
    const [settings, incognito] = await Promise.all([this.deps.settings.get(), this.deps.isIncognito(tabId)]);
    return pageRefusal({ url, settings: settingsPart(settings), incognito, ...page });
  }
}

function settingsPart(s: Settings): Pick<Settings, 'speculation' | 'excludedSites' | 'speculationDisabledSites'> {
  return { speculation: s.speculation, excludedSites: s.excludedSites, speculationDisabledSites: s.speculationDisabledSites };
}

/** Learning is allowed: a page refused for what it or the browser is (Save-Data, its own rules, no rules support) still counts. */
function learnsFrom(refusal: PageRefusal | undefined): boolean {
  return refusal === undefined || refusal === 'save-data' || refusal === 'own-rules' || refusal === 'unsupported';
}
