import type { Browser, Page } from 'puppeteer-core';
import type { PageRecord } from '../../../src/page';
import { startBadPortListener } from '../../support/counting-listener';
import type { Site } from '../site/site-server';
import { findTabId, waitForPage } from './extension-pages';
import { loadTestPage, measuredOrigins } from './site-load';

/**
 * hostile-ports.html names a bad port (a preconnect, a TLS stylesheet, an image). The browser
 * refuses it; the host the extension hands the page to must refuse it too, each origin with
 * E_UNSAFE_PORT, and a counting listener on that port is the judge that nothing connected.
 * `handed`: whether the browser shows the extension the refused requests (Chromium does). Firefox
 * does not, but the content script's DOM discovery may still name the origins before the measure
 * (`'if-named'`): then the host must refuse each of them all the same.
 */
export async function expectBadPortRefused(browser: Browser, query: Page, site: Site, handed: boolean | 'if-named'): Promise<void> {
  const bad = await startBadPortListener();
  try {
    const load = await loadTestPage(browser, site, `hostile-ports.html?bad-port=${bad.port}`);
    const tabId = await findTabId(query, load.url);
    const { page: record } = await waitForPage(query, tabId, (p) => p.url === load.url && (p.measured !== undefined || p.hostError !== undefined), "the host's measured reply");
    expect(record?.hostError).toBeUndefined();
    // Where the host was asked for the bad origins (so this path ran), it refused each before connecting.
    const refused = record?.measured?.failed.filter((f) => f.origin.endsWith(`:${bad.port}`)).map((f) => f.code) ?? [];
    const named = handed === 'if-named' ? refused.length > 0 : handed;
    expect(refused).toEqual(named ? ['E_UNSAFE_PORT', 'E_UNSAFE_PORT'] : []);
    expect(measuredOrigins(record as PageRecord)).toEqual([site.main]);
    // The host's measure runs about a second after the load: give a late connection time to show.
    await new Promise((r) => setTimeout(r, 1500));
    expect(bad.accepts()).toBe(0);
  } finally {
    await bad.close();
  }
}
