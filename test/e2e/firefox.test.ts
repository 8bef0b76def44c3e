// The built extension in headless Firefox ESR (WebDriver BiDi, temporary install) against the
// local two-origin test site, with the native host registered under a temp HOME.
import fs from 'node:fs';
import type { Page } from 'puppeteer-core';
import type { PageRecord } from '../../src/page';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { findTabId, getPage, waitForPage } from './harness/extension-pages';
import { expectBadPortRefused } from './harness/hostile-checks';
import { enableDetailedCaptureFirefox } from './harness/detailed-capture';
import { launchFirefox, type LaunchedFirefox } from './harness/launch-firefox';
import { countOf, openPopupForTab } from './harness/popup';
import { checkUnrequested } from './harness/unrequested-checks';
import { checkPopup } from './harness/popup-checks';
import { documentShown, expectAgreement, expectCompleteDocuments, observeQueuedPage, expectDiscoveryOrder, expectRedirectAgreement, h2Certificate, observeConnections } from './harness/observed-checks';
import { registerHost } from './harness/register-host';
import { saveScreenshot, saveThemeScreenshots } from './harness/screenshot';
import { loadTestPage, measuredOrigins, missingRequests, unmatchedHandshakes, type LoadedPage } from './harness/site-load';
import { TempDirs } from './harness/temp-dirs';
import { expectRecorderKeepsEveryEntry } from './harness/recorder-checks';
import { startSite, type Site } from './site/site-server';

const PAGES = ['many-images.html', 'late-css.html', 'cross-origin.html'] as const;

