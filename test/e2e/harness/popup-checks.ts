import type { Page } from 'puppeteer-core';
import * as harValidator from 'har-validator';
import type { Har, PageRecord } from '../../../src/page';
import { isFromHost, type Site } from '../site/site-server';
import { WAIT_MS } from './extension-pages';
import type { LoadedPage } from './site-load';
import { fetchLinkText, firstInteger, waitForText } from './popup';
import { collectItems, collectWaterfallRows, orderContradictions, replayConnectionsLogged, rowUrlsMatch } from './waterfall-checks';

/**
 * The popup assertions both browsers share, for a page the servers served `served` for:
 * its numbers, the waterfall, a replay (checked on the wire: every strategy fetched every URL
 * the browser fetched) and the HAR export.
 */
export async function checkPopup(popup: Page, site: Site, page: Pick<LoadedPage, 'url' | 'served' | 'log'>, record: PageRecord): Promise<void> {
  await waitForText(popup, '[data-testid=page-url]', (t) => t.includes(page.url), `the page URL ${page.url}`);
  await waitForText(popup, '[data-testid=request-count]', (t) => firstInteger(t) === record.requests.length, `the request count ${record.requests.length}`);
  await waitForText(popup, '[data-testid=ttfb]', (t) => /\d/.test(t), 'a TTFB number');
  // The waterfall: one row per request the record holds (every URL the servers saw is among them,
  // checked by the suites), in an order the servers' arrival log of this load does not contradict
  // (a later page may fetch the same URL again).
  const { rows } = await collectWaterfallRows(popup);
  expect(rows.length).toBeGreaterThanOrEqual(record.requests.length);
  const urls = rowUrlsMatch(rows, record);
  expect(urls.drawn).toEqual(urls.recorded);
  expect(page.served.filter((u) => !urls.drawn.includes(u))).toEqual([]);
  expect(orderContradictions(rows, page.log)).toEqual([]);
  for (const r of rows) if (r.end !== null) expect(r.end).toBeGreaterThanOrEqual(r.start);

  const strategies = ['browser', 'getlist'];
  const hostFetchesBefore = site.requests.filter(isFromHost).length;
  const logMark = site.requests.length;
  await popup.click('[data-testid=replay-button]');
  for (const strategy of strategies) {
    await popup.waitForSelector(`[data-testid=replay-table] tr[data-strategy="${strategy}"]`, { timeout: WAIT_MS });
  }
  const fromHost = site.requests.filter(isFromHost).slice(hostFetchesBefore);
  // getlist's framing probe (src/scheduler/order-probe.ts) may add a HEAD per origin: no fetch of
  // the page, and no row of the waterfall; each is of a URL it then fetched.
  const probes = fromHost.filter((r) => r.method === 'HEAD');
  const replayed = fromHost.filter((r) => r.method !== 'HEAD');
  expect(probes.filter((p) => !page.served.includes(p.url))).toEqual([]);
  const fetches = page.served.map((url) => ({ url, fetches: replayed.filter((r) => r.url === url).length }));
  expect(fetches).toEqual(page.served.map((url) => ({ url, fetches: strategies.length })));

  // The connection view: every replayed strategy's lanes are the connections its requests went
  // on, so together they are the connections the servers saw the host's requests arrive on.
  await waitForText(popup, '[data-testid=replay-status]', (t) => /^Replay (done|invalid)/.test(t), 'the replay to finish');
  await popup.click('[data-testid=waterfall-mode-connections]');
  const { items } = await collectItems(popup);
  const headings = items.filter((d) => d.connection === undefined).map((d) => d.source);
  expect(headings).toEqual(['observed', ...strategies]);
  const replayLanes = items.filter((d) => d.connection !== undefined && d.source !== 'observed');
  expect(replayLanes.length).toBe(replayConnectionsLogged(site.requests, logMark));
  const lanesRequests = replayLanes.reduce((sum, d) => sum + Number(d.requests), 0);
  expect(lanesRequests).toBe(replayed.length);
  await popup.click('[data-testid=waterfall-mode-requests]');

  await popup.click('[data-testid=export-har]');
  const har = JSON.parse(await fetchLinkText(popup, '[data-testid=har-link]')) as Har;
  expect(har.log.version).toBe('1.2');
  await expect(harValidator.har(har)).resolves.toBeTruthy();
  const harUrls = new Set(har.log.entries.map((e) => e.request.url));
  expect(record.requests.map((r) => r.url).filter((u) => !harUrls.has(u))).toEqual([]);
  // The page, then one page per replayed strategy; headers as the servers sent them (every
  // response of the site carries `cache-control: no-store`), and never a cookie.
  expect(har.log.pages.map((p) => p.id)).toEqual([record.pageId, ...strategies.map((s) => `${record.pageId}:replay:${s}`)]);
  const observed = har.log.entries.filter((e) => e.pageref === record.pageId && e.response.status === 200);
  expect(observed.length).toBeGreaterThan(0);
  expect(observed.filter((e) => !e.response.headers.some((h) => h.name.toLowerCase() === 'cache-control' && h.value === 'no-store')).map((e) => e.request.url)).toEqual([]);
  expect(har.log.entries.flatMap((e) => [...e.request.headers, ...e.response.headers]).filter((h) => /^(set-)?cookie$/i.test(h.name))).toEqual([]);
}

