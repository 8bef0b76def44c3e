// Applied suggestions in Detailed capture, in real Chromium on the emulated link (300 ms): there the
// hints reach a page as a `Link` response header that declarativeNetRequest session rules add
// (src/page/hints/dnr-rules.ts), not as `<link>` elements pushed into it. The font preload the popup
// suggested for the chain origin's page (test/e2e/site/chain-origin.ts), applied with one click, is
// in the browser's own session rules at once, and the next visit — given it by the header alone,
// nothing pushed — asks for the font once, before the sheet naming it was answered.
//
// Chromium asks for a header's preloads at the document's response headers, before its parser asks
// for the document's sheet; a font preload alone there could take the document's freed connection
// on this HTTP/1.1 origin and leave the sheet to wait for a new one. The header names the sheet the
// document names ahead of the font (applied-suggestion.ts `headerHintsOf`), in the document's
// order, so the next visit saves what was predicted (±1 RTT), and the popup's measured saving
// agrees with the origin's own log.
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { startLink } from '../../bench/link/link-emulator';
import { startLinkSite, type LinkSite } from '../../bench/overhead/overhead-link-site';
import { describeNetns } from '../bench-link/netns-gate';
import { describeE2e, requireBrowser } from './harness/browsers';
import { chromiumOnLink } from './harness/chromium-on-link';
import { grantDetailedAndRestart, type DetailedChromium } from './harness/detailed-capture';
import { copyExtensionBuild } from './harness/extension-build';
import { findTabId, getPage, waitForPage } from './harness/extension-pages';
import type { InPage } from './harness/in-page';
import { TempDirs } from './harness/temp-dirs';
import { applyFontPreloadAndRevisit, expectChainPath, expectMeasuredAsLogged, expectPredictionEndsWithSheet, expectRoundTrips, expectSavedAsPredicted, firstChainVisit, type ChainVisit } from './harness/time-went-check';
import { chainServerCommand } from './site/chain-origin';

const RTT_MS = 300;

interface SessionRule {
  priority: number;
  action: { type: string; responseHeaders?: Array<{ header: string; operation: string; value: string }> };
  condition: { urlFilter?: string };
}

/** The browser's own declarativeNetRequest session rules, read from an extension page. */
async function sessionRules(page: Page): Promise<SessionRule[]> {
  return page.evaluate(async () => {
    const g = globalThis as unknown as InPage & { chrome: { declarativeNetRequest: { getSessionRules(): Promise<unknown[]> } } };
    return (await g.chrome.declarativeNetRequest.getSessionRules()) as SessionRule[];
  }) as Promise<SessionRule[]>;
}

describeE2e('e2e where the time went: Chromium, Detailed capture, on the emulated link', () => {
  describeNetns('the applied font preload goes out as a Link header rule', () => {
    const dirs = new TempDirs();
    const logPath = join(dirs.make('chain-log'), 'requests.jsonl');
    let site: LinkSite | undefined;
    let chromium: DetailedChromium | undefined;
    let v: ChainVisit;

    beforeAll(async () => {
      requireBrowser('chromium');
      const extension = copyExtensionBuild(dirs);
      site = await startLinkSite({ rttMs: RTT_MS, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, { startLink, siteCommand: chainServerCommand(logPath) });
      const profile = dirs.make('chain-chromium-detailed');
      const ns = site.clientNs;
      chromium = await grantDetailedAndRestart(() => chromiumOnLink(ns, profile, extension.dir));
      v = await firstChainVisit({
        browser: chromium.browser, extensionOrigin: chromium.extensionOrigin, queryPage: extension.queryPage, siteOrigin: site.origin, logPath,
        recorded: async (query, tabId) => { await waitForPage(query, tabId, (p) => p.capture === 'detailed', 'a record of Detailed capture'); },
      });
    }, 120_000);
    afterAll(async () => {
      await chromium?.close();
      await site?.close();
      dirs.removeAll();
    });

    test('the page was recorded by Detailed capture, and its critical path is the chain, each level one round trip (within 1 RTT)', async () => {
      const { page } = await getPage(v.query, await findTabId(v.query, v.url));
      expect(page?.capture).toBe('detailed');
      expectChainPath(v.shown);
      expectRoundTrips(v.shown, RTT_MS);
    });

    test('applied, the font preload is in the browser’s session rules as the page’s Link header; the sheet the document names ahead of it first; the next visit, hinted by the header alone, saves what was predicted (±1 RTT)', async () => {
      if (!chromium) throw new Error('chromium did not start');
      let before: SessionRule[] = [];
      let after: SessionRule[] = [];
      before = await sessionRules(v.query);
      const applied = await applyFontPreloadAndRevisit({ browser: chromium.browser, extensionOrigin: chromium.extensionOrigin, ...v, logPath }, async () => {
        after = await sessionRules(v.query);
      });
      // One visit learns no list: before the click no rule names the page; after it, the page's own rule appends the font.
      expect(before.filter((r) => r.condition.urlFilter === `|${v.url}|`)).toEqual([]);
      const header = after.find((r) => r.condition.urlFilter === `|${v.url}|` && r.action.type === 'modifyHeaders')?.action.responseHeaders?.[0];
      expect(header).toMatchObject({ header: 'link', operation: 'append' });
      expect(header?.value).toMatch(new RegExp(`<${site?.origin ?? '?'}/a\\.css>; rel=preload; as=style, <${site?.origin ?? '?'}/f\\.woff2>; rel=preload; as=font`));
      // Nothing pushed into the page: the header carried the hint.
      expect(applied.pushed).toEqual([]);
      expectPredictionEndsWithSheet(v.shown, applied.predictedMs);
      expectSavedAsPredicted(applied, RTT_MS);
      expectMeasuredAsLogged(applied, v.log, RTT_MS);
    }, 90_000);
  });
});
