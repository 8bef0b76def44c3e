// The no-store refusal in lean capture, which sees no response headers: Chromium's HTTP cache keeps
// every document it may store and never one answered `Cache-Control: no-store`, so the speculation
// script reads its own document back with `cache: 'only-if-cached'` (never sent to the server) and a
// page the cache did not keep is not fetched ahead again. The https site's log is the judge: the
// no-store page fetched ahead the first time (nothing was known of it yet, and the click used that
// fetch), and after that neither a hover nor a press asks for it, while a safe link still is.
import { describeE2e } from './harness/browsers';
import { findTabId } from './harness/extension-pages';
import { launchChromium } from './harness/launch-chromium';
import { clickAndWait, hoverFor, openTab, parkPointer, servedInPage, useSpeculationFixture, waitForView } from './harness/speculation-check';

describeE2e('e2e speculation: chromium (lean capture: no-store seen by the cache)', () => {
  const fx = useSpeculationFixture('chromium', async (dirs, extensionDir, spkiHash) => {
    const c = await launchChromium({ extensionDir, userDataDir: dirs.make('spec-nostore-profile'), env: { HOME: dirs.make('spec-nostore-home'), GETLIST_DATA_DIR: dirs.make('spec-nostore-data') }, spkiHashes: [spkiHash] });
    await c.serviceWorker();
    return c;
  });

  test('a no-store page reached once through a prefetch is refused from then on; the only-if-cached reads reach no server', async () => {
    const { site, launched, query } = fx;
    if (!launched) throw new Error('chromium did not start');
    const tab = await openTab(launched.browser, site.url('/start.html'));
    await parkPointer(tab);
    const tabId = await findTabId(query, site.url('/start.html'));
    let view = await waitForView(query, tabId, (v) => v.links !== null, 'start.html links');
    expect(view.links?.refused['no-store']).toBeUndefined();
    // First sight: nothing says no-store yet, so the hover fetches it ahead and the click uses that fetch.
    await hoverFor(tab, '#nostore', 400);
    await clickAndWait(tab, '#nostore', site.url('/nostore.html'));
    await parkPointer(tab);
    expect((await servedInPage(tab)).deliveryType).toBe('navigational-prefetch');
    await waitForView(query, tabId, (v) => v.served !== null, 'nostore.html reported');
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    view = await waitForView(query, tabId, (v) => v.links !== null, 'start.html links, again');
    expect(view.links?.refused['no-store']).toBe(1);
    const mark = site.requests.length;
    await hoverFor(tab, '#nostore', 400, { press: true });
    await hoverFor(tab, '#next', 400);
    await new Promise((r) => setTimeout(r, 500));
    expect(site.requests.slice(mark).map((r) => `${r.path} ${r.purpose ?? ''}`)).toEqual(['/next.html prefetch']);
    // Every request the site saw: the pages, their prefetches, a favicon; no read of the cache went out.
    expect(site.requests.map((r) => `${r.path} ${r.purpose ?? ''}`).filter((r) => !r.startsWith('/favicon.ico'))).toEqual(['/start.html ', '/nostore.html prefetch', '/start.html ', '/next.html prefetch']);
  }, 90_000);
});
