/**
 * "Where the time went" on the emulated link, whatever the browser: what the popup shows for the
 * chain origin's page (test/e2e/site/chain-origin.ts), the checks against the link's round trip and
 * the origin's own log, and the applied font preload's next visit. Shared by the Chromium and
 * Firefox e2e tests (time-went-link*.test.ts).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import { findTabId, openExtensionPage } from './extension-pages';
import type { InPage } from './in-page';
import { openPopupForTab } from './popup';
import { CHAIN_PATHS, type ChainLogLine } from '../site/chain-origin';

export interface ShownLink {
  url: string;
  sentMs: number;
  roundTripMs: number;
}

export interface Shown {
  links: ShownLink[];
  rttMs: number;
  boundMs: number;
  endMs: number;
}

/** The origin's log: one line per request it received. */
export function chainLog(logPath: string): ChainLogLine[] {
  return readFileSync(logPath, 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as ChainLogLine);
}

/** What the popup's "where the time went" shows, once its strip ends at the font. */
export async function shownDiagnosis(popup: Page, errors: readonly string[]): Promise<Shown> {
  try {
    await popup.waitForFunction(() => {
      const links = (globalThis as unknown as InPage).document.querySelectorAll('[data-testid="critical-link"]');
      return links.length > 0 && links[links.length - 1]?.getAttribute('data-url')?.endsWith('/f.woff2') === true;
    }, { timeout: 20_000, polling: 200 });
  } catch (e) {
    const text = await popup.evaluate(() => (globalThis as unknown as InPage).document.querySelector('[data-testid="time-went"]')?.textContent ?? 'no time-went block');
    throw new Error(`${String(e)}; popup errors: ${errors.join(' | ')}; its block: ${text.slice(0, 800)}`);
  }
  const shown = await popup.evaluate(() => {
    const doc = (globalThis as unknown as InPage).document;
    const num = (sel: string, attr: string) => Number(doc.querySelector(sel)?.getAttribute(attr));
    const links = Array.from(doc.querySelectorAll('[data-testid="critical-link"]'), (li) => ({
      url: li.getAttribute('data-url') ?? '',
      sentMs: Number(li.getAttribute('data-sent-ms')),
      roundTripMs: Number(li.getAttribute('data-round-trip-ms')),
    }));
    return { links, rttMs: num('[data-testid="tw-path"]', 'data-rtt'), boundMs: num('[data-testid="tw-bound"]', 'data-ms'), endMs: num('[data-testid="tw-end"]', 'data-ms') };
  });
  printed(shown);
  return shown;
}

/** The chain page's first visit in a browser with the extension, and what its popup showed. */
export interface ChainVisit {
  /** The extension page the tests query its records through. */
  query: Page;
  firstTab: Page;
  url: string;
  popup: Page;
  shown: Shown;
  /** The origin's log of that first visit. */
  log: ChainLogLine[];
}

export interface ChainVisitOptions {
  browser: Browser;
  extensionOrigin: string;
  /** The extension's query page (extension-build.ts `queryPage`). */
  queryPage: string;
  siteOrigin: string;
  logPath: string;
  /** Waits, before the popup opens, for what the test needs recorded of the visit. */
  recorded?: (query: Page, tabId: number) => Promise<void>;
}

/** Visits the chain page once in a new tab and opens its popup, once its strip ends at the font. */
export async function firstChainVisit(o: ChainVisitOptions): Promise<ChainVisit> {
  const query = (await openExtensionPage(o.browser, `${o.extensionOrigin}/${o.queryPage}`)).page;
  const firstTab = await o.browser.newPage();
  const url = `${o.siteOrigin}${CHAIN_PATHS[0]}`;
  await firstTab.goto(url, { waitUntil: 'load', timeout: 30_000 });
  const tabId = await findTabId(query, url);
  await o.recorded?.(query, tabId);
  const opened = await openPopupForTab(o.browser, o.extensionOrigin, tabId);
  const shown = await shownDiagnosis(opened.page, opened.errors);
  return { query, firstTab, url, popup: opened.page, shown, log: chainLog(o.logPath) };
}

