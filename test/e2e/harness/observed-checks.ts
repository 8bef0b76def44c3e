import type { Browser, Page } from 'puppeteer-core';
import { makeTlsMaterial, type TlsMaterial } from '../../../bench/origins/tls-material';
import type { PageRecord } from '../../../src/page';
import { connectionCounts } from '../../../src/page/model/connection-count';
import { isFromHost, type Site } from '../site/site-server';
import { findTabId, waitForPage, WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';
import { openPopupForTab, waitForText } from './popup';
import { saveScreenshot } from './screenshot';
import { loadTestPage } from './site-load';
import type { TempDirs } from './temp-dirs';

/** A throwaway certificate for the h2 site (127.0.0.1), made with openssl in a temp dir. */
export function h2Certificate(dirs: TempDirs): TlsMaterial {
  return makeTlsMaterial(dirs.make('h2-tls'), ['127.0.0.1', 'localhost']);
}

/** What the site's servers saw of one page load: their log is the reference the popup must agree with. */
export interface ServerView {
  /** Connections that carried at least one of the page's requests (a preconnect left unused carried none). */
  connections: number;
  /** The browser's requests (the host's are left out). */
  requests: number;
  /** Bytes the servers wrote on those connections. */
  bytes: number;
}

export function serverView(site: Site, requestMark: number): ServerView {
  const mine = site.requests.slice(requestMark).filter((r) => !isFromHost(r));
  const keys = new Set(mine.map((r) => `${r.origin} ${r.remotePort}`));
  const bytes = site.connections.filter((c) => keys.has(`${c.origin} ${c.remotePort}`)).reduce((sum, c) => sum + c.bytesWritten(), 0);
  return { connections: keys.size, requests: mine.length, bytes };
}

/** The popup's figures, read from the `data-*` attributes beside the text. */
interface PopupView {
  connections: number;
  /** The fewest connections the browser's signals allow (equal to `connections` when they agree). */
  connectionsMin: number;
  requests: number;
  bytes: number;
  text: string;
}

async function popupView(popup: Page): Promise<PopupView> {
  return popup.evaluate(() => {
    const d = (globalThis as unknown as InPage).document;
    const c = d.querySelector('[data-testid=connections]');
    const b = d.querySelector('[data-testid=bytes]');
    return {
      connections: Number(c?.getAttribute('data-connections') ?? NaN),
      connectionsMin: Number(c?.getAttribute('data-connections-min') ?? NaN),
      requests: Number(c?.getAttribute('data-requests') ?? NaN),
      bytes: Number(b?.getAttribute('data-bytes') ?? NaN),
      text: `${c?.textContent ?? ''} | ${b?.textContent ?? ''}`,
    };
  });
}

/**
 * Loads `connections.html` from `site` (a site of its own, so every connection is new), waits
 * until the extension has the page's timing for every request the servers saw, opens the popup
 * and returns its figures beside the servers' log.
 */
export async function observeConnections(browser: Browser, query: Page, extensionOrigin: string, site: Site, label: string): Promise<{ server: ServerView; popup: PopupView; record: PageRecord }> {
  const mark = site.requests.length;
  const load = await loadTestPage(browser, site, 'connections.html');
  const server = serverView(site, mark);
  const tabId = await findTabId(query, load.url);
  const { page: record } = await waitForPage(query, tabId, (p) => p.navigation !== undefined && connectionCounts(p).requests + connectionCounts(p).notExposed >= server.requests, 'Resource Timing of every request the servers saw');
  const { page: popup } = await openPopupForTab(browser, extensionOrigin, tabId);
  try {
    await waitForText(popup, '[data-testid=connections]', (t) => /\d+ used/.test(t), 'the connection figures');
    const view = await popupView(popup);
    if (process.env.GETLIST_E2E_DEBUG) console.log(label, JSON.stringify({ server, view }));
    return { server, popup: view, record: record as PageRecord };
  } finally {
    await saveScreenshot(popup, `${label}-popup-connections`).catch(() => undefined);
    await popup.close().catch(() => undefined);
    await load.tab.close().catch(() => undefined);
  }
}

/** The assertions both browsers share: agreement with the servers, not presence. */
export function expectAgreement(server: ServerView, popup: PopupView): void {
  expect(popup.requests).toBe(server.requests);
  // The connections the servers saw carry requests lie in the range the popup shows. The range is
  // one figure where the browser's signals agree (the Chromium suite asserts that); its width in
  // Firefox is what Firefox's 1 ms clock leaves ambiguous (seen from 1 to 4 wide on this page).
  expect(popup.connectionsMin).toBeLessThanOrEqual(server.connections);
  expect(popup.connections).toBeGreaterThanOrEqual(server.connections);
  expect(Math.abs(popup.bytes - server.bytes) / server.bytes).toBeLessThanOrEqual(0.01);
}

/**
 * Every discovery the browser fetched: discovered ≤ started ≤ ended on the page's own clock
 * (Resource Timing), and for the rest (no timing entry) not after webRequest's start.
 */
export function discoveryOrderViolations(record: PageRecord): string[] {
  const out: string[] = [];
  for (const d of record.discoveries) {
    const t = record.timings.find((e) => e.name === d.url);
    if (t) {
      if (!(d.atMs <= t.startTime && t.startTime <= t.responseEnd)) out.push(`${d.url}: discovered ${d.atMs}, started ${t.startTime}, ended ${t.responseEnd}`);
      continue;
    }
    const r = record.requests.find((q) => (q.redirectedFrom?.[0] ?? q.url) === d.url);
    if (r && d.atMs > r.startedAt - record.startedAt) out.push(`${d.url}: discovered ${d.atMs}, webRequest start ${r.startedAt - record.startedAt}`);
  }
  return out;
}

/** Waits until the popup for `url`'s tab shows the document's status, and returns its text. */
export async function documentShown(browser: Browser, query: Page, extensionOrigin: string, url: string, label: string): Promise<{ text: string; status: string | null; bytes: string }> {
  const tab = await browser.newPage();
  await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
  const tabId = await findTabId(query, url);
  await waitForPage(query, tabId, (p) => p.loadAt !== undefined, 'the load event');
  const { page: popup } = await openPopupForTab(browser, extensionOrigin, tabId);
  try {
    const text = await waitForText(popup, '[data-testid=document]', (t) => /\d{3}/.test(t), 'the document status');
    const bytes = await waitForText(popup, '[data-testid=bytes]', (t) => !t.includes('not reported yet'), 'bytes reported');
    const status = await popup.evaluate(() => (globalThis as unknown as InPage).document.querySelector('[data-testid=document]')?.getAttribute('data-status') ?? null);
    return { text, status, bytes };
  } finally {
    await saveScreenshot(popup, `${label}-popup-document`).catch(() => undefined);
    await popup.close().catch(() => undefined);
    await tab.close().catch(() => undefined);
  }
}
