import type { Browser, Page } from 'puppeteer-core';
import type { UiResponse } from '../../../src/page/messages/messages';
import type { PageRecord } from '../../../src/page';
import type { InPage } from './in-page';

/** How long the e2e helpers wait for anything the browser or extension does. */
export const WAIT_MS = 15_000;

/**
 * Opens `url` (an extension page) in a new tab and waits until its document has loaded.
 *
 * Firefox: BiDi refuses moz-extension:// navigations unless the browser runs with
 * MOZ_REMOTE_ALLOW_SYSTEM_ACCESS (launchFirefox sets it), and even then puppeteer never sees the
 * navigation finish (the tab moves to the extension process), so this polls the document instead
 * of trusting `goto`.
 */
export async function openExtensionPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e instanceof Error ? e.message : String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  const navigation = page.goto(url, { waitUntil: 'load', timeout: WAIT_MS }).catch((e: Error) => e);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const state = await page.evaluate(() => {
      const { location, document } = globalThis as unknown as InPage;
      return [location.href, document.readyState] as const;
    }).catch(() => undefined);
    if (state?.[0] === url && state[1] === 'complete') break;
    if (Date.now() > deadline) throw new Error(`extension page ${url} did not load within ${WAIT_MS} ms (at ${state?.[0] ?? '?'}; goto: ${String(await Promise.race([navigation, 'pending']))})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { page, errors };
}

/** Sends a UI-channel message from an extension page, as the popup does. */
export async function sendUi(extensionPage: Page, message: Record<string, unknown>): Promise<UiResponse> {
  // Serialised to JSON in the page: WebDriver BiDi (Firefox) returns an object the reply holds twice
  // — a hints view's verdict `hint` is its applied list's own object — as a bare reference that
  // puppeteer leaves out, so the second occurrence would read as missing.
  const json = await extensionPage.evaluate(async (msg) => {
    const g = globalThis as unknown as InPage;
    const reply = await (g.browser ?? g.chrome)?.runtime.sendMessage({ channel: 'ui', ...msg });
    return reply === undefined ? null : JSON.stringify(reply);
  }, message);
  return (json === null ? undefined : JSON.parse(json)) as UiResponse;
}

export type GetPageResponse = Extract<UiResponse, { type: 'get-page' }>;

/** The background's `get-page` answer for a tab; throws on any other reply (with the reply). */
export async function getPage(extensionPage: Page, tabId: number): Promise<GetPageResponse> {
  const reply = await sendUi(extensionPage, { type: 'get-page', tabId });
  if (reply?.type !== 'get-page') throw new Error(`get-page for tab ${tabId} answered ${JSON.stringify(reply)}`);
  return reply;
}

/**
 * Polls `get-page` until `done(record)` holds; on timeout throws with the last record's summary,
 * so a failure says what was missing rather than just "timeout".
 */
export async function waitForPage(extensionPage: Page, tabId: number, done: (p: PageRecord) => boolean, what: string): Promise<GetPageResponse> {
  const deadline = Date.now() + WAIT_MS;
  let last: GetPageResponse | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await getPage(extensionPage, tabId);
      if (last.page && done(last.page)) return last;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const p = last?.page;
      const summary = p ? recordSummary(p, last?.hostStatus) : (last ?? String(lastError));
      throw new Error(`waited ${WAIT_MS} ms for ${what} on tab ${tabId}; last get-page: ${JSON.stringify(summary)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What a failed wait prints: the milestones seen, each request's state and the host's answers. */
function recordSummary(p: PageRecord, hostStatus: unknown): object {
  const at = (t: number | undefined) => (t === undefined ? undefined : Math.round(t - p.startedAt));
  return {
    url: p.url,
    capture: p.capture,
    // Milestones in ms after the record started; a missing one is the event that never arrived.
    committed: at(p.committedAt),
    domContentLoaded: at(p.domContentLoadedAt),
    load: at(p.loadAt),
    navigationLoadEventEnd: p.navigation?.loadEventEnd,
    requests: p.requests.map((r) => `${r.type} ${r.url} ${r.statusCode ?? '-'} ${at(r.startedAt) ?? '-'}→${at(r.endedAt) ?? '-'}${r.error ? ` ${r.error}` : ''}`),
    timings: p.timings.length,
    discoveries: p.discoveries.length,
    measured: p.measured ? { failed: p.measured.failed, handshakes: p.measured.handshakes.length, warm: p.measured.warm } : undefined,
    hostError: p.hostError,
    hostStatus,
  };
}

/** The id the extension APIs give the tab showing `url` (queried from an extension page). */
export async function findTabId(extensionPage: Page, url: string): Promise<number> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const tabs = await extensionPage.evaluate(async () => {
      const g = globalThis as unknown as InPage;
      const all = (await (g.browser ?? g.chrome)?.tabs.query({})) ?? [];
      return all.map((t) => ({ id: t.id ?? -1, url: t.url ?? '' }));
    });
    const tab = tabs.find((t) => t.url === url);
    if (tab) return tab.id;
    if (Date.now() > deadline) throw new Error(`no tab shows ${url}; tabs: ${JSON.stringify(tabs)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