/** With GETLIST_E2E_PRINT=1, what the popup showed, one JSON line on stdout (for a run's record). */
function printed(o: object): void {
  if (process.env.GETLIST_E2E_PRINT === '1') process.stdout.write(`${JSON.stringify(o)}\n`);
}

/** The applied font preload reached the next visit's document as a pushed `<link rel=preload>` (lean capture). */
export function expectFontPushed(applied: AppliedVisit): void {
  expect(applied.pushed.filter((h) => h.startsWith('preload ') && h.endsWith('/f.woff2'))).toHaveLength(1);
}

/** The critical path names exactly the chain, in order. */
export function expectChainPath(shown: Shown): void {
  expect(shown.links.map((l) => new URL(l.url).pathname)).toEqual([...CHAIN_PATHS]);
}

/**
 * The path's round trip is the link's (within a tenth, and never under it by more than
 * `clockSlackMs`: what the browser's coarsened clock may take off a difference of two readings),
 * and each link of the chain took one round trip (within 1 RTT).
 */
export function expectRoundTrips(shown: Shown, rttMs: number, clockSlackMs = 0): void {
  expect(shown.rttMs).toBeGreaterThanOrEqual(rttMs - clockSlackMs);
  expect(shown.rttMs).toBeLessThan(rttMs * 1.1);
  for (const l of shown.links) expect(Math.abs(l.roundTripMs - rttMs)).toBeLessThan(rttMs);
}

/** The bound is one handshake and one round trip per level; the page ended within 1 RTT of it. */
export function expectBound(shown: Shown, rttMs: number): void {
  expect(shown.boundMs).toBeCloseTo(5 * shown.rttMs, 6);
  expect(shown.endMs).toBeGreaterThanOrEqual(shown.boundMs);
  expect(shown.endMs - shown.boundMs).toBeLessThan(rttMs);
}

/** When each level was sent agrees with the origin's log (±¼ RTT), the levels one round trip apart (within 1 RTT). */
export function expectSentAsLogged(shown: Shown, log: readonly ChainLogLine[], rttMs: number): void {
  const at = (path: string) => log.find((l) => l.path === path)?.at ?? NaN;
  const [doc] = shown.links;
  for (const [i, l] of shown.links.entries()) {
    const path = CHAIN_PATHS[i] as string;
    expect(Math.abs((l.sentMs - (doc?.sentMs ?? NaN)) - (at(path) - at(CHAIN_PATHS[0])))).toBeLessThanOrEqual(rttMs / 4);
    if (i > 0) expect(Math.abs(at(path) - at(CHAIN_PATHS[i - 1] as string) - rttMs)).toBeLessThan(rttMs);
  }
  expect(log.filter((l) => l.path === '/f.woff2')).toHaveLength(1);
}

export interface AppliedVisit {
  /** The popup's predicted saving of the font preload, ms. */
  predictedMs: number;
  /** The saving the next visit's popup measured, ms. */
  measuredMs: number;
  /** The origin's log lines of the next visit. */
  visit: ChainLogLine[];
  /** The hints pushed into the next visit's document as `<link data-getlist-hint>` (lean capture's mechanism), as `rel href`. */
  pushed: string[];
}

export interface ApplyOptions {
  browser: Browser;
  extensionOrigin: string;
  /** An extension page to find tabs from. */
  query: Page;
  url: string;
  /** The first visit's tab (closed before the next visit) and its popup. */
  firstTab: Page;
  popup: Page;
  logPath: string;
}

const FONT_ROW = '[data-testid="suggestion"][data-kind="preload"][data-href$="/f.woff2"]';
const APPLIED_FONT = '[data-testid="applied-suggestion"][data-href$="/f.woff2"]';

/** The suggested font preload's predicted saving, as the popup shows it. */
export async function predictedFontSaving(popup: Page): Promise<number> {
  await popup.waitForSelector(`${FONT_ROW} [data-testid="apply-suggestion"]`, { timeout: 10_000 });
  return Number(await popup.$eval(`${FONT_ROW} [data-testid="predicted-saving"]`, (e) => e.getAttribute('data-ms')));
}

