import type { Browser, Page } from 'puppeteer-core';
import type { HintsView } from '../../../src/page/messages/messages';
import { requireBrowser, type BrowserName } from './browsers';
import { copyExtensionBuild, type ExtensionCopy } from './extension-build';
import { findTabId, openExtensionPage, sendUi, WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';
import { loadTestPage } from './site-load';
import { TempDirs } from './temp-dirs';
import { learnedItemKey } from '../../../src/page/hints/learned-state-items';
import { startSite, type Site, type SiteRequest } from '../site/site-server';

/** A browser with the extension, as the hints suites launch it. */
export interface HintsBrowser {
  browser: Browser;
  extensionOrigin: string;
  close(): Promise<void>;
}

/** What a hints suite's tests share; set in its `beforeAll`. */
export interface HintsFixture<L extends HintsBrowser> {
  site: Site;
  /** Undefined when the browser did not start (each test says so). */
  launched?: L;
  /** The extension's query page, for get-hints and storage reads. */
  query: Page;
}

/**
 * Starts the test site and the browser (`launch`, with a fresh copy of the extension build) before
 * the suite's tests and stops both after; the tests read them from the returned fixture.
 */
export function useHintsFixture<L extends HintsBrowser>(name: BrowserName, launch: (dirs: TempDirs, extension: ExtensionCopy) => Promise<L>): HintsFixture<L> {
  const dirs = new TempDirs();
  const fx = {} as HintsFixture<L>;
  beforeAll(async () => {
    requireBrowser(name);
    const extension = copyExtensionBuild(dirs);
    fx.site = await startSite();
    fx.launched = await launch(dirs, extension);
    fx.query = (await openExtensionPage(fx.launched.browser, `${fx.launched.extensionOrigin}/${extension.queryPage}`)).page;
  }, 40_000);
  afterAll(async () => {
    await fx.launched?.close();
    await fx.site?.close();
    dirs.removeAll();
  });
  return fx;
}

export const HINTS_PAGE = 'hints.html';
/** hints.css is held back this long (`?delay=` in hints.html): what only it names cannot be asked for sooner unhinted. */
export const SHEET_DELAY_MS = 400;

export interface HintedVisit {
  tabId: number;
  view: HintsView;
  /** The servers' log of this load, browser requests only. */
  log: SiteRequest[];
  /** The `<link data-getlist-hint>` elements pushed into the page: `rel href`, in document order. */
  hintElements: string[];
}

/** The background's hints view of a tab. */
export async function getHints(query: Page, tabId: number): Promise<HintsView> {
  const reply = await sendUi(query, { type: 'get-hints', tabId });
  if (reply?.type !== 'get-hints') throw new Error(`get-hints for tab ${tabId} answered ${JSON.stringify(reply)}`);
  return reply.hints;
}

/** Polls get-hints until `done` holds; throws with the last view. */
export async function waitForHints(query: Page, tabId: number, done: (v: HintsView) => boolean, what: string): Promise<HintsView> {
  const deadline = Date.now() + WAIT_MS;
  let last: HintsView | undefined;
  for (;;) {
    last = await getHints(query, tabId);
    if (done(last)) return last;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${what} on tab ${tabId}; last get-hints: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Loads the hints page once and waits until the background learned from it (`visits` learned in all). */
export async function learnVisit(browser: Browser, query: Page, site: Site, visits: number): Promise<SiteRequest[]> {
  const mark = site.requests.length;
  const load = await loadTestPage(browser, site, HINTS_PAGE);
  const tabId = await findTabId(query, load.url);
  await waitForHints(query, tabId, (v) => v.learnedVisits.page >= visits, `${visits} learned visit(s)`);
  // Stored, so its `Link` header rules are in place too (learned-store.ts writes them first).
  await storedVisits(query, load.url, visits);
  await load.tab.close();
  return site.requests.slice(mark).filter((r) => !r.userAgent.startsWith('getlist/'));
}

/** A learned visit as the extension stored it (its key's item in storage.local). */
export interface StoredVisit {
  url: string;
  documentMs?: number;
  paintMs?: number;
}

/** The learned visits of `url`'s page as the extension stored them, once `count` are stored. */
export async function storedVisits(query: Page, url: string, count: number): Promise<StoredVisit[]> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const visits = await query.evaluate(async (key: string) => {
      const g = globalThis as unknown as InPage;
      const api = g.browser ?? g.chrome;
      const stored = (await api?.storage.local.get(key))?.[key] as { visits?: StoredVisit[] } | undefined;
      return stored?.visits ?? [];
    }, learnedItemKey(url));
    if (visits.length >= count) return visits;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${count} stored visits of ${url}; have ${JSON.stringify(visits)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The third load: hinted. Returns the view once the outcome is in, and the load's server log. */
export async function hintedVisit(browser: Browser, query: Page, site: Site): Promise<HintedVisit> {
  const mark = site.requests.length;
  const load = await loadTestPage(browser, site, HINTS_PAGE);
  const tabId = await findTabId(query, load.url);
  const view = await waitForHints(query, tabId, (v) => v.outcome !== null, 'the hinted load’s outcome');
  const hintElements = await load.tab.evaluate(() =>
    Array.from((globalThis as unknown as InPage).document.querySelectorAll('link[data-getlist-hint]'), (l) => `${l.getAttribute('rel') ?? ''} ${l.getAttribute('href') ?? ''}`),
  );
  return { tabId, view, log: site.requests.slice(mark).filter((r) => !r.userAgent.startsWith('getlist/')), hintElements };
}

/** Request paths (with query) in log order, favicon excluded. */
export function paths(log: readonly SiteRequest[]): string[] {
  return log.map((r) => `${r.origin}${r.path}`).filter((u) => !u.endsWith('/favicon.ico'));
}

/** ms from the document's arrival at the server to `suffix`'s: how early a hint took effect. */
export function afterDocument(log: readonly SiteRequest[], suffix: string): number {
  const doc = log.find((r) => r.path.startsWith(`/${HINTS_PAGE}`));
  const it = log.find((r) => r.path.endsWith(suffix));
  if (!doc || !it) throw new Error(`no ${doc ? suffix : HINTS_PAGE} in the log: ${JSON.stringify(paths(log))}`);
  return it.at - doc.at;
}

/** ms from the held-back sheet's arrival at the server to `suffix`'s (negative: before the sheet could have been answered). */
export function afterSheet(log: readonly SiteRequest[], suffix: string): number {
  const sheet = log.find((r) => r.path.startsWith('/hints.css'));
  const it = log.find((r) => r.path.endsWith(suffix));
  if (!sheet || !it) throw new Error(`no ${sheet ? suffix : 'hints.css'} in the log: ${JSON.stringify(paths(log))}`);
  return it.at - (sheet.at + SHEET_DELAY_MS);
}
