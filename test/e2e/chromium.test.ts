// The built extension in headless Chromium against the local two-origin test site, with the
// native host registered as `getlist install --user-data-dir` would for a user (and once without).
import fs from 'node:fs';
import type { Page } from 'puppeteer-core';
import type { PageRecord } from '../../src/page';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild, type ExtensionCopy } from './harness/extension-build';
import { findTabId, getPage, openExtensionPage, waitForPage } from './harness/extension-pages';
import { launchChromiumDetailed } from './harness/detailed-capture';
import { launchChromium, type LaunchedChromium } from './harness/launch-chromium';
import { openPopupForTab, waitForText } from './harness/popup';
import { checkPopup } from './harness/popup-checks';
import { checkUnrequested } from './harness/unrequested-checks';
import { documentShown, expectAgreement, expectCompleteDocuments, observeQueuedPage, expectDiscoveryOrder, expectRedirectAgreement, h2Certificate, observeConnections } from './harness/observed-checks';
import { expectBadPortRefused } from './harness/hostile-checks';
import { registerHost } from './harness/register-host';
import { saveScreenshot, saveThemeScreenshots } from './harness/screenshot';
import { loadTestPage, measuredOrigins, missingRequests, unmatchedHandshakes, type LoadedPage } from './harness/site-load';
import { TempDirs } from './harness/temp-dirs';
import { expectRecorderKeepsEveryEntry } from './harness/recorder-checks';
import { startSite, type Site } from './site/site-server';

const PAGES = ['many-images.html', 'late-css.html', 'cross-origin.html'] as const;

