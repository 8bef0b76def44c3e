// The next page before the click in Firefox ESR, as tested: it has no speculation rules and its
// `<link rel=prefetch>` goes through the HTTP cache, so getlist fetches nothing ahead there
// (docs/extension.md). The https site's log shows no request with `Sec-Purpose` after hovers and a
// click, the click fetched the page once, and the extension reports the document as the browser
// served it: from the network, as Firefox's own Navigation Timing says.
import { describeE2e } from './harness/browsers';
import { findTabId } from './harness/extension-pages';
import { launchFirefox } from './harness/launch-firefox';
import { openPopupForTab, waitForText } from './harness/popup';
import { clickAndWait, hoverFor, openTab, parkPointer, servedInPage, useSpeculationFixture, waitForView } from './harness/speculation-check';

describeE2e('e2e speculation: firefox (nothing fetched ahead)', () => {
  const fx = useSpeculationFixture('firefox', (dirs, extensionDir) =>
    launchFirefox({ extensionDir, home: dirs.make('spec-firefox-home'), profileDir: dirs.make('spec-firefox-profile'), env: { GETLIST_DATA_DIR: dirs.make('spec-firefox-data') } }),
  );

  test('hovering and clicking a safe link: no request ahead, the click fetches the page once, reported as the network’s', async () => {
    const { site, launched, query } = fx;
    if (!launched) throw new Error('firefox did not start');
    const tab = await openTab(launched.browser, site.url('/start.html'));
    await parkPointer(tab);
    const tabId = await findTabId(query, site.url('/start.html'));
    const start = await waitForView(query, tabId, (v) => v.served !== null, 'start.html reported');
    expect(start.refusal).toBeNull();
    await hoverFor(tab, '#other', 400);
    await hoverFor(tab, '#next', 400);
    await clickAndWait(tab, '#next', site.url('/next.html'));
    expect(site.requests.filter((r) => r.purpose !== undefined)).toEqual([]);
    expect(site.requests.filter((r) => r.path === '/next.html')).toHaveLength(1);
    expect(site.requests.filter((r) => r.path === '/other.html')).toEqual([]);
    const inPage = await servedInPage(tab);
    const view = await waitForView(query, tabId, (v) => v.served !== null, 'next.html reported');
    expect(view.served).toMatchObject({ via: 'network', deliveryType: inPage.deliveryType });
    expect(view.site.speculated).toBe(0);
    const { page: popup, errors } = await openPopupForTab(launched.browser, launched.extensionOrigin, tabId);
    expect(await waitForText(popup, '[data-testid=speculation-served]', (t) => t.length > 0, 'the served line')).toContain('Fetched on the click');
    expect(await waitForText(popup, '[data-testid=speculation-site]', (t) => t.length > 0, 'the site line')).toBe('Nothing fetched ahead on this site yet.');
    expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  }, 90_000);
});
