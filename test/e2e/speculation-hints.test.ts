// Speculation and early hints together, in Chromium (lean capture): a page whose hints were learned
// on two visits is reached by a click served from a prefetch (`deliveryType` read in the page), and
// its learned list still reaches it at commit — the `<link>` elements are in the document and the
// test server's log shows the hinted image asked for before the held-back sheet naming it could
// have been answered, with no request twice.
import type { Page } from 'puppeteer-core';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { findTabId, openExtensionPage } from './harness/extension-pages';
import { afterSheet, learnVisit, paths, waitForHints } from './harness/hints-check';
import type { InPage } from './harness/in-page';
import { launchChromium, type LaunchedChromium } from './harness/launch-chromium';
import { h2Certificate } from './harness/observed-checks';
import { clickAndWait, hoverFor, openTab, parkPointer, servedInPage, waitForView } from './harness/speculation-check';
import { TempDirs } from './harness/temp-dirs';
import { isFromHost, startSite, type Site } from './site/site-server';

describeE2e('e2e speculation with hints: chromium (lean capture)', () => {
  const dirs = new TempDirs();
  let site: Site;
  let launched: LaunchedChromium | undefined;
  let query: Page;

  beforeAll(async () => {
    requireBrowser('chromium');
    const extension = copyExtensionBuild(dirs);
    const tls = h2Certificate(dirs);
    // Pages the cache keeps: a page it did not keep is never fetched ahead (a no-store page).
    site = await startSite({ h2: tls, storablePages: true });
    launched = await launchChromium({ extensionDir: extension.dir, userDataDir: dirs.make('spec-hints-profile'), env: { HOME: dirs.make('spec-hints-home'), GETLIST_DATA_DIR: dirs.make('spec-hints-data') }, spkiHashes: [tls.spkiHash] });
    await launched.serviceWorker();
    query = (await openExtensionPage(launched.browser, `${launched.extensionOrigin}/${extension.queryPage}`)).page;
  }, 40_000);
  afterAll(async () => {
    await launched?.close();
    await site?.close();
    dirs.removeAll();
  });

  test('a prefetched navigation to a hinted page gets its hints at commit', async () => {
    if (!launched) throw new Error('chromium did not start');
    for (const visits of [1, 2]) await learnVisit(launched.browser, query, site, visits);
    const tab = await openTab(launched.browser, site.url('to-hints.html'));
    await parkPointer(tab);
    const tabId = await findTabId(query, site.url('to-hints.html'));
    await waitForView(query, tabId, (v) => v.links !== null, 'to-hints.html ready to speculate');
    const mark = site.requests.length;
    await hoverFor(tab, '#go', 400);
    await clickAndWait(tab, '#go', site.url('hints.html'));
    expect((await servedInPage(tab)).deliveryType).toBe('navigational-prefetch');
    const view = await waitForHints(query, tabId, (v) => v.outcome !== null, 'the hinted load’s outcome');
    const applied = [...(view.applied?.preconnects ?? []), ...(view.applied?.preloads ?? [])];
    expect(view.applied?.preloads).toEqual(expect.arrayContaining([expect.objectContaining({ href: `${site.main}/img/hint-bg.png`, as: 'image' })]));
    const elements = await tab.evaluate(() => (globalThis as unknown as InPage).document.querySelectorAll('link[data-getlist-hint]').length);
    expect(elements).toBe(applied.length);
    const log = site.requests.slice(mark).filter((r) => !isFromHost(r));
    expect(afterSheet(log, '/img/hint-bg.png')).toBeLessThan(0);
    const fetched = paths(log);
    expect(fetched.filter((u) => u.endsWith('/hints.html'))).toHaveLength(1);
    expect(fetched).toEqual([...new Set(fetched)]);
  }, 90_000);
});
