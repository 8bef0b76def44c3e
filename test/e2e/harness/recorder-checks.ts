import type { Browser, Page } from 'puppeteer-core';
import type { PageRecord } from '../../../src/page';
import type { Site } from '../site/site-server';
import { findTabId, waitForPage, WAIT_MS } from './extension-pages';
import { loadTestPage, type LoadedPage } from './site-load';

/** The browser's default Resource Timing buffer (the spec's, Chromium's and Firefox's). */
export const RESOURCE_TIMING_BUFFER = 250;
/** `pages/buffer-full.html`: this many images, more than the buffer holds. */
export const BUFFER_PAGE_IMAGES = 300;

/** The ids of the content scripts the extension has registered (`scripting.getRegisteredContentScripts`), read from one of its pages. */
export async function registeredScripts(extensionPage: Page): Promise<Array<{ id: string; js: string[]; runAt: string | undefined; matches: string[] }>> {
  return extensionPage.evaluate(async () => {
    type Script = { id: string; js?: string[]; runAt?: string; matches?: string[] };
    const g = globalThis as unknown as { browser?: { scripting: { getRegisteredContentScripts(): Promise<Script[]> } }; chrome?: { scripting: { getRegisteredContentScripts(): Promise<Script[]> } } };
    const all = (await (g.browser ?? g.chrome)?.scripting.getRegisteredContentScripts()) ?? [];
    return all.map((s) => ({ id: s.id, js: s.js ?? [], runAt: s.runAt, matches: s.matches ?? [] }));
  });
}

/**
 * Waits until the background has (or has not) registered its document_start recorder: it syncs
 * the registration when it starts (extension/background/early-recorder.ts), which may be after the
 * first extension page opened.
 */
export async function waitForRecorder(extensionPage: Page, registered: boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const ids = (await registeredScripts(extensionPage)).map((s) => s.id);
    if (ids.includes('getlist-early-records') === registered) return;
    if (Date.now() > deadline) throw new Error(`the early recorder is ${registered ? 'not ' : ''}registered after ${WAIT_MS} ms; registered: ${JSON.stringify(ids)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Loads `buffer-full.html` (300 images) and returns the servers' log of it and the record once
 * the page's timings have arrived: at least the buffer's worth, and, when `all`, one per image the
 * servers served.
 */
export async function loadBufferPage(browser: Browser, query: Page, site: Site, all: boolean): Promise<{ load: LoadedPage; record: PageRecord; images: string[] }> {
  const load = await loadTestPage(browser, site, 'buffer-full.html');
  const images = load.served.filter((u) => /\/img\/full-\d+\.png$/.test(u));
  const tabId = await findTabId(query, load.url);
  const want = all ? images.length : RESOURCE_TIMING_BUFFER;
  const { page } = await waitForPage(query, tabId, (p) => p.url === load.url && p.navigation !== undefined && imageTimings(p).length >= want, `${want} image timings`);
  return { load, record: page as PageRecord, images };
}

/** The record's timing entries of buffer-full.html's images, by URL, once each. */
export function imageTimings(record: PageRecord): string[] {
  return [...new Set(record.timings.map((t) => t.name).filter((u) => /\/img\/full-\d+\.png$/.test(u)))];
}

/**
 * Detailed capture: the background has registered `content-start.js` at document_start, and on
 * buffer-full.html the record holds one entry per image the servers served (300, where the page's
 * own buffer keeps 250) and claims no full buffer.
 */
export async function expectRecorderKeepsEveryEntry(browser: Browser, query: Page, site: Site): Promise<void> {
  await waitForRecorder(query, true);
  expect((await registeredScripts(query)).map((s) => ({ id: s.id, js: s.js, runAt: s.runAt }))).toEqual([{ id: 'getlist-early-records', js: ['content-start.js'], runAt: 'document_start' }]);
  const { record, images, load } = await loadBufferPage(browser, query, site, true);
  expect(images.length).toBe(BUFFER_PAGE_IMAGES);
  expect(imageTimings(record).sort()).toEqual([...images].sort());
  expect(record.timingsBufferFull).toBeUndefined();
  await load.tab.close();
}
