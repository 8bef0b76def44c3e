// "Where the time went" in real Chromium with the built extension (lean capture) on the emulated
// link (bench/link, 300 ms, reno: a round trip long enough that the machine's own load, which can
// slow a browser's load by a tenth of a second, stays well inside the ±1 RTT the checks allow): a page whose critical path is known — the document, a sheet, the
// sheet it `@import`s, the font that sheet names — and the popup's strip, checked against the link's
// configured round trip and the origin's own log of when each level was asked for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { startLink } from '../../bench/link/link-emulator';
import { launchInNamespace } from '../../bench/run/chromium-contender';
import { startLinkSite, type LinkSite } from '../../bench/overhead/overhead-link-site';
import { describeNetns } from '../bench-link/netns-gate';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { findTabId, openExtensionPage } from './harness/extension-pages';
import type { InPage } from './harness/in-page';
import { CHROMIUM_EXTENSION_ID } from './harness/launch-chromium';
import { openPopupForTab } from './harness/popup';
import { TempDirs } from './harness/temp-dirs';
import { CHAIN_PATHS, chainServerCommand, type ChainLogLine } from './site/chain-origin';

const RTT_MS = 300;

interface ShownLink {
  url: string;
  sentMs: number;
  roundTripMs: number;
}

interface Shown {
  links: ShownLink[];
  rttMs: number;
  boundMs: number;
  endMs: number;
}

/** What the popup's "where the time went" shows, once its strip ends at the font. */
async function shownDiagnosis(popup: Page): Promise<Shown> {
  await popup.waitForFunction(() => {
    const links = (globalThis as unknown as InPage).document.querySelectorAll('[data-testid="critical-link"]');
    return links.length > 0 && links[links.length - 1]?.getAttribute('data-url')?.endsWith('/f.woff2') === true;
  }, { timeout: 20_000, polling: 200 });
  return popup.evaluate(() => {
    const doc = (globalThis as unknown as InPage).document;
    const num = (sel: string, attr: string) => Number(doc.querySelector(sel)?.getAttribute(attr));
    const links = Array.from(doc.querySelectorAll('[data-testid="critical-link"]'), (li) => ({
      url: li.getAttribute('data-url') ?? '',
      sentMs: Number(li.getAttribute('data-sent-ms')),
      roundTripMs: Number(li.getAttribute('data-round-trip-ms')),
    }));
    return { links, rttMs: num('[data-testid="tw-path"]', 'data-rtt'), boundMs: num('[data-testid="tw-bound"]', 'data-ms'), endMs: num('[data-testid="tw-end"]', 'data-ms') };
  });
}

