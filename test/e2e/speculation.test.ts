// The next page before the click, in real Chromium with the built extension (lean capture): a
// pointer resting on a same-origin link makes Chromium prefetch it through the speculation rule the
// extension inserts, the click is served from that prefetch (the page's own Navigation Timing says
// `navigational-prefetch`), the https site's log shows one fetch of the document and none of any
// refused link, and the popup's figures agree with the log and with the browser's own timing.
import type { Page } from 'puppeteer-core';
import type { SpeculationView } from '../../src/page/speculation/speculation-types';
import { describeE2e } from './harness/browsers';
import { findTabId, sendUi } from './harness/extension-pages';
import { launchChromium, type LaunchedChromium } from './harness/launch-chromium';
import { openPopupForTab, waitForText } from './harness/popup';
import { clickAndWait, hoverFor, openTab, parkPointer, servedInPage, useSpeculationFixture, waitForView } from './harness/speculation-check';
import { REFUSED_LINKS, type SpeculationSite } from './site/speculation-site';

describeE2e('e2e speculation: chromium (lean capture)', () => {
  const fx = useSpeculationFixture('chromium', async (dirs, extensionDir, spkiHash) => {
    const c = await launchChromium({ extensionDir, userDataDir: dirs.make('spec-chromium-profile'), env: { HOME: dirs.make('spec-chromium-home'), GETLIST_DATA_DIR: dirs.make('spec-chromium-data') }, spkiHashes: [spkiHash] });
    await c.serviceWorker();
    return c;
  });
  let site: SpeculationSite;
  let launched: LaunchedChromium | undefined;
  let query: Page;
  let tab: Page;
  let tabId: number;
  let view: SpeculationView;
  let inPage: Awaited<ReturnType<typeof servedInPage>>;
  beforeAll(() => {
    ({ site, launched, query } = fx);
  });

  const fetchesOf = (path: string) => site.requests.filter((r) => r.path === path);

  test('earlier visits, typed with the pointer parked off every link: fetched on navigation, nothing ahead', async () => {
    if (!launched) throw new Error('chromium did not start');
    tab = await openTab(launched.browser, site.url('/next.html'));
    tabId = await findTabId(query, site.url('/next.html'));
    await parkPointer(tab);
    await waitForView(query, tabId, (v) => v.served !== null, 'the first visit reported');
    await tab.goto(site.url('/other.html'), { waitUntil: 'load' });
    await waitForView(query, tabId, (v) => v.served !== null, 'other.html reported');
    expect(site.requests.filter((r) => r.purpose !== undefined)).toEqual([]);
  }, 60_000);

  test('on start.html, hovering every refused link and pressing them asks for none of them', async () => {
    const mark = site.requests.length;
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    view = await waitForView(query, tabId, (v) => v.links !== null && v.served !== null, 'start.html links');
    expect(view.refusal).toBeNull();
    const expected: Record<string, number> = {};
    for (const l of REFUSED_LINKS) expected[l.code] = (expected[l.code] ?? 0) + 1;
    expect(view.links?.refused).toEqual(expected);
    for (const l of REFUSED_LINKS) await hoverFor(tab, `#${l.id}`, 400, { press: true });
    // The last hover's rule would be in by now (65 ms): give a refused one the time to show up wrongly.
    await new Promise((r) => setTimeout(r, 500));
    const refusedPaths = REFUSED_LINKS.map((l) => {
      const u = new URL(l.href.replace('{{HOST}}', 'x').replace('{{PORT}}', '1'), site.origin);
      return u.pathname + u.search;
    });
    // The log after the page itself: nothing but the page, and none of the refused URLs at all.
    expect(site.requests.slice(mark).map((r) => r.path)).toEqual(['/start.html']);
    expect(site.requests.filter((r) => refusedPaths.includes(r.path))).toEqual([]);
    view = await waitForView(query, tabId, () => true, 'the view');
    expect(view.speculatedHere).toEqual([]);
  }, 60_000);

  test('a 400 ms hover prefetches the link; the click is served from the prefetch, one fetch in the log', async () => {
    const before = fetchesOf('/next.html').length;
    await hoverFor(tab, '#other', 400);
    await hoverFor(tab, '#next', 400);
    await clickAndWait(tab, '#next', site.url('/next.html'));
    await parkPointer(tab);
    inPage = await servedInPage(tab);
    expect(inPage.deliveryType).toBe('navigational-prefetch');
    const next = fetchesOf('/next.html').slice(before);
    expect(next.map((r) => r.purpose)).toEqual(['prefetch']);
    expect(fetchesOf('/other.html').filter((r) => r.purpose === 'prefetch')).toHaveLength(1);
  }, 60_000);

  test('the extension reports what the browser says it served, and what it saved against the earlier visit', async () => {
    view = await waitForView(query, tabId, (v) => v.served !== null && v.served.via === 'prefetch', 'the prefetched visit reported');
    expect(view.served?.deliveryType).toBe(inPage.deliveryType);
    expect(view.served?.responseStartMs).toBeCloseTo(inPage.responseStartMs, 0);
    expect(inPage.lcpMs).toBeDefined();
    expect(view.served?.lcpMs).toBeCloseTo(inPage.lcpMs ?? NaN, 0);
    expect(view.baseline?.visits).toBe(1);
    expect(view.saved?.responseStartMs).toBeCloseTo((view.baseline?.responseStartMs ?? NaN) - inPage.responseStartMs, 0);
  }, 30_000);

  test('the site outcome agrees with the log: 2 prefetched, 1 followed, the other’s body bytes wasted', async () => {
    view = await waitForView(query, tabId, (v) => v.site.speculated > 0, 'the start page settled');
    const prefetched = new Set(site.requests.filter((r) => r.purpose === 'prefetch').map((r) => r.path));
    expect(view.site.speculated).toBe(prefetched.size);
    expect(view.site.followed).toBe(1);
    expect(view.site.hitRate).toBeCloseTo(0.5);
    expect(view.site.wastedBytes).toBe(site.bodyBytes('/other.html'));
    expect(view.site.wastedUnsized).toBe(0);
  }, 30_000);

  test('the popup shows how the page was served, the time saved and the site’s hit rate', async () => {
    if (!launched) throw new Error('chromium did not start');
    const { page: popup, errors } = await openPopupForTab(launched.browser, launched.extensionOrigin, tabId);
    const served = await waitForText(popup, '[data-testid=speculation-served]', (t) => t.includes('prefetch'), 'the served line');
    expect(served).toContain('navigational-prefetch');
    const site = await waitForText(popup, '[data-testid=speculation-site]', (t) => t.includes('hit rate'), 'the site line');
    expect(site).toContain('2 fetched ahead, 1 followed (hit rate 50 %)');
    expect(site).toContain(`${view.site.wastedBytes} B`);
    expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    await popup.close();
  }, 30_000);

  test('a page with speculation rules of its own is left alone: no prefetch of the hovered link', async () => {
    const before = fetchesOf('/next.html').length;
    await tab.bringToFront();
    await tab.goto(site.url('/own-rules.html'), { waitUntil: 'load' });
    view = await waitForView(query, tabId, (v) => v.refusal !== null, 'own-rules.html refused');
    expect(view.refusal).toBe('own-rules');
    await hoverFor(tab, '#next', 400);
    await new Promise((r) => setTimeout(r, 500));
    expect(fetchesOf('/next.html').slice(before)).toEqual([]);
  }, 30_000);

  test('Save-Data (the browser asks for less data), the per-site switch, excluded sites and speculation off: refused, nothing fetched', async () => {
    const nextFetches = () => fetchesOf('/next.html').length;
    const tryHover = async (why: string) => {
      const before = nextFetches();
      await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
      // The script's report (Save-Data), or the background's own refusal before any script (the rest).
      const v = await waitForView(query, tabId, (x) => x.refusal !== null, `start.html refused: ${why}`);
      await hoverFor(tab, '#next', 400);
      await new Promise((r) => setTimeout(r, 300));
      expect(nextFetches()).toBe(before);
      expect(v.speculatedHere).toEqual([]);
      return v.refusal;
    };
    const cdp = await tab.createCDPSession();
    await cdp.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
    expect(await tryHover('save-data')).toBe('save-data');
    await cdp.send('Emulation.setDataSaverOverride', {});
    await cdp.detach();
    for (const [settings, code] of [[{ speculationDisabledSites: ['127.0.0.1'] }, 'site-off'], [{ excludedSites: ['127.0.0.1'] }, 'excluded'], [{ speculation: false }, 'off']] as const) {
      expect((await sendUi(query, { type: 'set-settings', settings }))?.type).toBe('set-settings');
      expect(await tryHover(code)).toBe(code);
      await sendUi(query, { type: 'set-settings', settings: { speculationDisabledSites: [], excludedSites: [], speculation: true } });
    }
  }, 90_000);

  test('with prerender allowed, the hovered link is prerendered and the click activates it: one fetch, marked prerender', async () => {
    const set = await sendUi(query, { type: 'set-settings', settings: { prerender: true } });
    expect(set?.type).toBe('set-settings');
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    await waitForView(query, tabId, (v) => v.links !== null, 'start.html links');
    const before = fetchesOf('/next.html').length;
    await hoverFor(tab, '#next', 400);
    await clickAndWait(tab, '#next', site.url('/next.html'));
    await parkPointer(tab);
    const prerendered = await servedInPage(tab);
    expect(prerendered.activationStart).toBeGreaterThan(0);
    expect(fetchesOf('/next.html').slice(before).map((r) => r.purpose)).toEqual(['prefetch;prerender']);
    view = await waitForView(query, tabId, (v) => v.served !== null, 'the prerendered visit reported');
    expect(view.served?.via).toBe('prerender');
    expect(view.served?.responseStartMs).toBeCloseTo(prerendered.responseStartMs, 0);
  }, 60_000);

  test('a hover on a second link withdraws the first link’s prerender, and the link the pointer rests on stays prerendered', async () => {
    const prerenders = (path: string, from: number) => fetchesOf(path).filter((r) => r.at >= from).map((r) => r.purpose ?? 'navigation');
    // The pointer leaves #other for #next; then the page itself goes to #other's URL, with no hover:
    // a prerender of it still standing would be activated (activationStart > 0).
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    await waitForView(query, tabId, (v) => v.links !== null, 'start.html links');
    let from = Date.now();
    await hoverFor(tab, '#other', 400);
    await hoverFor(tab, '#next', 400);
    await parkPointer(tab);
    await Promise.all([tab.waitForNavigation({ waitUntil: 'load' }), tab.evaluate('setTimeout(() => { location.href = "/other.html"; }, 0)')]);
    expect((await servedInPage(tab)).activationStart).toBe(0);
    expect(prerenders('/other.html', from)).toEqual(['prefetch;prerender', 'navigation']);
    // The same two hovers, and the click on #next: its prerender was kept and is activated.
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    await waitForView(query, tabId, (v) => v.links !== null && v.served !== null, 'start.html again');
    from = Date.now();
    await hoverFor(tab, '#other', 400);
    await hoverFor(tab, '#next', 400);
    await clickAndWait(tab, '#next', site.url('/next.html'));
    await parkPointer(tab);
    expect((await servedInPage(tab)).activationStart).toBeGreaterThan(0);
    expect(prerenders('/next.html', from)).toEqual(['prefetch;prerender']);
  }, 60_000);

  /**
   * From start.html, a 400 ms hover on `#id` and its click: how the browser served the page it
   * opened, and the purposes of the server's fetches of that page since the hover.
   */
  const hoverAndFollow = async (id: string, what: string) => {
    const path = `/${id}.html`;
    await tab.goto(site.url('/start.html'), { waitUntil: 'load' });
    await waitForView(query, tabId, (v) => v.links !== null && v.served !== null, `start.html, ${what}`);
    const from = Date.now();
    await hoverFor(tab, `#${id}`, 400);
    await clickAndWait(tab, `#${id}`, site.url(path));
    await parkPointer(tab);
    return { served: await servedInPage(tab), purposes: fetchesOf(path).filter((r) => r.at >= from).map((r) => r.purpose ?? 'navigation') };
  };

  test('with prerender allowed, a hovered page never loaded before is only prefetched, and prerendered once it has been', async () => {
    const first = await hoverAndFollow('fresh', 'fresh.html not loaded yet');
    expect(first.served.activationStart).toBe(0);
    expect(first.served.deliveryType).toBe('navigational-prefetch');
    expect(first.purposes).toEqual(['prefetch']);
    await waitForView(query, tabId, (v) => v.served !== null && v.served.via === 'prefetch', 'fresh.html reported');
    const again = await hoverAndFollow('fresh', 'fresh.html loaded once');
    expect(again.served.activationStart).toBeGreaterThan(0);
    expect(again.purposes).toEqual(['prefetch;prerender']);
  }, 60_000);

  test('at the eager eagerness, a hover prerenders a page never loaded before too', async () => {
    expect((await sendUi(query, { type: 'set-settings', settings: { eagerness: 'eager' } }))?.type).toBe('set-settings');
    const unseen = await hoverAndFollow('unseen', 'eager');
    expect(unseen.served.activationStart).toBeGreaterThan(0);
    expect(unseen.purposes).toEqual(['prefetch;prerender']);
    await sendUi(query, { type: 'set-settings', settings: { eagerness: 'moderate' } });
  }, 60_000);
});
