// Lean capture, the default (no webRequest, no declarativeNetRequest held), in headless Chromium
// and Firefox ESR: the popup's figures agree with the test servers' log where the page's own
// Resource and Navigation Timing expose them (connections, bytes ±1 %, document status, every
// request the servers saw), and the popup says "not exposed" where they do not (redirect hops,
// headers, addresses) with the button that turns on Detailed capture.
import type { Browser, Page, WebWorker } from 'puppeteer-core';
import type { PageRecord } from '../../src/page';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { findTabId, openExtensionPage, sendUi, waitForPage } from './harness/extension-pages';
import { LEARN_DELAY_MS } from '../../src/page/hints/visit-end';
import { launchChromium } from './harness/launch-chromium';
import { launchFirefox } from './harness/launch-firefox';
import { connectsShown, documentShown, expectAgreement, observeQueuedPage, h2Certificate, observeConnections } from './harness/observed-checks';
import { countOf, openPopupForTab, waitForText } from './harness/popup';
import { registerHost } from './harness/register-host';
import { loadTestPage, missingRequests } from './harness/site-load';
import { BUFFER_PAGE_IMAGES, imageTimings, loadBufferPage, RESOURCE_TIMING_BUFFER, registeredScripts } from './harness/recorder-checks';
import { TempDirs } from './harness/temp-dirs';
import { isFromHost, startSite, type Site } from './site/site-server';

type Launched = { browser: Browser; extensionOrigin: string; close(): Promise<void>; serviceWorker?: () => Promise<WebWorker> };
type Name = 'chromium' | 'firefox';

