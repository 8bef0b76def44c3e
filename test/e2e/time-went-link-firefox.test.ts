// "Where the time went" in Firefox ESR with the built extension (lean capture) on the emulated
// link (bench/link, 300 ms): the page whose critical path is known — the document, a sheet, the
// sheet it `@import`s, the font that sheet names — and the popup's strip, checked against the
// link's configured round trip and the origin's own log, as in Chromium (time-went-link.test.ts,
// the same checks: harness/time-went-check.ts). Firefox runs inside the link's client namespace,
// driven from here through harness/firefox-in-namespace.ts.
import { join } from 'node:path';
import { startLink } from '../../bench/link/link-emulator';
import { startLinkSite, type LinkSite } from '../../bench/overhead/overhead-link-site';
import { describeNetns } from '../bench-link/netns-gate';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { firefoxInNamespace } from './harness/firefox-in-namespace';
import { launchFirefox, type LaunchedFirefox } from './harness/launch-firefox';
import { TempDirs } from './harness/temp-dirs';
import {
  applyFontPreloadAndRevisit, expectBound, expectChainPath, expectPredictionEndsWithSheet, expectRoundTrips,
  expectFontPushed, expectMeasuredAsLogged, expectSavedAsPredicted, expectSentAsLogged, firstChainVisit, type ChainVisit,
} from './harness/time-went-check';
import { chainServerCommand } from './site/chain-origin';

const RTT_MS = 300;
/**
 * Firefox coarsens the clocks a page reads to 1 ms, with jitter (`privacy.reduceTimerPrecision`, on
 * by default): a round trip, the difference of two readings, may read up to 2 ms under the link's.
 */
const FIREFOX_CLOCK_SLACK_MS = 2;

describeE2e('e2e where the time went: Firefox ESR on the emulated link', () => {
  describeNetns('a known chain: document → sheet → @import → font', () => {
    const dirs = new TempDirs();
    const logPath = join(dirs.make('chain-log'), 'requests.jsonl');
    let site: LinkSite | undefined;
    let firefox: LaunchedFirefox | undefined;
    let v: ChainVisit;

    beforeAll(async () => {
      requireBrowser('firefox');
      const extension = copyExtensionBuild(dirs);
      site = await startLinkSite({ rttMs: RTT_MS, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, { startLink, siteCommand: chainServerCommand(logPath) });
      const bridgeDir = dirs.make('chain-firefox-bridge');
      firefox = await launchFirefox({
        extensionDir: extension.dir,
        home: dirs.make('chain-firefox-home'),
        profileDir: dirs.make('chain-firefox-profile'),
        env: { GETLIST_DATA_DIR: dirs.make('chain-firefox-data') },
        executablePath: firefoxInNamespace(bridgeDir, site.clientNs),
      });
      v = await firstChainVisit({ browser: firefox.browser, extensionOrigin: firefox.extensionOrigin, queryPage: extension.queryPage, siteOrigin: site.origin, logPath });
    }, 120_000);
    afterAll(async () => {
      await firefox?.close();
      await site?.close();
      dirs.removeAll();
    });

    test('the critical path names exactly the chain, in order', () => {
      expectChainPath(v.shown);
    });

    test('the path the popup measured is the link’s round trip (to Firefox’s 1 ms clock), and each link of the chain took one round trip (within 1 RTT)', () => {
      expectRoundTrips(v.shown, RTT_MS, FIREFOX_CLOCK_SLACK_MS);
    });

    test('the bound is one handshake and one round trip per level; the page ended within 1 RTT of it', () => {
      expectBound(v.shown, RTT_MS);
    });

    test('when each level was sent agrees with when the origin saw it asked for (±¼ RTT), one round trip apart (within 1 RTT)', () => {
      expectSentAsLogged(v.shown, v.log, RTT_MS);
    });

    test('the suggested font preload, applied with one click, saves on the next visit what was predicted (±1 RTT)', async () => {
      if (!firefox) throw new Error('firefox did not start');
      const applied = await applyFontPreloadAndRevisit({ browser: firefox.browser, extensionOrigin: firefox.extensionOrigin, ...v, logPath });
      expectPredictionEndsWithSheet(v.shown, applied.predictedMs);
      expectSavedAsPredicted(applied, RTT_MS);
      expectFontPushed(applied);
      expectMeasuredAsLogged(applied, v.log, RTT_MS);
    }, 90_000);
  });
});