describeE2e('e2e where the time went: Chromium on the emulated link', () => {
  describeNetns('a known chain: document → sheet → @import → font', () => {
    const dirs = new TempDirs();
    const logPath = join(dirs.make('chain-log'), 'requests.jsonl');
    let site: LinkSite | undefined;
    let browser: Browser | undefined;
    let shown: Shown;
    let log: ChainLogLine[];
    let popup: Page;
    let query: Page;
    let url: string;
    let firstTab: Page;

    beforeAll(async () => {
      requireBrowser('chromium');
      const extension = copyExtensionBuild(dirs);
      site = await startLinkSite({ rttMs: RTT_MS, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, { startLink, siteCommand: chainServerCommand(logPath) });
      browser = await launchInNamespace({ clientNs: site.clientNs, hostResolverRules: 'MAP nothing.invalid 127.0.0.1', spkiHashes: [], timeoutMs: 30_000 }, dirs.make('chain-chromium'), extension.dir);
      query = (await openExtensionPage(browser, `chrome-extension://${CHROMIUM_EXTENSION_ID}/${extension.queryPage}`)).page;
      firstTab = await browser.newPage();
      url = `${site.origin}${CHAIN_PATHS[0]}`;
      await firstTab.goto(url, { waitUntil: 'load', timeout: 30_000 });
      const opened = await openPopupForTab(browser, `chrome-extension://${CHROMIUM_EXTENSION_ID}`, await findTabId(query, url));
      popup = opened.page;
      shown = await shownDiagnosis(popup).catch(async (e: unknown) => {
        const text = await popup.evaluate(() => (globalThis as unknown as InPage).document.querySelector('[data-testid="time-went"]')?.textContent ?? 'no time-went block');
        throw new Error(`${String(e)}; popup errors: ${opened.errors.join(' | ')}; its block: ${text.slice(0, 800)}`);
      });
      log = readFileSync(logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ChainLogLine);
    }, 90_000);
    afterAll(async () => {
      await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
      await site?.close();
      dirs.removeAll();
    });

    test('the critical path names exactly the chain, in order', () => {
      expect(shown.links.map((l) => new URL(l.url).pathname)).toEqual([...CHAIN_PATHS]);
    });

    test('the path the popup measured is the link’s round trip, and each link of the chain took one round trip (within 1 RTT)', () => {
      expect(shown.rttMs).toBeGreaterThanOrEqual(RTT_MS);
      expect(shown.rttMs).toBeLessThan(RTT_MS * 1.1);
      for (const l of shown.links) expect(Math.abs(l.roundTripMs - RTT_MS)).toBeLessThan(RTT_MS);
    });

    test('the bound is one handshake and one round trip per level; the page ended within 1 RTT of it', () => {
      expect(shown.boundMs).toBeCloseTo(5 * shown.rttMs, 6);
      expect(shown.endMs).toBeGreaterThanOrEqual(shown.boundMs);
      expect(shown.endMs - shown.boundMs).toBeLessThan(RTT_MS);
    });

    test('when each level was sent agrees with when the origin saw it asked for (±¼ RTT), one round trip apart (within 1 RTT)', () => {
      const at = (path: string) => log.find((l) => l.path === path)?.at ?? NaN;
      const [doc] = shown.links;
      for (const [i, l] of shown.links.entries()) {
        const path = CHAIN_PATHS[i] as string;
        expect(Math.abs((l.sentMs - (doc?.sentMs ?? NaN)) - (at(path) - at(CHAIN_PATHS[0])))).toBeLessThanOrEqual(RTT_MS / 4);
        if (i > 0) expect(Math.abs(at(path) - at(CHAIN_PATHS[i - 1] as string) - RTT_MS)).toBeLessThan(RTT_MS);
      }
      expect(log.filter((l) => l.path === '/f.woff2')).toHaveLength(1);
    });

    test('the suggested font preload, applied with one click, saves on the next visit what was predicted (±1 RTT)', async () => {
      if (!browser) throw new Error('chromium did not start');
      const row = '[data-testid="suggestion"][data-kind="preload"][data-href$="/f.woff2"]';
      await popup.waitForSelector(`${row} [data-testid="apply-suggestion"]`, { timeout: 10_000 });
      const predicted = Number(await popup.$eval(`${row} [data-testid="predicted-saving"]`, (e) => e.getAttribute('data-ms')));
      // Preloaded, the font is found at the document's first byte: the page ends with b.css.
      expect(predicted).toBeCloseTo(shown.endMs - (shown.links[2]?.sentMs ?? NaN) - (shown.links[2]?.roundTripMs ?? NaN), -1);
      await popup.click(`${row} [data-testid="apply-suggestion"]`);
      await popup.waitForSelector('[data-testid="applied-suggestion"][data-href$="/f.woff2"]', { timeout: 10_000 });
      // Past the origin's keep-alive: the next visit opens its connection as the first did.
      await new Promise((r) => setTimeout(r, 1500));
      const mark = readFileSync(logPath, 'utf8').trim().split('\n').length;
      await firstTab.close();
      const next = await browser.newPage();
      await next.goto(url, { waitUntil: 'load', timeout: 30_000 });
      const nextPopup = (await openPopupForTab(browser, `chrome-extension://${CHROMIUM_EXTENSION_ID}`, await findTabId(query, url))).page;
      await nextPopup.waitForSelector('[data-testid="applied-suggestion"][data-href$="/f.woff2"] [data-testid="measured-saving"]', { timeout: 20_000 });
      const measured = Number(await nextPopup.$eval('[data-testid="applied-suggestion"][data-href$="/f.woff2"] [data-testid="measured-saving"]', (e) => e.getAttribute('data-ms')));
      expect(Math.abs(measured - predicted)).toBeLessThanOrEqual(RTT_MS);
      // The origin's own log: this visit asked for the font before b.css, which named it, was answered.
      const visit = readFileSync(logPath, 'utf8').trim().split('\n').slice(mark).map((l) => JSON.parse(l) as ChainLogLine);
      const at = (path: string) => visit.find((l) => l.path === path)?.at ?? NaN;
      expect(at('/f.woff2')).toBeLessThan(at('/b.css') + RTT_MS / 2);
      expect(visit.filter((l) => l.path === '/f.woff2')).toHaveLength(1);
    }, 60_000);
  });
});