/**
 * Applies the suggested font preload with one click, waits past the origin's keep-alive (so the next
 * visit opens its connection as the first did), makes the next visit in a new tab, and reads the
 * saving its popup measured. `beforeNextVisit` runs once the suggestion is applied (a test of the
 * header rules reads them there).
 */
export async function applyFontPreloadAndRevisit(o: ApplyOptions, beforeNextVisit?: () => Promise<void>): Promise<AppliedVisit> {
  const predictedMs = await predictedFontSaving(o.popup);
  await o.popup.click(`${FONT_ROW} [data-testid="apply-suggestion"]`);
  await o.popup.waitForSelector(APPLIED_FONT, { timeout: 10_000 });
  await beforeNextVisit?.();
  await new Promise((r) => setTimeout(r, 1500));
  const mark = chainLog(o.logPath).length;
  await o.firstTab.close();
  const next = await o.browser.newPage();
  await next.goto(o.url, { waitUntil: 'load', timeout: 30_000 });
  const { page: nextPopup } = await openPopupForTab(o.browser, o.extensionOrigin, await findTabId(o.query, o.url));
  await nextPopup.waitForSelector(`${APPLIED_FONT} [data-testid="measured-saving"]`, { timeout: 20_000 });
  const measuredMs = await settledMeasure(nextPopup);
    const pushed = await next.evaluate(() =>
    Array.from((globalThis as unknown as InPage).document.querySelectorAll('link[data-getlist-hint]'), (l) => `${l.getAttribute('rel') ?? ''} ${l.getAttribute('href') ?? ''}`),
  );
  const visit = chainLog(o.logPath).slice(mark);
  printed({ url: o.url, predictedMs, measuredMs, pushed, visit: visit.map((l) => `${l.path} +${l.at - (visit[0]?.at ?? 0)}`) });
  return { predictedMs, measuredMs, visit, pushed };
}

/**
 * The measured saving once the popup has drawn it twice alike: the popup redraws each second while
 * the visit's record fills in, and the page's timeline reaches the background after its `load`.
 */
async function settledMeasure(popup: Page): Promise<number> {
  const read = () => popup.$eval(`${APPLIED_FONT} [data-testid="measured-saving"]`, (e) => Number(e.getAttribute('data-ms')));
  let last = await read();
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 1200));
    const now = await read();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Preloaded, the font is found at the document's first byte: the prediction is the page's end less b.css's. */
export function expectPredictionEndsWithSheet(shown: Shown, predictedMs: number): void {
  const b = shown.links[2];
  expect(predictedMs).toBeCloseTo(shown.endMs - (b?.sentMs ?? NaN) - (b?.roundTripMs ?? NaN), -1);
}

/** The measured saving is the predicted one (±1 RTT), and the origin saw the font asked for once, before b.css (which names it) was answered. */
export function expectSavedAsPredicted(applied: AppliedVisit, rttMs: number): void {
  expect(Math.abs(applied.measuredMs - applied.predictedMs)).toBeLessThanOrEqual(rttMs);
  expectAskedEarly(applied, rttMs);
}

/** The origin saw the next visit ask for the font once, before b.css (which names it) was answered. */
export function expectAskedEarly(applied: AppliedVisit, rttMs: number): void {
  const at = (path: string) => applied.visit.find((l) => l.path === path)?.at ?? NaN;
  expect(at('/f.woff2')).toBeLessThan(at('/b.css') + rttMs / 2);
  expect(applied.visit.filter((l) => l.path === '/f.woff2')).toHaveLength(1);
}

/**
 * The saving the popup measured is what the origin saw (±½ RTT): the chain's last request came that
 * much sooner after the document's than on the first visit (each answered half a round trip later).
 */
export function expectMeasuredAsLogged(applied: AppliedVisit, firstVisit: readonly ChainLogLine[], rttMs: number): void {
  const span = (visit: readonly ChainLogLine[]) =>
    Math.max(...CHAIN_PATHS.map((p) => visit.find((l) => l.path === p)?.at ?? NaN)) - (visit.find((l) => l.path === CHAIN_PATHS[0])?.at ?? NaN);
  expect(Math.abs(applied.measuredMs - (span(firstVisit) - span(applied.visit)))).toBeLessThanOrEqual(rttMs / 2);
}