function suite(name: Name, launch: (dirs: TempDirs, extensionDir: string, spkiHash: string) => Promise<Launched>): void {
  describeE2e(`e2e lean capture: ${name}`, () => {
    const dirs = new TempDirs();
    let site: Site;
    let connSites: { h1: Site; h2: Site };
    let launched: Launched | undefined;
    let query: Page;
    let tlsForQueued: { certPath: string; keyPath: string };

    beforeAll(async () => {
      requireBrowser(name);
      const extension = copyExtensionBuild(dirs);
      const tls = h2Certificate(dirs);
      tlsForQueued = tls;
      site = await startSite();
      connSites = { h1: await startSite(), h2: await startSite({ h2: tls }) };
      launched = await launch(dirs, extension.dir, tls.spkiHash);
      query = (await openExtensionPage(launched.browser, `${launched.extensionOrigin}/${extension.queryPage}`)).page;
    }, 40_000);
    afterAll(async () => {
      await launched?.close();
      await site?.close();
      await connSites?.h1.close();
      await connSites?.h2.close();
      dirs.removeAll();
    });

    test('the extension holds neither webRequest nor declarativeNetRequest', async () => {
      const held = await query.evaluate(() => {
        const g = globalThis as unknown as { browser?: { permissions: { getAll(): Promise<{ permissions?: string[] }> } }; chrome?: { permissions: { getAll(): Promise<{ permissions?: string[] }> } } };
        return (g.browser ?? g.chrome)?.permissions.getAll().then((p) => p.permissions ?? []);
      });
      expect(held).toEqual(expect.arrayContaining(['webNavigation']));
      expect((held ?? []).filter((p) => p === 'webRequest' || p.startsWith('declarativeNetRequest'))).toEqual([]);
    });

    test('many-images.html: the record lists exactly the requests the servers saw, from the page\'s own timing', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const load = await loadTestPage(launched.browser, site, 'many-images.html');
      const tabId = await findTabId(query, load.url);
      const { page } = await waitForPage(query, tabId, (p) => p.url === load.url && missingRequests(p, load.served).length === 0, 'every URL the servers saw in page.requests');
      const record = page as PageRecord;
      expect(record.capture).toBe('lean');
      // The browser's record and the servers' log: the same URLs, none the servers did not see.
      expect([...new Set(record.requests.map((r) => r.url))].sort()).toEqual([...load.served].sort());
      expect(record.requests.every((r) => r.requestId.startsWith('rt:') && r.ip === undefined && r.requestHeaders === undefined)).toBe(true);
      // 24 images fit the page's Resource Timing buffer: nothing is said to be missing.
      expect(record.timingsBufferFull).toBeUndefined();
      // Nothing ran before load to time insertions: every discovery of a fetched image is its request's own start.
      const withDiscoveries = (await waitForPage(query, tabId, (p) => p.discoveries.filter((d) => d.tag === 'img').length >= 24, '24 image discoveries')).page as PageRecord;
      const started = new Map(withDiscoveries.timings.map((t) => [t.name, t.startTime]));
      const images = withDiscoveries.discoveries.filter((d) => d.tag === 'img');
      expect(images.length).toBe(24);
      for (const d of images) expect({ url: d.url, atMs: d.atMs, source: d.atSource }).toEqual({ url: d.url, atMs: started.get(d.url), source: 'resource-timing' });
      await load.tab.close();
    }, 40_000);

    // Lean capture listens to a navigation's commit and load only (page-events.ts): the record's start
    // and DOMContentLoaded are the page's own, read here from the page's main world.
    test('the record starts at the page\'s own navigation start, with its DOMContentLoaded; the next navigation starts a new record', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const load = await loadTestPage(launched.browser, site, 'index.html');
      const tabId = await findTabId(query, load.url);
      const own = await load.tab.evaluate(() => {
        const perf = performance as unknown as { timeOrigin: number; getEntriesByType(type: string): Array<{ domContentLoadedEventEnd: number; loadEventEnd: number }> };
        const nav = perf.getEntriesByType('navigation')[0];
        return { timeOrigin: perf.timeOrigin, dcl: nav?.domContentLoadedEventEnd ?? NaN, loadEnd: nav?.loadEventEnd ?? NaN };
      });
      const first = (await waitForPage(query, tabId, (p) => p.url === load.url && p.navigation !== undefined && p.loadAt !== undefined, 'the page timing and load')).page as PageRecord;
      expect(first.capture).toBe('lean');
      // Navigation Timing's values are whole ms in the record (timing-mapping.ts).
      expect(Math.abs(first.startedAt - own.timeOrigin)).toBeLessThanOrEqual(1);
      expect(Math.abs((first.domContentLoadedAt ?? NaN) - (own.timeOrigin + own.dcl))).toBeLessThanOrEqual(1.5);
      // The commit came after the navigation started; the load event (webNavigation's) after the page's own load end.
      expect(first.committedAt).toBeGreaterThanOrEqual(first.startedAt);
      expect(first.loadAt).toBeGreaterThanOrEqual(own.timeOrigin + own.loadEnd - 1);

      const next = site.url('late-css.html');
      await load.tab.goto(next, { waitUntil: 'load' });
      const second = (await waitForPage(query, tabId, (p) => p.url === next && p.navigation !== undefined, 'the next page\'s record')).page as PageRecord;
      expect(second.pageId).not.toBe(first.pageId);
      expect(second.startedAt).toBeGreaterThan(first.loadAt ?? Infinity);

      await load.tab.close();
    }, 40_000);

    // Chromium only: Firefox's events have hasListener(fn) but no hasListeners() to ask without the
    // listener's own reference (its event page is reachable, through runtime.getBackgroundPage()).
    if (name === 'chromium') {
      test('the background listens to a navigation\'s commit and load, not to its start or DOMContentLoaded', async () => {
        const worker = await launched?.serviceWorker?.();
        if (!worker) throw new Error(`${name}: no service worker`);
        const held = await worker.evaluate(() => {
          const n = (globalThis as unknown as { chrome: { webNavigation: Record<string, { hasListeners(): boolean }> } }).chrome.webNavigation;
          return Object.fromEntries(['onBeforeNavigate', 'onCommitted', 'onDOMContentLoaded', 'onCompleted', 'onHistoryStateUpdated'].map((e) => [e, n[e]?.hasListeners() ?? false]));
        });
        expect(held).toEqual({ onBeforeNavigate: false, onCommitted: true, onDOMContentLoaded: false, onCompleted: true, onHistoryStateUpdated: true });
      });
    }

    test('no script runs at document_start: the extension has registered none and declares none', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      expect(await registeredScripts(query)).toEqual([]);
    });

    test('buffer-full.html (300 images): the record holds the 250 entries of the full buffer, says so, and the popup tells the user', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const { load, record, images } = await loadBufferPage(launched.browser, query, site, false);
      // The servers saw every image; the page's buffer kept the first 250 to end, and lean capture has no other source.
      expect(images.length).toBe(BUFFER_PAGE_IMAGES);
      expect(imageTimings(record).length).toBe(RESOURCE_TIMING_BUFFER);
      expect(record.timingsBufferFull).toBe(true);
      const tabId = await findTabId(query, load.url);
      const { page: popup, errors } = await openPopupForTab(launched.browser, launched.extensionOrigin, tabId);
      const note = await waitForText(popup, '[data-testid=lean-capture]', (t) => t.includes('buffer was full'), 'the full-buffer note');
      expect(note).toContain(`Resource Timing buffer was full (${RESOURCE_TIMING_BUFFER} entries`);
      expect(await popup.$eval('[data-testid=lean-capture]', (el) => el.getAttribute('data-buffer-full'))).toBe('true');
      expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
      await popup.close();
      await load.tab.close();
    }, 40_000);

    test.each(['http/1.1', 'h2'] as const)('connections.html over %s: connections, requests and bytes agree with the servers\' log', async (protocol) => {
      if (!launched) throw new Error(`${name} did not start`);
      const s = protocol === 'h2' ? connSites.h2 : connSites.h1;
      const { server, popup, record } = await observeConnections(launched.browser, query, launched.extensionOrigin, s, `${name}-lean-${protocol.replace('/', '')}`);
      expect(record.capture).toBe('lean');
      expect(record.navigation?.nextHopProtocol).toBe(protocol);
      expectAgreement(server, popup);
      if (name === 'chromium') expect(popup.connectionsMin).toBe(popup.connections);
    }, 40_000);

    // 18 images held back 150 ms: most wait in the browser's queue for one of its connections, so
    // their start times overlap far more than their time on a connection (requestStart…responseEnd).
    test.each(['http/1.1', 'h2'] as const)('queued.html over %s: the lower bound on connections used never exceeds the servers\' count', async (protocol) => {
      if (!launched) throw new Error(`${name} did not start`);
      // Firefox shows a connect phase for every connection it opens for a waiting request; Chromium
      // hands requests the sockets it preconnected at navigation start without one.
      const { server, popup, record, accepted } = await observeQueuedPage(launched.browser, query, launched.extensionOrigin, tlsForQueued, protocol, 'lean', `${name}-lean-queued`, name === 'firefox');
      expect(server.connections).toBeGreaterThanOrEqual(1);
      expect(server.connections).toBeLessThanOrEqual(protocol === 'h2' ? 1 : 6);
      // Firefox's count is exact unless a connection it opened ahead carried a request (connectsShown).
      if (protocol === 'http/1.1' && (name === 'chromium' || connectsShown(server, record) === server.connections)) expect(popup.bound).toBe(name === 'chromium' ? 'lower' : 'exact');
      if (process.env.GETLIST_E2E_DEBUG) console.log(`${name} queued ${protocol}: server used ${server.connections}, accepted ${accepted}; popup ≥ ${popup.usedAtLeast} (min ${popup.connectionsMin}), opened ${popup.opened}: ${popup.text}`);
    }, 40_000);

    // The browser's own connections reach the host's store LEARN_DELAY_MS after load (browser-handshake-recorder.ts):
    // one record per connection the popup says opened, each a connection the site's servers accepted;
    // in Firefox, exactly the servers' connections whose first request shows its connect phase.
    test('connections.html: the browser\'s own handshake records in the store, one per connection the popup says opened', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const s = await startSite();
      try {
        const { server, popup, record } = await observeConnections(launched.browser, query, launched.extensionOrigin, s, `${name}-lean-browser-handshakes`);
        const origins = new Set([s.main, s.other]);
        const deadline = Date.now() + LEARN_DELAY_MS + 10_000;
        let mine: number | undefined;
        while (Date.now() < deadline) {
          const reply = await sendUi(query, { type: 'stats', source: 'browser' });
          const groups = reply.type === 'stats' ? reply.stats.groups.filter((g) => g.group === 'origin' && origins.has(g.key)) : [];
          mine = groups.reduce((sum, g) => sum + g.count, 0);
          if (mine >= popup.opened && mine > 0) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        expect(mine).toBeGreaterThan(0);
        expect(mine).toBe(popup.opened);
        expect(mine).toBeLessThanOrEqual(s.connections.length);
        if (name === 'firefox') expect(mine).toBe(connectsShown(server, record));
      } finally {
        await s.close();
      }
    }, 40_000);

    // Navigation Timing's responseStatus and contentType: both browsers expose them (Chromium 156, Firefox ESR 153).
    test('a 404 document: the status and content type the server sent', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const url = site.url('missing.html');
      const shown = await documentShown(launched.browser, query, launched.extensionOrigin, url, `${name}-lean-404`, (p) => p.loadAt !== undefined && p.navigation !== undefined);
      const served = site.requests.filter((r) => r.url === url && !isFromHost(r));
      expect(served).toHaveLength(1);
      expect(shown.record.capture).toBe('lean');
      expect(shown.status).toBe('404');
      expect(shown.text).toMatch(/^404 · text\/plain/);
    }, 40_000);

    test('a redirected document: the popup says its hop is not exposed, never a status it did not see', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const from = site.url(`index.html?hop=${name}-lean&redirect=301`);
      const shown = await documentShown(launched.browser, query, launched.extensionOrigin, from, `${name}-lean-redirect`, (p) => p.loadAt !== undefined && p.navigation !== undefined);
      expect(site.requests.filter((r) => r.url === from && !isFromHost(r))).toHaveLength(1);
      expect(shown.text).toMatch(/^1 redirect\(s\), not exposed → 200 · /);
      expect(shown.text).not.toContain('301');
      // The bytes leave the hop out, and say so.
      expect(shown.bytes).toContain('+1 redirect hops not exposed');
    }, 40_000);

    test('the popup names what lean capture does not expose, with the Detailed capture button', async () => {
      if (!launched) throw new Error(`${name} did not start`);
      const load = await loadTestPage(launched.browser, site, 'index.html');
      const tabId = await findTabId(query, load.url);
      await waitForPage(query, tabId, (p) => p.navigation !== undefined, 'the page timing');
      const { page: popup, errors } = await openPopupForTab(launched.browser, launched.extensionOrigin, tabId);
      const note = await waitForText(popup, '[data-testid=lean-capture]', (t) => t.length > 0, 'the lean capture note');
      expect(note).toContain('Not exposed — turn on Detailed capture');
      expect(note).not.toContain('buffer was full');
      expect(await countOf(popup, '[data-testid=detailed-capture-button]')).toBe(1);
      expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
      await popup.close();
      await load.tab.close();
    }, 30_000);
  });
}

suite('chromium', async (dirs, extensionDir, spkiHash) => {
  const userDataDir = dirs.make('lean-chromium-profile');
  const home = dirs.make('lean-chromium-home');
  const dataDir = dirs.make('lean-chromium-data');
  await registerHost({ browser: 'chromium', userDataDir, home, dataDir });
  const c = await launchChromium({ extensionDir, userDataDir, env: { HOME: home, GETLIST_DATA_DIR: dataDir }, spkiHashes: [spkiHash] });
  await c.serviceWorker();
  return c;
});

suite('firefox', async (dirs, extensionDir) => {
  const home = dirs.make('lean-firefox-home');
  const dataDir = dirs.make('lean-firefox-data');
  await registerHost({ browser: 'firefox', home, dataDir });
  return launchFirefox({ extensionDir, home, profileDir: dirs.make('lean-firefox-profile'), env: { GETLIST_DATA_DIR: dataDir } });
});
