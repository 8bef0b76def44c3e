import type { Browser, Page } from 'puppeteer-core';
import { makeTlsMaterial, type TlsMaterial } from '../../../bench/origins/tls-material';
import { buildHar, type HarEntry, type PageRecord, type RedirectHop } from '../../../src/page';
import { connectionCounts, documentFetch, showsConnect } from '../../../src/page/model/connection-count';
import { firstUrl } from '../../../src/page/model/redirect-hops';
import { isFromHost, startSite, type Site, type SiteRequest } from '../site/site-server';
import { findTabId, getPage, waitForPage, WAIT_MS } from './extension-pages';
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
  /** The URL of each such connection's first request: the entry that can show the connection's connect phase. */
  firsts: string[];
}

export function serverView(site: Site, requestMark: number): ServerView {
  const mine = site.requests.slice(requestMark).filter((r) => !isFromHost(r));
  const firstOn = new Map<string, string>();
  for (const r of mine) if (!firstOn.has(`${r.origin} ${r.remotePort}`)) firstOn.set(`${r.origin} ${r.remotePort}`, r.url);
  const bytes = site.connections.filter((c) => firstOn.has(`${c.origin} ${c.remotePort}`)).reduce((sum, c) => sum + c.bytesWritten(), 0);
  return { connections: firstOn.size, requests: mine.length, bytes, firsts: [...firstOn.values()] };
}

/**
 * The servers' connections whose first request's entry shows a connect phase (`showsConnect`): what
 * the popup's "opened" must count in Firefox, which shows the phase on a connection it opened for a
 * waiting request. A connection Firefox opened ahead of any request — the backup connection it
 * starts when a SYN stays unanswered for `network.http.connection-retry-timeout` (250 ms, reached on
 * a loaded machine) — reaches its first request without one, like a reused connection.
 */
export function connectsShown(server: Pick<ServerView, 'firsts'>, record: PageRecord): number {
  const doc = documentFetch(record);
  return server.firsts.filter((url) => {
    const entry = url === record.url ? doc : record.timings.find((t) => t.name === url && !t.restricted);
    return entry !== undefined && showsConnect(entry);
  }).length;
}

/** The popup's figures, read from the `data-*` attributes beside the text. */
export interface PopupView {
  connections: number;
  /** The fewest connections the browser's signals allow (equal to `connections` when they agree). */
  connectionsMin: number;
  requests: number;
  bytes: number;
  /** `lower` where the figure is HTTP/1.x requests in flight at once (shown `≥ N`), `not-exposed` where there is none, else `exact`. */
  bound: string;
  /** The lower bound on connections used (NaN when not exposed). */
  usedAtLeast: number;
  /** Connections shown opening (a visible connect phase). */
  opened: number;
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
      bound: c?.getAttribute('data-bound') ?? '',
      usedAtLeast: Number(c?.getAttribute('data-used-at-least') ?? NaN),
      opened: Number(c?.getAttribute('data-opened') ?? NaN),
      text: `${c?.textContent ?? ''} | ${b?.textContent ?? ''}`,
    };
  });
}

/**
 * Loads `connections.html` from `site` (a site of its own, so every connection is new), waits
 * until the extension has the page's timing for every request the servers saw, opens the popup
 * and returns its figures beside the servers' log.
 */
export async function observeConnections(browser: Browser, query: Page, extensionOrigin: string, site: Site, label: string, pageName = 'connections.html'): Promise<{ server: ServerView; popup: PopupView; record: PageRecord }> {
  const mark = site.requests.length;
  const load = await loadTestPage(browser, site, pageName);
  const server = serverView(site, mark);
  const { popup, record } = await popupAfterLoad(browser, query, extensionOrigin, load, server, label);
  return { server, popup, record };
}

/**
 * The popup's figures for a page loaded in `load.tab`, once the extension has the page's timing
 * for every request the servers saw (`server.requests`); closes the popup and the tab.
 */
export async function popupAfterLoad(browser: Browser, query: Page, extensionOrigin: string, load: { url: string; tab: Page }, server: Pick<ServerView, 'requests'>, label: string): Promise<{ popup: PopupView; record: PageRecord; shownFrom: PageRecord | undefined }> {
  const tabId = await findTabId(query, load.url);
  const { page: record } = await waitForPage(query, tabId, (p) => p.navigation !== undefined && connectionCounts(p).requests + connectionCounts(p).notExposed >= server.requests, 'Resource Timing of every request the servers saw');
  const { page: popup } = await openPopupForTab(browser, extensionOrigin, tabId);
  try {
    await waitForText(popup, '[data-testid=connections]', (t) => /\d+ used/.test(t), 'the connection figures');
    const view = await popupView(popup);
    if (process.env.GETLIST_E2E_DEBUG) console.log(label, JSON.stringify({ server, view }));
    // The record as the background holds it once the popup has shown its figures: a test whose
    // figures disagree with `record` can print what changed in between.
    const shownFrom = (await getPage(query, tabId).catch(() => undefined))?.page ?? undefined;
    return { popup: view, record: record as PageRecord, shownFrom };
  } finally {
    await saveScreenshot(popup, `${label}-popup-connections`).catch(() => undefined);
    await popup.close().catch(() => undefined);
    await load.tab.close().catch(() => undefined);
  }
}

