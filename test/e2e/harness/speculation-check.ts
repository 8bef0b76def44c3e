import fs from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import type { SpeculationView } from '../../../src/page/speculation/speculation-types';
import { startSpeculationSite, type SpeculationSite } from '../site/speculation-site';
import { requireBrowser, type BrowserName } from './browsers';
import { copyExtensionBuild } from './extension-build';
import { openExtensionPage, sendUi, WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';
import { h2Certificate } from './observed-checks';
import { TempDirs } from './temp-dirs';

/** What a speculation suite's tests share; set in its `beforeAll`. */
export interface SpeculationFixture<L extends { browser: Browser; extensionOrigin: string; close(): Promise<void> }> {
  site: SpeculationSite;
  /** Undefined when the browser did not start (each test says so). */
  launched?: L;
  /** The extension's query page, for get-speculation and settings. */
  query: Page;
}

/**
 * Starts the https speculation site (a throwaway certificate; `launch` gets its SPKI hash for
 * Chromium) and the browser with a fresh copy of the extension build before the suite, and stops
 * both after.
 */
export function useSpeculationFixture<L extends { browser: Browser; extensionOrigin: string; close(): Promise<void> }>(
  name: BrowserName,
  launch: (dirs: TempDirs, extensionDir: string, spkiHash: string) => Promise<L>,
): SpeculationFixture<L> {
  const dirs = new TempDirs();
  const fx = {} as SpeculationFixture<L>;
  beforeAll(async () => {
    requireBrowser(name);
    const extension = copyExtensionBuild(dirs);
    const tls = h2Certificate(dirs);
    fx.site = await startSpeculationSite({ cert: fs.readFileSync(tls.certPath), key: fs.readFileSync(tls.keyPath) });
    fx.launched = await launch(dirs, extension.dir, tls.spkiHash);
    fx.query = (await openExtensionPage(fx.launched.browser, `${fx.launched.extensionOrigin}/${extension.queryPage}`)).page;
  }, 60_000);
  afterAll(async () => {
    await fx.launched?.close();
    await fx.site?.close();
    dirs.removeAll();
  });
  return fx;
}

/** A new tab showing `url`, loaded. */
export async function openTab(browser: Browser, url: string): Promise<Page> {
  const tab = await browser.newPage();
  await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
  return tab;
}

/** Moves the pointer to the page's top-left corner, off every link (a pointer left over a link hovers the next page's link at that place). */
export async function parkPointer(tab: Page): Promise<void> {
  await tab.mouse.move(1, 1);
}

/**
 * Rests the pointer on `selector` for `ms`, then moves it off to the page's corner. With `press`,
 * the button also goes down on the link and comes up off it, which is no click.
 */
export async function hoverFor(tab: Page, selector: string, ms: number, options: { press?: boolean } = {}): Promise<void> {
  await tab.hover(selector);
  if (options.press) await tab.mouse.down();
  await new Promise((r) => setTimeout(r, ms));
  await tab.mouse.move(1, 1);
  if (options.press) await tab.mouse.up();
}

/**
 * Clicks `selector` and waits until the tab shows `url`, loaded. Polled rather than
 * `waitForNavigation`: puppeteer never sees a navigation served from a prefetch finish. A
 * prerender's activation swaps the tab's page for the prerendered one, and a poll running on the
 * page it replaced ends with its session closed or its frame detached (puppeteer words it "detached
 * Frame" or "frame got detached"): the wait goes on in the page the tab shows now.
 */
export async function clickAndWait(tab: Page, selector: string, url: string): Promise<void> {
  await tab.click(selector);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await tab.waitForFunction((u) => {
        const g = globalThis as unknown as InPage;
        return g.location.href === u && g.document.readyState === 'complete';
      }, { timeout: Math.max(1, deadline - Date.now()), polling: 50 }, url);
      return;
    } catch (err) {
      const why = `${(err as Error).message} ${String((err as Error).cause ?? '')}`;
      if (!/Session closed|Execution context was destroyed|detached Frame|frame got detached/i.test(why) || Date.now() >= deadline) throw err;
    }
  }
}

/**
 * What the browser itself says of the tab's document, read in the page's main world: its Navigation
 * Timing, and its last largest-contentful-paint entry (buffered) where the browser has them.
 */
export async function servedInPage(tab: Page): Promise<{ deliveryType: string; activationStart: number; responseStartMs: number; lcpMs?: number }> {
  return tab.evaluate(async () => {
    const g = globalThis as unknown as InPage & { PerformanceObserver: new (cb: (list: { getEntries(): Array<{ startTime: number }> }) => void) => { observe(o: object): void; disconnect(): void } & object; setTimeout: typeof setTimeout };
    const nav = g.performance.getEntriesByType('navigation')[0] as { responseStart: number; deliveryType?: string; activationStart?: number };
    const activationStart = nav.activationStart ?? 0;
    let lcp: number | undefined;
    try {
      const observer = new g.PerformanceObserver((list) => {
        for (const e of list.getEntries()) lcp = e.startTime;
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
      await new Promise((r) => g.setTimeout(r, 100));
      observer.disconnect();
    } catch {
      // No LCP in this browser.
    }
    return { deliveryType: nav.deliveryType ?? '', activationStart, responseStartMs: Math.max(0, nav.responseStart - activationStart), ...(lcp === undefined ? {} : { lcpMs: Math.max(0, lcp - activationStart) }) };
  });
}

/** Polls `get-speculation` for the tab until `done` holds; throws with the last view. */
export async function waitForView(query: Page, tabId: number, done: (v: SpeculationView) => boolean, what: string): Promise<SpeculationView> {
  const deadline = Date.now() + WAIT_MS;
  let last: unknown;
  for (;;) {
    const reply = await sendUi(query, { type: 'get-speculation', tabId });
    last = reply;
    if (reply?.type === 'get-speculation' && done(reply.speculation)) return reply.speculation;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${what} on tab ${tabId}; last view: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
