import type { Page } from 'puppeteer-core';
import type { PageRecord } from '../../../src/page';
import { isFromHost, type Site } from '../site/site-server';
import { WAIT_MS } from './extension-pages';
import { countOf, fetchLinkText, firstInteger, waitForText } from './popup';

/**
 * The popup assertions both browsers share, for a page the servers served `served` for:
 * its numbers, the waterfall, a replay (checked on the wire: every strategy fetched every URL
 * the browser fetched) and the HAR export.
 */
export async function checkPopup(popup: Page, site: Site, page: { url: string; served: readonly string[] }, record: PageRecord): Promise<void> {
  await waitForText(popup, '[data-testid=page-url]', (t) => t.includes(page.url), `the page URL ${page.url}`);
  await waitForText(popup, '[data-testid=request-count]', (t) => firstInteger(t) === record.requests.length, `the request count ${record.requests.length}`);
  await waitForText(popup, '[data-testid=ttfb]', (t) => /\d/.test(t), 'a TTFB number');
  await popup.waitForSelector('[data-testid=waterfall] svg rect.bar', { timeout: WAIT_MS });
  expect(await countOf(popup, '[data-testid=waterfall] svg rect.bar')).toBeGreaterThanOrEqual(record.requests.length);

  const strategies = ['browser', 'getlist'];
  const hostFetchesBefore = site.requests.filter(isFromHost).length;
  await popup.click('[data-testid=replay-button]');
  for (const strategy of strategies) {
    await popup.waitForSelector(`[data-testid=replay-table] tr[data-strategy="${strategy}"]`, { timeout: WAIT_MS });
  }
  const replayed = site.requests.filter(isFromHost).slice(hostFetchesBefore);
  const fetches = page.served.map((url) => ({ url, fetches: replayed.filter((r) => r.url === url).length }));
  expect(fetches).toEqual(page.served.map((url) => ({ url, fetches: strategies.length })));

  await popup.click('[data-testid=export-har]');
  const har = JSON.parse(await fetchLinkText(popup, '[data-testid=har-link]')) as { log: { version: string; entries: { request: { url: string } }[] } };
  expect(har.log.version).toBe('1.2');
  const harUrls = new Set(har.log.entries.map((e) => e.request.url));
  expect(record.requests.map((r) => r.url).filter((u) => !harUrls.has(u))).toEqual([]);
}