/**
 * A page whose requests queue (more than the connections a browser opens to one origin): the
 * popup's lower bound on connections used never exceeds what the servers saw carry requests, nor
 * the connections the HAR names; where the browser shows the connect of every connection it opened
 * for a waiting request (`everyConnect`: Firefox), "opened" counts exactly the servers' connections
 * whose first request shows one (`connectsShown`). Returns the HAR's connection ids for the page's origin.
 */
export function expectQueuedAgreement(server: ServerView, popup: PopupView, record: PageRecord, everyConnect: boolean): string[] {
  expect(popup.requests).toBe(server.requests);
  expect(popup.bound).not.toBe('not-exposed');
  expect(popup.usedAtLeast).toBeGreaterThanOrEqual(1);
  expect(popup.usedAtLeast).toBeLessThanOrEqual(server.connections);
  expect(popup.connectionsMin).toBeLessThanOrEqual(server.connections);
  // The text shows the bound it says, never a larger figure.
  expect(popup.text).toMatch(popup.bound === 'lower' ? new RegExp(`^≥ ${popup.connectionsMin} used`) : /^\d+(–\d+)? used/);
  if (everyConnect) expect(popup.opened).toBe(connectsShown(server, record));
  else expect(popup.opened).toBeLessThanOrEqual(server.connections);
  const ids = [...new Set(buildHar(record).log.entries.map((e) => e.connection).filter((id): id is string => id !== undefined))];
  expect(ids.length).toBeLessThanOrEqual(server.connections);
  return ids;
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
  // A count from requests in flight at once is shown as what it is, a lower bound, with its source.
  expect(['lower', 'exact']).toContain(popup.bound);
  expect(popup.text.startsWith(`≥ ${popup.connectionsMin} used (requests in flight at once)`)).toBe(popup.bound === 'lower');
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
    const r = record.requests.find((q) => firstUrl(q) === d.url);
    if (r && d.atMs > r.startedAt - record.startedAt) out.push(`${d.url}: discovered ${d.atMs}, webRequest start ${r.startedAt - record.startedAt}`);
  }
  return out;
}

/** Waits until the popup for `url`'s tab shows the document's status, and returns its text. */
export interface DocumentShown {
  text: string;
  status: string | null;
  bytes: string;
  /** The page's record when the popup was read. */
  record: PageRecord;
}

/** `ready`: what the record must hold before the popup is read. @default the load event */
export async function documentShown(browser: Browser, query: Page, extensionOrigin: string, url: string, label: string, ready: (p: PageRecord) => boolean = (p) => p.loadAt !== undefined): Promise<DocumentShown> {
  const tab = await browser.newPage();
  await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
  // The tab shows where the load ended: the target of any redirect.
  const tabId = await findTabId(query, tab.url());
  await waitForPage(query, tabId, ready, 'the load event');
  const { page: popup } = await openPopupForTab(browser, extensionOrigin, tabId);
  try {
    const text = await waitForText(popup, '[data-testid=document]', (t) => /\d{3}/.test(t), 'the document status');
    const bytes = await waitForText(popup, '[data-testid=bytes]', (t) => !t.includes('not reported yet'), 'bytes reported');
    const status = await popup.evaluate(() => (globalThis as unknown as InPage).document.querySelector('[data-testid=document]')?.getAttribute('data-status') ?? null);
    const { page: record } = await waitForPage(query, tabId, () => true, 'the record');
    if (!record) throw new Error(`no record for ${url}`);
    return { text, status, bytes, record };
  } finally {
    await saveScreenshot(popup, `${label}-popup-document`).catch(() => undefined);
    await popup.close().catch(() => undefined);
    await tab.close().catch(() => undefined);
  }
}

/**
 * A document the server redirected once (`site-server` `?redirect=3xx`): the record's one hop agrees
 * with the server's log (URL, status, the Location it sent, the target it then served), the popup's
 * status line shows the chain, and the HAR built from the record has the hop as an entry of its
 * own followed by its target. Returns the hop and the server's log of the redirect response.
 */
