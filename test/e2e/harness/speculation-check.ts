import type { Browser, Page } from 'puppeteer-core';
import type { SpeculationView } from '../../../src/page/speculation/speculation-types';
import { sendUi, WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';

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
 * `waitForNavigation`: puppeteer never sees a navigation served from a prefetch finish.
 */
export async function clickAndWait(tab: Page, selector: string, url: string): Promise<void> {
  await tab.click(selector);
  await tab.waitForFunction((u) => {
    const g = globalThis as unknown as InPage;
    return g.location.href === u && g.document.readyState === 'complete';
  }, { timeout: WAIT_MS, polling: 50 }, url);
}

/** What the browser itself says of the tab's document: its Navigation Timing, read in the page's main world. */
export async function servedInPage(tab: Page): Promise<{ deliveryType: string; activationStart: number; responseStartMs: number }> {
  return tab.evaluate(() => {
    const nav = (globalThis as unknown as InPage).performance.getEntriesByType('navigation')[0] as { responseStart: number; deliveryType?: string; activationStart?: number };
    const activationStart = nav.activationStart ?? 0;
    return { deliveryType: nav.deliveryType ?? '', activationStart, responseStartMs: Math.max(0, nav.responseStart - activationStart) };
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