describeE2e('e2e: Firefox ESR', () => {
  const dirs = new TempDirs();
  let site: Site;
  let firefox: LaunchedFirefox | undefined;
  let query: Page;
  const loaded = new Map<string, LoadedPage & { tabId: number }>();
  // Sites of their own for the connection checks, so every connection the servers log is this load's.
  let connSites: { h1: Site; h2: Site } | undefined;
  let queuedTls: { certPath: string; keyPath: string } | undefined;

  beforeAll(async () => {
    requireBrowser('firefox');
    const extension = copyExtensionBuild(dirs);
    site = await startSite();
    queuedTls = h2Certificate(dirs);
    connSites = { h1: await startSite(), h2: await startSite({ h2: queuedTls }) };
    const home = dirs.make('firefox-home');
    const dataDir = dirs.make('firefox-data');
    await registerHost({ browser: 'firefox', home, dataDir });
    firefox = await launchFirefox({ extensionDir: extension.dir, home, profileDir: dirs.make('firefox-profile'), env: { GETLIST_DATA_DIR: dataDir } });
    // These checks compare webRequest-derived figures with the servers' log: Detailed capture.
    query = await enableDetailedCaptureFirefox(firefox.browser, firefox.extensionOrigin, extension.queryPage);
  }, 60_000);
  afterAll(async () => {
    await firefox?.close();
    await site?.close();
    await connSites?.h1.close();
    await connSites?.h2.close();
    dirs.removeAll();
  });

  // MV3 in Firefox makes host permissions optional (the user grants them in about:addons), but
  // a temporary install (BiDi webExtension.install, as about:debugging) grants them all.
  test('the temporarily installed extension holds host permissions for both test origins', async () => {
    const origins = [`${site.main}/*`, `${site.other}/*`];
    const granted = await query.evaluate(async (o) => {
      const g = globalThis as unknown as { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } };
      return g.browser.permissions.contains({ origins: o });
    }, origins);
    expect(granted).toBe(true);
    // …so the options page (open since start-up) shows no grant-access block.
    expect(await countOf(query, '[data-testid=grant-access]')).toBe(0);
  });

  // Pages load one at a time, so each page's share of the server log is unambiguous.
  test.each(PAGES)('%s: the PageRecord lists every request the servers saw', async (name) => {
    if (!firefox) throw new Error('Firefox did not start');
    const load = await loadTestPage(firefox.browser, site, name);
    const tabId = await findTabId(query, load.url);
    loaded.set(name, { ...load, tabId });
    expect(load.served.length).toBeGreaterThan(name === 'many-images.html' ? 24 : 3);
    const { page } = await waitForPage(query, tabId, (p) => p.url === load.url && missingRequests(p, load.served).length === 0, 'every URL the servers saw in page.requests');
    expect(page?.requests.length).toBeGreaterThanOrEqual(load.served.length);
    // Detailed capture granted (beforeAll): webRequest reported this page.
    expect(page?.capture).toBe('detailed');
  });

  // Detailed capture trades milliseconds per load (early-recorder.ts) for the recorder at document_start.
  test('Detailed capture registers the document_start recorder, which keeps every entry past a full buffer (buffer-full.html, 300 images)', async () => {
    if (!firefox) throw new Error('Firefox did not start');
    await expectRecorderKeepsEveryEntry(firefox.browser, query, site);
  }, 40_000);

  test('a page naming a bad port: Firefox refuses it; the host refuses each bad origin the page\'s DOM names to it; the port sees no connection', async () => {
    if (!firefox) throw new Error('Firefox did not start');
    await expectBadPortRefused(firefox.browser, query, site, 'if-named');
  }, 40_000);

  test('cross-origin: the host measured handshakes to both origins, on connections the servers accepted', async () => {
    const l = loaded.get('cross-origin.html');
    if (!l) throw new Error('cross-origin.html was not loaded');
    const { page: record } = await waitForPage(query, l.tabId, (p) => p.measured !== undefined || p.hostError !== undefined, "the host's measured reply");
    expect(record?.hostError).toBeUndefined();
    expect(record?.measured?.failed).toEqual([]);
    expect(measuredOrigins(record as PageRecord)).toEqual(expect.arrayContaining([site.main, site.other]));
    expect(unmatchedHandshakes(record as PageRecord, site.connections)).toEqual([]);
  });

  test.each(['http/1.1', 'h2'] as const)('connections.html over %s: the popup\'s connections, requests per connection and bytes agree with the servers\' log', async (protocol) => {
    if (!firefox || !connSites) throw new Error('the browser did not start');
    const site = protocol === 'h2' ? connSites.h2 : connSites.h1;
    const { server, popup, record } = await observeConnections(firefox.browser, query, firefox.extensionOrigin, site, `firefox-${protocol.replace('/', '')}`);
    expect(record.navigation?.nextHopProtocol).toBe(protocol);
    expect(server.connections).toBeGreaterThanOrEqual(1);
    expectAgreement(server, popup);
  }, 40_000);

  // Detailed capture, a page whose requests queue for the browser's connections (a site of its own: every connection new).
  test.each(['http/1.1', 'h2'] as const)('queued.html over %s: the lower bound on connections used never exceeds the servers\' count', async (protocol) => {
    if (!firefox || !queuedTls) throw new Error('the browser did not start');
    await observeQueuedPage(firefox.browser, query, firefox.extensionOrigin, queuedTls, protocol, 'detailed', 'firefox-queued', true);
  }, 40_000);

  test('late-css: discovered ≤ started ≤ ended for every resource, parser-, CSS- and script-found', async () => {
    await expectDiscoveryOrder(query, site, loaded.get('late-css.html'));
  });

  test('a 404 and a non-HTML document get a complete record: status, content type, bytes', async () => {
    if (!firefox) throw new Error('the browser did not start');
    await expectCompleteDocuments(firefox.browser, query, firefox.extensionOrigin, site, 'firefox');
  }, 40_000);

  test('a redirected document: its one hop agrees with the server (URL, status, Location, bytes), the popup shows the chain, the HAR has it as an entry', async () => {
    if (!firefox) throw new Error('the browser did not start');
    const from = site.url('index.html?hop=firefox&redirect=302');
    const shown = await documentShown(firefox.browser, query, firefox.extensionOrigin, from, 'firefox-redirect', (p) => p.loadAt !== undefined && p.navigation !== undefined);
    const { hop, served } = expectRedirectAgreement(site, shown, from, 302);
    // Firefox's webRequest responseSize is the hop's size only where it agrees with the server's
    // bytes; ESR 153 reads 0 (no size: page-bytes.ts exposedSize), and the popup says so.
    if (hop.responseSize === undefined) expect(shown.bytes).toContain('+1 redirect hops not exposed');
    else expect({ size: hop.responseSize, shown: shown.bytes.includes('redirects ') }).toEqual({ size: served.responseBytes, shown: true });
  }, 40_000);

  test('popup: the discoveries the browser never requested are exactly those the servers never received', async () => {
    if (!firefox) throw new Error('Firefox did not start');
    await checkUnrequested(firefox.browser, firefox.extensionOrigin, query, site);
  }, 40_000);

  test('popup (moz-extension://<preset uuid>/popup.html?tabId=N): page numbers, waterfall, replay on the wire, HAR export', async () => {
    const l = loaded.get('cross-origin.html');
    if (!firefox || !l) throw new Error('cross-origin.html was not loaded');
    const { page: record } = await getPage(query, l.tabId);
    if (!record) throw new Error(`no PageRecord for tab ${l.tabId}`);
    const { page: popup, errors } = await openPopupForTab(firefox.browser, firefox.extensionOrigin, l.tabId);
    try {
      await checkPopup(popup, site, l, record);
      expect(await countOf(popup, '[data-testid=grant-access]')).toBe(0);
    } finally {
      await saveScreenshot(popup, 'firefox-popup-cross-origin').catch(() => undefined);
    }
    // Kept as artifacts: the popup at its real size in both themes, each checked by eye.
    const shots = [
      ...(await saveThemeScreenshots(popup, 'firefox-popup', '[data-testid=waterfall-block]')),
      ...(await popup.click('[data-testid=waterfall-mode-connections]').then(() => saveThemeScreenshots(popup, 'firefox-popup-connections', '[data-testid=waterfall-block]'))),
    ];
    expect(shots.map((f) => fs.statSync(f).size > 10_000)).toEqual([true, true, true, true]);
    expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  }, 40_000);
});
