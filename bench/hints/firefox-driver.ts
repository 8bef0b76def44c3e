/**
 * `ip netns exec <client ns> node dist/bench/hints-firefox-driver.js '<options JSON>'` — the Firefox
 * side of one hints run, driven from inside the client namespace: puppeteer speaks WebDriver BiDi to
 * Firefox over a WebSocket on the namespace's own loopback, which a process outside it cannot
 * reach (Chromium's CDP runs over pipes instead, so bench/hints/hints-session.ts drives it from
 * outside). Names resolve through /etc/netns/<ns>/hosts, which `ip netns exec` mounts.
 *
 * Same run as Chromium's: two warm-up visits in one profile (the extension learns its list), a
 * browser restart, the measured visit. Protocol, one JSON object a line on stdout: `{"event":
 * "measure"}` when the measured load is about to start — the driver then waits for a line on stdin,
 * so the parent can mark its servers' log — and `{"event":"result",...}` or `{"event":"error",...}`.
 *
 * The extension is installed temporarily (as about:debugging does), so it is installed again after
 * the restart; its uuid is preset and its storage kept across that (prefs below), as an installed
 * add-on's would be.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { PAINT_ENTRIES, type PaintEntries } from './paint-entries';
import { storageItemsExpression, storedLearnedState, storedVisitsExpression } from './learned-storage';

export interface FirefoxDriverOptions {
  url: string;
  withExtension: boolean;
  /** The extension with Options → "Early hints" off: nothing learned, nothing hinted, the rest of it running (its own cost). */
  hintsOff?: boolean;
  extensionDir: string;
  /** Profile directory (kept across the restart). */
  dir: string;
  expectedRequests: number;
  timeoutMs: number;
}

export interface FirefoxDriverResult {
  completeMs: number;
  fcpMs: number | null;
  lcpMs: number | null;
  lcpElement: string | null;
  warmUpVisits: number;
  hints?: number;
  learned?: unknown;
  /** With GETLIST_HINTS_TIMELINE=1, the measured load's entries as Chromium's timeline has them (hints-session.ts). */
  timeline?: string[];
}

const FIREFOX = '/usr/bin/firefox-esr';
const GECKO_ID = 'getlist@getlist.dev';
/** After load, the extension learns once the page's late reports are in (LEARN_DELAY_MS, 5 s). */
const LEARN_WAIT_MS = 12_000;

