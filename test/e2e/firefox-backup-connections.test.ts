// Firefox's backup connections, injected. When a connection's SYN stays unanswered for
// `network.http.connection-retry-timeout` (250 ms by default, reached on a loaded machine),
// Firefox opens a second connection beside it, and a spare that connects is handed to a waiting
// request without a connect phase, as if reused. Here the timeout is 1 ms and the page is behind
// the emulated link (bench/link) at 20 ms, so every connect outlasts it. The popup's figures must
// still agree with the origin's own log: "opened" counts exactly the connections whose first
// request shows its connect, the requests are the origin's, and the fewest connections the popup
// allows never exceed the origin's count.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { startLink } from '../../bench/link/link-emulator';
import { startLinkSite, type LinkSite } from '../../bench/overhead/overhead-link-site';
import { describeNetns } from '../bench-link/netns-gate';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { openExtensionPage, WAIT_MS } from './harness/extension-pages';
import { quiet } from './harness/site-load';
import { firefoxInNamespace } from './harness/firefox-in-namespace';
import { launchFirefox, type LaunchedFirefox } from './harness/launch-firefox';
import { connectsShown, popupAfterLoad } from './harness/observed-checks';
import { TempDirs } from './harness/temp-dirs';
import { SPARE_IDLE_MS, SPARE_IMAGES, spareServerCommand, type SpareLogLine } from './site/spare-origin';

const RTT_MS = 20;
const LOADS = 4;

describeE2e('e2e: Firefox backup connections', () => {
  describeNetns('on the emulated link, with a 1 ms connection-retry timeout', () => {
    const dirs = new TempDirs();
    const logPath = join(dirs.make('spares-log'), 'requests.jsonl');
    let site: LinkSite | undefined;
    let firefox: LaunchedFirefox | undefined;
    let query: Page;

    beforeAll(async () => {
      requireBrowser('firefox');
      const extension = copyExtensionBuild(dirs);
      site = await startLinkSite({ rttMs: RTT_MS, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, { startLink, siteCommand: spareServerCommand(logPath) });
      firefox = await launchFirefox({
        extensionDir: extension.dir,
        home: dirs.make('spares-home'),
        profileDir: dirs.make('spares-profile'),
        env: { GETLIST_DATA_DIR: dirs.make('spares-data') },
        executablePath: firefoxInNamespace(dirs.make('spares-bridge'), site.clientNs),
        prefs: { 'network.http.connection-retry-timeout': 1 },
      });
      query = (await openExtensionPage(firefox.browser, `${firefox.extensionOrigin}/${extension.queryPage}`)).page;
    }, 120_000);
    afterAll(async () => {
      await firefox?.close();
      await site?.close();
      dirs.removeAll();
    });

    test('spares carry requests: "opened" is the connects shown; requests and connections agree with the origin\'s log', async () => {
      if (!firefox || !site) throw new Error('the link or firefox did not start');
      let withSpares = 0;
      for (let load = 0; load < LOADS; load++) {
        // The origin has closed every connection of the load before: all of this one's are new.
        if (load > 0) await new Promise((r) => setTimeout(r, SPARE_IDLE_MS + 500));
        const url = `${site.origin}/spares.html?load=${load}`;
        const tab = await firefox.browser.newPage();
        await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
        await quiet(() => logLines(logPath, `load=${load}`).length, 500);
        const lines = logLines(logPath, `load=${load}`);
        expect(lines).toHaveLength(1 + SPARE_IMAGES);
        const firstOn = new Map<number, string>();
        for (const l of lines) if (!firstOn.has(l.port)) firstOn.set(l.port, `${site.origin}${l.path}`);
        const server = { connections: firstOn.size, requests: lines.length, firsts: [...firstOn.values()] };
        const { popup, record, shownFrom } = await popupAfterLoad(firefox.browser, query, firefox.extensionOrigin, { url, tab }, server, `firefox-spares-${load}`);
        const shown = connectsShown(server, record);
        if (shown < server.connections) withSpares++;
        if (process.env.GETLIST_E2E_DEBUG || popup.opened !== shown) console.log(`load ${load}: the origin saw ${server.connections} connections carry requests, ${shown} show a connect; popup: ${popup.text}`);
        // A disagreement prints what each side read: the log's first requests, the record's phases,
        // and the record as the background held it once the popup had shown, where it changed.
        if (popup.opened !== shown) {
          console.log(JSON.stringify({ firsts: server.firsts, navigation: record.navigation, timings: record.timings }));
          if (JSON.stringify(shownFrom) !== JSON.stringify(record)) console.log('after the popup:', JSON.stringify(shownFrom === undefined ? null : { navigation: shownFrom.navigation, timings: shownFrom.timings }));
        }
        expect(popup.opened).toBe(shown);
        expect(popup.requests).toBe(server.requests);
        expect(popup.connectionsMin).toBeLessThanOrEqual(server.connections);
      }
      // The fault happened: spares carried requests, not only were asked for.
      expect(withSpares).toBeGreaterThanOrEqual(1);
    }, 180_000);
  });
});

/** The log's lines whose path carries `tag`. */
function logLines(path: string, tag: string): SpareLogLine[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as SpareLogLine).filter((l) => l.path.endsWith(`?${tag}`));
}