export function expectRedirectAgreement(site: Site, shown: DocumentShown, from: string, status: number): { hop: RedirectHop; served: SiteRequest } {
  const fromHost = (u: string) => site.requests.filter((r) => r.url === u && !isFromHost(r));
  const served = fromHost(from);
  expect(served).toHaveLength(1);
  const to = new URL(from);
  to.searchParams.delete('redirect');
  expect(fromHost(to.href)).toHaveLength(1);
  const doc = shown.record.requests.find((r) => r.type === 'main_frame' && r.frameId === 0);
  expect(doc?.url).toBe(to.href);
  expect(doc?.redirects?.map((h) => ({ url: h.url, statusCode: h.statusCode, redirectURL: h.redirectURL }))).toEqual([{ url: from, statusCode: status, redirectURL: to.href }]);
  const hop = doc?.redirects?.[0] as RedirectHop;
  expect(hop.responseHeaders?.find((h) => h.name.toLowerCase() === 'location')?.value).toBe(to.pathname + to.search);
  expect(hop.startedAt).toBe(doc?.startedAt);
  expect(hop.endedAt).toBeGreaterThanOrEqual(hop.startedAt);
  expect(hop.endedAt).toBeLessThanOrEqual(doc?.endedAt ?? Infinity);
  expect(shown.text).toMatch(new RegExp(`^${status} → 200 · `));
  const entries = buildHar(shown.record).log.entries;
  const at = entries.findIndex((e) => e.request.url === from);
  expect(entries[at]?.response).toMatchObject({ status, redirectURL: to.href });
  expect(entries[at + 1]?.request.url).toBe(to.href);
  // The target's entry starts where the hop's ended (DevTools' layout), not at the request's start.
  const [hopEntry, target] = [entries[at] as HarEntry, entries[at + 1] as HarEntry];
  expect(Math.abs(Date.parse(target.startedDateTime) - hop.endedAt)).toBeLessThan(1);
  expect(Date.parse(target.startedDateTime) - Date.parse(hopEntry.startedDateTime)).toBeGreaterThanOrEqual(Math.floor(hopEntry.time));
  return { hop, served: served[0] as SiteRequest };
}

/** The late-css page: its parser-, CSS- and script-found images have discovered ≤ started ≤ ended. */
export async function expectDiscoveryOrder(query: Page, site: Site, late: { tabId: number } | undefined): Promise<void> {
  if (!late) throw new Error('late-css.html was not loaded');
  const wanted = ['late-parser.png', 'css-background.png', 'script-inserted.png'].map((f) => `${site.main}/img/${f}`);
  const { page: record } = await waitForPage(query, late.tabId, (p) => wanted.every((u) => p.discoveries.some((d) => d.url === u) && p.timings.some((t) => t.name === u)), 'discoveries and timings of the three images');
  expect(record?.discoveries.length).toBeGreaterThanOrEqual(3);
  expect(discoveryOrderViolations(record as PageRecord)).toEqual([]);
}

/** A 404 and a style sheet opened as the document: each gets its status, content type and bytes. */
export async function expectCompleteDocuments(browser: Browser, query: Page, extensionOrigin: string, site: Site, label: string): Promise<void> {
  const missing = await documentShown(browser, query, extensionOrigin, site.url('missing.html'), `${label}-404`);
  expect({ status: missing.status, text: missing.text }).toEqual({ status: '404', text: expect.stringContaining('text/plain') });
  const css = await documentShown(browser, query, extensionOrigin, site.url('late.css'), `${label}-css`);
  expect({ status: css.status, text: css.text }).toEqual({ status: '200', text: expect.stringContaining('text/css') });
  expect(css.bytes).not.toContain('not reported yet');
}

/**
 * queued.html on a site of its own (so every connection the servers log is this load's), over
 * `protocol`, checked against the servers' log with `expectQueuedAgreement`: 18 images held back
 * 150 ms, so most wait in the browser's queue for one of its connections.
 */
export async function observeQueuedPage(
  browser: Browser, query: Page, extensionOrigin: string, tls: { certPath: string; keyPath: string },
  protocol: 'http/1.1' | 'h2', capture: PageRecord['capture'], label: string, everyConnect: boolean,
): Promise<{ server: ServerView; popup: PopupView; record: PageRecord; accepted: number }> {
  const site = await startSite(protocol === 'h2' ? { h2: tls } : {});
  try {
    const observed = await observeConnections(browser, query, extensionOrigin, site, `${label}-${protocol.replace('/', '')}`, 'queued.html');
    expect(observed.record.capture).toBe(capture);
    expect(observed.record.navigation?.nextHopProtocol).toBe(protocol);
    expect(observed.server.requests).toBe(19);
    expectQueuedAgreement(observed.server, observed.popup, observed.record, everyConnect);
    return { ...observed, accepted: site.connections.length };
  } finally {
    await site.close();
  }
}
