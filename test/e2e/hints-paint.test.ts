// Chromium's font rule in a real browser (src/page/hints/paint-slack.ts), Firefox beside it: a learned
// visit keeps its document's first byte and its first contentful paint — checked here against the
// page's own Navigation and Paint Timing, read by the test in the page's main world — and where
// those visits say a font named only by a late style sheet arrives well before the page paints,
// the third visit gets it preloaded: the test server sees the font before the sheet naming it
// could have been answered, once, and the paint is not held for it.
import type { Page } from 'puppeteer-core';
import type { HintsView } from '../../src/page/messages/messages';
import { describeE2e } from './harness/browsers';
import { findTabId } from './harness/extension-pages';
import type { ExtensionCopy } from './harness/extension-build';
import { storedVisits, useHintsFixture, waitForHints, type HintsBrowser, type StoredVisit } from './harness/hints-check';
import type { InPage } from './harness/in-page';
import { launchChromium } from './harness/launch-chromium';
import { launchFirefox } from './harness/launch-firefox';
import type { TempDirs } from './harness/temp-dirs';
import { loadTestPage } from './harness/site-load';
import type { Site, SiteRequest } from './site/site-server';

/**
 * Every response but the sheet's is held 20 ms, the document's included (hints-paint.html); the
 * document's body past its doctype 300 ms more, so the hints are pushed at a commit with no element
 * parsed yet (Firefox inserted none there before the links waited for the first one).
 */
const PAGE = 'hints-paint.html?delay=20&body-delay=300';
const SHEET_DELAY_MS = 400;
const FONT = '/font/paint-face.woff2?delay=20';

interface PaintVisit {
  /** The page's own Navigation Timing `responseStart` and Paint Timing first contentful paint, ms. */
  responseStart: number;
  fcp: number;
  log: SiteRequest[];
  /** The background's hints view of the load's tab once it learned from it (and, hinted, judged the hints). */
  view: HintsView;
}

async function visit(launched: HintsBrowser, query: Page, site: Site, learned: number): Promise<PaintVisit> {
  const mark = site.requests.length;
  const load = await loadTestPage(launched.browser, site, PAGE);
  const tabId = await findTabId(query, load.url);
  const timing = await load.tab.evaluate(() => {
    const p = (globalThis as unknown as InPage).performance;
    return { responseStart: p.getEntriesByType('navigation')[0]?.responseStart ?? -1, fcp: p.getEntriesByName('first-contentful-paint', 'paint')[0]?.startTime ?? -1 };
  });
  const view = await waitForHints(query, tabId, (v) => v.learnedVisits.page >= learned && (learned < 3 || v.outcome !== null), `${learned} learned visit(s)`);
  await load.tab.close();
  return { ...timing, view, log: site.requests.slice(mark).filter((r) => !r.userAgent.startsWith('getlist/')) };
}

/** ms from the held-back sheet's arrival at the server, plus its delay, to the font's (negative: before the sheet could have been answered). */
function fontAfterSheet(log: readonly SiteRequest[]): number {
  const sheet = log.find((r) => r.path.startsWith('/hints-paint.css'));
  const font = log.find((r) => r.path === FONT);
  if (!sheet || !font) throw new Error(`no ${sheet ? FONT : 'hints-paint.css'} in the log: ${JSON.stringify(log.map((r) => r.path))}`);
  return font.at - (sheet.at + SHEET_DELAY_MS);
}

/**
 * Chromium's pushed `<link>`s carry the font once the document has a body, where its preload holds
 * no paint (`after-body`; the font rule judges the `Link` header only); Firefox, which holds no
 * paint for a font, preloads learned fonts without waiting — the same checks hold in both.
 */
