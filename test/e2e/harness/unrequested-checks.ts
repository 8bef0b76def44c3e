import type { Browser, Page } from 'puppeteer-core';
import { isFromHost, type Site } from '../site/site-server';
import { findTabId, waitForPage } from './extension-pages';
import { openPopupForTab, waitForText } from './popup';
import { loadTestPage } from './site-load';

/**
 * unrequested.html: the popup's "discovered but never requested" list is exactly the discovered
 * URLs the servers never received from the browser (the independent observer), and it names the
 * lazy image below the fold the page was built to leave unfetched.
 */
export async function checkUnrequested(browser: Browser, extensionOrigin: string, query: Page, site: Site): Promise<void> {
  const mark = site.requests.length;
  const load = await loadTestPage(browser, site, 'unrequested.html');
  const lazy = site.url('img/unreq-lazy.png');
  const tabId = await findTabId(query, load.url);
  const { page: record } = await waitForPage(query, tabId, (p) => p.url === load.url && p.discoveries.some((d) => d.url === lazy), 'the lazy image among the discoveries');
  if (!record) throw new Error('no PageRecord');
  const { page: popup } = await openPopupForTab(browser, extensionOrigin, tabId);
  await waitForText(popup, '[data-testid=unrequested-summary]', (t) => /^\d+ discovered but never requested/.test(t), 'the unrequested summary');
  const listed = await popup.$$eval('[data-testid=unrequested] li[data-url]', (els) => els.map((e) => e.getAttribute('data-url') ?? ''));
  const received = new Set(site.requests.slice(mark).filter((r) => !isFromHost(r)).map((r) => r.url));
  const discovered = [...new Set(record.discoveries.map((d) => d.url))].filter((u) => u !== load.url);
  expect(listed).toContain(lazy);
  expect(received.has(site.url('img/unreq-top.png'))).toBe(true);
  expect(listed.filter((u) => received.has(u))).toEqual([]);
  expect([...listed].sort()).toEqual(discovered.filter((u) => !received.has(u)).sort());
  const summary = await popup.$eval('[data-testid=unrequested-summary]', (e) => e.textContent ?? '');
  expect(summary.startsWith(`${listed.length} discovered`)).toBe(true);
  await popup.close();
  await load.tab.close();
}