describeE2e('e2e: Chromium', () => {
  const dirs = new TempDirs();
  let site: Site;
  let extension: ExtensionCopy;
  // Sites of their own for the connection checks, so every connection the servers log is this load's.
  let connSites: { h1: Site; h2: Site } | undefined;
  let spkiHash = '';
  let queuedTls: { certPath: string; keyPath: string } | undefined;

  beforeAll(async () => {
    requireBrowser('chromium');
    extension = copyExtensionBuild(dirs);
    site = await startSite();
    const tls = h2Certificate(dirs);
    spkiHash = tls.spkiHash;
    queuedTls = tls;
    connSites = { h1: await startSite(), h2: await startSite({ h2: tls }) };
  });
  afterAll(async () => {
    await site?.close();
    await connSites?.h1.close();
    await connSites?.h2.close();
    dirs.removeAll();
  });

  describe('with the native host registered', () => {
    let chromium: LaunchedChromium | undefined;
    let query: Page;
    const loaded = new Map<string, LoadedPage & { tabId: number }>();

    beforeAll(async () => {
      const userDataDir = dirs.make('chromium-profile');
      const home = dirs.make('chromium-home');
      const dataDir = dirs.make('chromium-data');
      await registerHost({ browser: 'chromium', userDataDir, home, dataDir });
      // These checks compare webRequest-derived figures with the servers' log: Detailed capture
      // (granted on the options page, then Chromium restarted, as a user would).
      chromium = await launchChromiumDetailed({ extensionDir: extension.dir, userDataDir, env: { HOME: home, GETLIST_DATA_DIR: dataDir }, spkiHashes: [spkiHash] });
      query = (await openExtensionPage(chromium.browser, `${chromium.extensionOrigin}/${extension.queryPage}`)).page;
    }, 60_000);
    afterAll(async () => {
      await chromium?.close();
    });

    // Pages load one at a time, so each page's share of the server log is unambiguous.
    test.each(PAGES)('%s: the PageRecord lists every request the servers saw', async (name) => {
      if (!chromium) throw new Error('Chromium did not start');
      const load = await loadTestPage(chromium.browser, site, name);
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
      if (!chromium) throw new Error('Chromium did not start');
      await expectRecorderKeepsEveryEntry(chromium.browser, query, site);
    }, 40_000);

    test('a page naming a bad port: Chromium refuses it, and so does the host it hands the page to; the port sees no connection', async () => {
      if (!chromium) throw new Error('Chromium did not start');
      await expectBadPortRefused(chromium.browser, query, site, true);
    }, 40_000);

    test('late-css: the servers saw the background image only the stylesheet names, and the script-inserted image', () => {
      // Guards the site itself: the PageRecord check above is only as good as these late requests.
      expect(loaded.get('late-css.html')?.served).toEqual(expect.arrayContaining([`${site.main}/img/css-background.png`, `${site.main}/img/script-inserted.png`]));
    });

    test('cross-origin: the host measured handshakes to both origins, on connections the servers accepted', async () => {
      const l = loaded.get('cross-origin.html');
      if (!l) throw new Error('cross-origin.html was not loaded');
      const { page: record } = await waitForPage(query, l.tabId, (p) => p.measured !== undefined || p.hostError !== undefined, 'the host\'s measured reply');
      expect(record?.hostError).toBeUndefined();
      expect(record?.measured?.failed).toEqual([]);
      expect(measuredOrigins(record as PageRecord)).toEqual(expect.arrayContaining([site.main, site.other]));
      expect(unmatchedHandshakes(record as PageRecord, site.connections)).toEqual([]);
    });

    test.each(['http/1.1', 'h2'] as const)('connections.html over %s: the popup\'s connections, requests per connection and bytes agree with the servers\' log', async (protocol) => {
      if (!chromium || !connSites) throw new Error('the browser did not start');
      const site = protocol === 'h2' ? connSites.h2 : connSites.h1;
      const { server, popup, record } = await observeConnections(chromium.browser, query, chromium.extensionOrigin, site, `chromium-${protocol.replace('/', '')}`);
      expect(record.navigation?.nextHopProtocol).toBe(protocol);
      expect(server.connections).toBeGreaterThanOrEqual(1);
      expectAgreement(server, popup);
      // Chromium's signals agree: one figure, the server's.
      expect(popup.connectionsMin).toBe(popup.connections);
    }, 40_000);

      // Detailed capture, a page whose requests queue for the browser's connections (a site of its own: every connection new).
      test.each(['http/1.1', 'h2'] as const)('queued.html over %s: the lower bound on connections used never exceeds the servers\' count', async (protocol) => {
        if (!chromium || !queuedTls) throw new Error('the browser did not start');
        await observeQueuedPage(chromium.browser, query, chromium.extensionOrigin, queuedTls, protocol, 'detailed', 'chromium-queued', false);
      }, 40_000);

    test('late-css: discovered ≤ started ≤ ended for every resource, parser-, CSS- and script-found', async () => {
      await expectDiscoveryOrder(query, site, loaded.get('late-css.html'));
    });

    test('a 404 and a non-HTML document get a complete record: status, content type, bytes', async () => {
      if (!chromium) throw new Error('the browser did not start');
      await expectCompleteDocuments(chromium.browser, query, chromium.extensionOrigin, site, 'chromium');
    }, 40_000);

    test('a redirected document: its one hop agrees with the server (URL, status, Location), the popup shows the chain, the HAR has it as an entry', async () => {
      if (!chromium) throw new Error('the browser did not start');
      const from = site.url('index.html?hop=chromium&redirect=301');
      const shown = await documentShown(chromium.browser, query, chromium.extensionOrigin, from, 'chromium-redirect', (p) => p.loadAt !== undefined && p.navigation !== undefined);
      const { hop } = expectRedirectAgreement(site, shown, from, 301);
      // Chromium gives no size of a redirect response: the popup says so rather than count 0.
      expect(hop.responseSize).toBeUndefined();
      expect(shown.bytes).toContain('+1 redirect hops not exposed');
    }, 40_000);

    test('popup: the discoveries the browser never requested are exactly those the servers never received', async () => {
      if (!chromium) throw new Error('Chromium did not start');
      await checkUnrequested(chromium.browser, chromium.extensionOrigin, query, site);
    }, 40_000);

    test('popup: page numbers, waterfall, replay of both strategies on the wire, HAR export', async () => {
      const l = loaded.get('cross-origin.html');
      if (!chromium || !l) throw new Error('cross-origin.html was not loaded');
      const { page: record } = await getPage(query, l.tabId);
      if (!record) throw new Error(`no PageRecord for tab ${l.tabId}`);
      const { page: popup, errors } = await openPopupForTab(chromium.browser, chromium.extensionOrigin, l.tabId);
      try {
        await checkPopup(popup, site, l, record);
      } finally {
        await saveScreenshot(popup, 'chromium-popup-cross-origin').catch(() => undefined);
      }
      // Kept as artifacts: the popup at its real size in both themes, each checked by eye.
      const shots = [
        ...(await saveThemeScreenshots(popup, 'chromium-popup', '[data-testid=waterfall-block]')),
        ...(await popup.click('[data-testid=waterfall-mode-connections]').then(() => saveThemeScreenshots(popup, 'chromium-popup-connections', '[data-testid=waterfall-block]'))),
      ];
      expect(shots.map((f) => fs.statSync(f).size > 10_000)).toEqual([true, true, true, true]);
      expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    }, 40_000);
  });

  describe('without the native host', () => {
    let chromium: LaunchedChromium | undefined;

    beforeAll(async () => {
      const home = dirs.make('chromium-nohost-home');
      chromium = await launchChromium({
        extensionDir: extension.dir,
        userDataDir: dirs.make('chromium-nohost-profile'),
        env: { HOME: home, GETLIST_DATA_DIR: dirs.make('chromium-nohost-data') },
      });
      await chromium.serviceWorker();
    }, 30_000);
    afterAll(async () => {
      await chromium?.close();
    });

    test('the popup says how to install the host, and nothing throws', async () => {
      if (!chromium) throw new Error('Chromium did not start');
      const load = await loadTestPage(chromium.browser, site, 'index.html');
      const query = (await openExtensionPage(chromium.browser, `${chromium.extensionOrigin}/${extension.queryPage}`)).page;
      const tabId = await findTabId(query, load.url);
      const { page: popup, errors } = await openPopupForTab(chromium.browser, chromium.extensionOrigin, tabId);
      try {
        await waitForText(popup, '[data-testid=host-missing]', (t) => t.includes('getlist install'), 'the `getlist install` fix');
        // The documented install from a checkout, never a registry lookup by name.
        const fix = await popup.$eval('[data-testid=host-fix]', (el) => el.textContent ?? '');
        expect(fix).toContain('npm run pack:cli');
        expect(fix).toContain('npm install -g ./getlist-');
        expect(fix).not.toMatch(/npx/);
      } finally {
        await saveScreenshot(popup, 'chromium-popup-host-missing').catch(() => undefined);
      }
      expect({ popup: errors, serviceWorker: chromium.workerErrors }).toEqual({ popup: [], serviceWorker: [] });
    }, 30_000);
  });
});