function suite(name: 'chromium' | 'firefox', launch: (dirs: TempDirs, extension: ExtensionCopy) => Promise<HintsBrowser>): void {
  describeE2e(`e2e hints: ${name} preloads a font that arrives before the paint (lean capture)`, () => {
    const fx = useHintsFixture(name, launch);
    const unhinted: PaintVisit[] = [];
    let hinted: PaintVisit;

    test('a learned visit keeps the document’s first byte and the first paint the page itself measured', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      for (const n of [1, 2]) unhinted.push(await visit(fx.launched, fx.query, fx.site, n));
      const stored = await storedVisits(fx.query, fx.site.url(PAGE), 2);
      expect(stored.map((v) => [v.documentMs, v.paintMs])).toEqual(unhinted.map((v) => [Math.round(v.responseStart), Math.round(v.fcp)]));
      // The paint waited for the held-back sheet; the font, named only by it, came after it.
      for (const v of unhinted) {
        expect(v.fcp).toBeGreaterThanOrEqual(SHEET_DELAY_MS);
        expect(fontAfterSheet(v.log)).toBeGreaterThanOrEqual(0);
      }
    }, 60_000);

    test('the third visit preloads the font in the form its request takes; the server sees it before the sheet could be answered, once', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      hinted = await visit(fx.launched, fx.query, fx.site, 3);
      const view = hinted.view;
      expect(view.applied?.preloads).toContainEqual({ rel: 'preload', href: `${fx.site.other}${FONT}`, as: 'font', crossorigin: 'anonymous', type: 'font/woff2', ...(name === 'chromium' ? { afterBody: true } : {}) });
      expect(fontAfterSheet(hinted.log)).toBeLessThan(0);
      expect(hinted.log.filter((r) => r.path === FONT)).toHaveLength(1);
      expect(view.outcome?.duplicates).toEqual([]);
    }, 40_000);

    test('the paint is not held for the preloaded font: it arrived long before the sheet the paint waits for', () => {
      // Chromium holds a paint for a pending preloaded font up to ~100 ms; a paint held for it would
      // come well after every unhinted one. 50 ms covers loopback's spread between loads.
      expect(hinted.fcp).toBeLessThan(Math.max(...unhinted.map((v) => v.fcp)) + 50);
    });

    test('a paint a font preload may have held is no baseline for the rule and is not stored; one after the body held nothing and is', async () => {
      const stored = await storedVisits(fx.query, fx.site.url(PAGE), 3);
      expect(stored[2]?.paintMs).toBe(name === 'chromium' ? Math.round(hinted.fcp) : undefined);
      expect(stored[2]?.documentMs).toBe(Math.round(hinted.responseStart));
    });

    test('the preloaded font is in the page’s own record: the outcome counts it used, and the hinted visit learns it', async () => {
      // The links are inserted from the page's main world: Chromium lists none of what an extension's
      // isolated world fetches in the page's Resource Timing, and a lean record is built from it.
      const font = `${fx.site.other}${FONT}`;
      expect(hinted.view.outcome?.verdicts.find((v) => v.hint.href === font)).toMatchObject({ verdict: 'used', why: 'fetched once, and needed on earlier visits' });
      const stored = (await storedVisits(fx.query, fx.site.url(PAGE), 3)) as Array<StoredVisit & { resources: Array<{ url: string; as: string; late: boolean }> }>;
      expect(stored[2]?.resources).toContainEqual(expect.objectContaining({ url: font, as: 'font', late: true }));
    });
  });
}

suite('chromium', async (dirs, extension) => {
  const c = await launchChromium({ extensionDir: extension.dir, userDataDir: dirs.make('paint-chromium-profile'), env: { HOME: dirs.make('paint-chromium-home'), GETLIST_DATA_DIR: dirs.make('paint-chromium-data') } });
  await c.serviceWorker();
  return c;
});

suite('firefox', (dirs, extension) =>
  launchFirefox({ extensionDir: extension.dir, home: dirs.make('paint-firefox-home'), profileDir: dirs.make('paint-firefox-profile'), env: { GETLIST_DATA_DIR: dirs.make('paint-firefox-data') } }),
);
