import type { Browser, Page } from 'puppeteer-core';
import type { PageRecord } from '../../../src/page';
import { isFromHost, type Site, type SiteConnection, type SiteRequest } from '../site/site-server';
import { WAIT_MS } from './extension-pages';

export interface LoadedPage {
  tab: Page;
  url: string;
  /** Distinct URLs the browser (not the host) fetched from either server for this load. */
  served: string[];
  /** The servers' log entries of this load, browser's and host's (`site.requests` from the load's start until it went quiet). */
  log: SiteRequest[];
}

/**
 * Loads one test page in a new tab and returns what reached the servers for it. Loads must not
 * overlap: the page's share of the log is everything from the start of the load until the
 * servers have been quiet for 500 ms (which covers the script-inserted image and late CSS).
 */
export async function loadTestPage(browser: Browser, site: Site, page: string): Promise<LoadedPage> {
  const url = site.url(page);
  const mark = site.requests.length;
  const tab = await browser.newPage();
  await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
  await quiet(() => site.requests.length, 500);
  const log = site.requests.slice(mark);
  const served = [...new Set(log.filter((r) => !isFromHost(r)).map((r) => r.url))];
  return { tab, url, served, log };
}

/** Resolves once `count()` (a server's log length) has not changed for `ms`, or after WAIT_MS. */
export async function quiet(count: () => number, ms: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  let seen = count();
  let since = Date.now();
  while (Date.now() - since < ms && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    if (count() !== seen) {
      seen = count();
      since = Date.now();
    }
  }
}

/** URLs in `served` that the PageRecord's requests lack. */
export function missingRequests(record: PageRecord, served: readonly string[]): string[] {
  const seen = new Set(record.requests.map((r) => r.url));
  return served.filter((u) => !seen.has(u));
}

/** Origins the host has measured for the page: handshakes made now, or warm connections reused. */
export function measuredOrigins(record: PageRecord): string[] {
  const m = record.measured;
  return m ? [...new Set([...m.handshakes.map((h) => h.origin), ...m.warm])].sort() : [];
}

/**
 * Handshakes the host reported that no server accepted a connection for (matched by the host's
 * local port = the server's remote port, on the same origin). Empty when the host told the truth.
 */
export function unmatchedHandshakes(record: PageRecord, connections: readonly SiteConnection[]): string[] {
  return (record.measured?.handshakes ?? [])
    .filter((h) => !connections.some((c) => c.origin === h.origin && c.remotePort === h.localPort))
    .map((h) => `${h.origin} localPort ${String(h.localPort)}`);
}
