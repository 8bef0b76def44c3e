import type { Browser, Page } from 'puppeteer-core';
import { openExtensionPage, WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';

export interface OpenedPopup {
  page: Page;
  /** Uncaught errors (`pageerror`) and console errors on the popup page, as they happen. */
  errors: string[];
}

/**
 * Opens the popup for `tabId` in a tab of its own (`popup.html?tabId=N`), the way the toolbar
 * button would show it for that tab.
 */
export async function openPopupForTab(browser: Browser, extensionOrigin: string, tabId: number): Promise<OpenedPopup> {
  const { page, errors } = await openExtensionPage(browser, `${extensionOrigin}/popup.html?tabId=${tabId}`);
  await page.setViewport({ width: 520, height: 720 });
  return { page, errors };
}

/**
 * Waits until the first element matching `selector` has text that `accept` takes (the popup may
 * render a placeholder before its data arrives) and returns that text. On timeout it throws with
 * the last text seen, or says the element never appeared.
 */
export async function waitForText(page: Page, selector: string, accept: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  let last: string | null = null;
  for (;;) {
    last = await page.evaluate((s) => {
      const el = (globalThis as unknown as InPage).document.querySelector(s);
      return el ? (el.textContent ?? '') : null;
    }, selector);
    if (last !== null && accept(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(`${selector}: waited ${WAIT_MS} ms for ${what}; ${last === null ? 'no such element' : `its text is ${JSON.stringify(last.slice(0, 300))}`}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first integer in a text (`"7 requests"` → 7), or NaN. */
export function firstInteger(text: string): number {
  return Number(/\d+/.exec(text.replace(/[,\u202f\u00a0]/g, ''))?.[0] ?? NaN);
}

/** How many elements match `selector`. */
export async function countOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((s) => (globalThis as unknown as InPage).document.querySelectorAll(s).length, selector);
}

/** The text behind a blob:/data: link's href, fetched inside the page that made it. */
export async function fetchLinkText(page: Page, selector: string): Promise<string> {
  await page.waitForSelector(selector, { timeout: WAIT_MS });
  return page.evaluate(async (s) => {
    const g = globalThis as unknown as InPage;
    const href = g.document.querySelector(s)?.getAttribute('href');
    if (!href) throw new Error(`${s} has no href`);
    return (await g.fetch(href)).text();
  }, selector);
}