function emit(o: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(o)}\n`);
}

async function launch(o: FirefoxDriverOptions, uuid: string): Promise<Browser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: join(o.dir, 'profile'),
    acceptInsecureCerts: true,
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      'extensions.webextensions.keepStorageOnUninstall': true,
      'extensions.webextensions.keepUuidOnUninstall': true,
      // No speculative work of Firefox's own between contenders' runs.
      'network.predictor.enabled': false,
      'network.prefetch-next': false,
    },
    env: { ...process.env, HOME: o.dir, MOZ_REMOTE_ALLOW_SYSTEM_ACCESS: '1' },
    timeout: 30_000,
    protocolTimeout: o.timeoutMs + 10_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  if (o.withExtension) await browser.installExtension(o.extensionDir);
  return browser;
}

async function close(browser: Browser): Promise<void> {
  const proc = browser.process();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
  if (proc && proc.exitCode === null) proc.kill('SIGKILL');
}

/**
 * An extension page to read its storage and rules from (the background's own APIs, same extension).
 * Puppeteer never sees a moz-extension:// navigation finish (the tab moves to the extension
 * process; test/e2e/harness/extension-pages.ts), so the document is polled instead.
 */
async function extensionPage(browser: Browser, uuid: string): Promise<Page> {
  const page = await browser.newPage();
  const url = `moz-extension://${uuid}/popup.html`;
  void page.goto(url, { waitUntil: 'load', timeout: 15_000 }).catch(() => undefined);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = (await page.evaluate('[location.href, document.readyState, typeof browser]').catch(() => undefined)) as string[] | undefined;
    if (state?.[0] === url && state[1] === 'complete' && state[2] === 'object') return page;
    if (Date.now() > deadline) throw new Error(`extension page ${url} did not load within 15 s (at ${state?.[0] ?? '?'})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function learnedVisits(ext: Page, url: string): Promise<number> {
  return (await ext.evaluate(storedVisitsExpression('browser', url))) as number;
}

async function warmUp(browser: Browser, o: FirefoxDriverOptions, uuid: string): Promise<number> {
  const settings = o.withExtension ? await extensionPage(browser, uuid) : undefined;
  if (o.hintsOff) await settings?.evaluate(`browser.storage.local.set({ 'getlist.settings.v1': { hints: false } })`);
  const ext = o.hintsOff ? undefined : settings;
  let learned = 0;
  let visits = 0;
  while (learned < 2 && visits < 4) {
    visits++;
    const page = await browser.newPage();
    await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    if (ext) {
      const deadline = Date.now() + LEARN_WAIT_MS;
      while ((await learnedVisits(ext, o.url)) < learned + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      if ((await learnedVisits(ext, o.url)) >= learned + 1) learned++;
    } else {
      learned++;
      await new Promise((r) => setTimeout(r, 500));
    }
    await page.close();
  }
  if (learned < 2) throw new Error(`the extension learned ${learned} of ${visits} warm-up visits of ${o.url}`);
  await settings?.close();
  return visits;
}

/** Hints applied to the measured load: the `<link data-getlist-hint>` elements content-start inserted (Firefox's only mechanism: DNR cannot be an optional permission there). */
const LINK_HINTS = `document.querySelectorAll('link[data-getlist-hint]').length`;

/**
 * The measured load's requests from its own Navigation and Resource Timing, in start order, as
 * `start end url - sent` in ms from navigation start (the columns of Chromium's CDP timeline, whose
 * priority Firefox does not expose; `sent` is `requestStart`, `-` where the entry hides it).
 */
const TIMELINE = `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .sort((a, b) => a.startTime - b.startTime)
  .map((e) => [Math.round(e.startTime), Math.round(e.responseEnd), e.name, '-', ...[e.requestStart, e.responseStart].map((t) => (t > 0 ? Math.round(t) : '-'))].join(' '))`;

/** Waits until the page's Resource Timing holds the expected requests and has been still for a second. */
async function settle(page: Page, expected: number, deadline: number): Promise<void> {
  let last = -1;
  let stillSince = Date.now();
  while (Date.now() < deadline) {
    const n = (await page.evaluate('performance.getEntriesByType("resource").length')) as number;
    if (n !== last) {
      last = n;
      stillSince = Date.now();
    }
    // The document is not a resource entry; a page short of its count waits longer before it is judged done.
    if (Date.now() - stillSince > (n + 1 >= expected ? 1000 : 3000)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function measure(o: FirefoxDriverOptions, uuid: string, warmUpVisits: number): Promise<FirefoxDriverResult> {
  const browser = await launch(o, uuid);
  try {
    let hints: number | undefined;
    let learned: unknown;
    if (o.withExtension && !o.hintsOff) {
      const ext = await extensionPage(browser, uuid);
      learned = storedLearnedState(await ext.evaluate(storageItemsExpression('browser')));
      await ext.close();
    }
    const page = await browser.newPage();
    emit({ event: 'measure' });
    await waitForGo();
    const deadline = Date.now() + o.timeoutMs;
    await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    await settle(page, o.expectedRequests, deadline);
    if (o.withExtension) hints = (await page.evaluate(LINK_HINTS)) as number;
    const paints = (await page.evaluate(PAINT_ENTRIES)) as PaintEntries;
    // Navigation start → the last response end Resource Timing shows (the document's included).
    const complete = (await page.evaluate(`Math.max(0, ...performance.getEntriesByType('resource').map((e) => e.responseEnd), ...performance.getEntriesByType('navigation').map((e) => e.responseEnd))`)) as number;
    const timeline = process.env.GETLIST_HINTS_TIMELINE === '1' ? ((await page.evaluate(TIMELINE)) as string[]) : undefined;
    return { completeMs: complete, fcpMs: paints.fcp, lcpMs: paints.lcp, lcpElement: paints.lcpElement, warmUpVisits, ...(hints !== undefined ? { hints } : {}), ...(learned !== undefined ? { learned } : {}), ...(timeline ? { timeline } : {}) };
  } finally {
    await close(browser);
  }
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function waitForGo(): Promise<void> {
  await lines.next();
}

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2] ?? '') as FirefoxDriverOptions;
  const uuid = randomUUID();
  const browser = await launch(o, uuid);
  let warmUpVisits: number;
  try {
    warmUpVisits = await warmUp(browser, o, uuid);
  } finally {
    await close(browser);
  }
  emit({ event: 'result', ...(await measure(o, uuid, warmUpVisits)) });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    emit({ event: 'error', message: (err as Error).message });
    process.exit(1);
  },
);
