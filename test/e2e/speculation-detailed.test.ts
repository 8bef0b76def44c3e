// The no-store refusal from a document's response headers, which Detailed capture sees (webRequest;
// lean capture learns it from the cache, speculation-no-store.test.ts): in Chromium with Detailed
// capture granted, a page seen answering `Cache-Control: no-store` is never fetched ahead — the
// https site's log shows no request for it after a hover and a press on its link — while a safe
// link on the same page still is.
import { describeE2e } from './harness/browsers';
import { launchChromiumDetailed } from './harness/detailed-capture';
import { findTabId } from './harness/extension-pages';
import { hoverFor, openTab, parkPointer, useSpeculationFixture, waitForView } from './harness/speculation-check';

describeE2e('e2e speculation: chromium (Detailed capture: no-store seen)', () => {
  const fx = useSpeculationFixture('chromium', (dirs, extensionDir, spkiHash) =>
    launchChromiumDetailed({ extensionDir, userDataDir: dirs.make('spec-detailed-profile'), env: { HOME: dirs.make('spec-detailed-home'), GETLIST_DATA_DIR: dirs.make('spec-detailed-data') }, spkiHashes: [spkiHash] }),
  );

  test('a link to a page seen answering no-store is refused and never fetched; a safe link is', async () => {
    const { site, launched, query } = fx;
    if (!launched) throw new Error('chromium did not start');
    const tab = await openTab(launched.browser, site.url('/nostore.html'));
    await parkPointer(tab);
    const tabId = await findTabId(query, site.url('/nostore.html'));
    await waitForView(query, tabId, (v) => v.served !== null, 'nostore.html reported');
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    const view = await waitForView(query, tabId, (v) => v.links !== null, 'start.html links');
    expect(view.links?.refused['no-store']).toBe(1);
    const mark = site.requests.length;
    await hoverFor(tab, '#nostore', 400, { press: true });
    await hoverFor(tab, '#next', 400);
    await new Promise((r) => setTimeout(r, 500));
    expect(site.requests.slice(mark).map((r) => `${r.path} ${r.purpose ?? ''}`)).toEqual(['/next.html prefetch']);
  }, 90_000);
});
