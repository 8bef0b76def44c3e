// "Where the time went" in real Chromium with the built extension (lean capture) on the emulated
// link (bench/link, 300 ms, reno: a round trip long enough that the machine's own load, which can
// slow a browser's load by a tenth of a second, stays well inside the ±1 RTT the checks allow): a
// page whose critical path is known — the document, a sheet, the sheet it `@import`s, the font that
// sheet names — and the popup's strip, checked against the link's configured round trip and the
// origin's own log of when each level was asked for (harness/time-went-check.ts, shared with
// Firefox's test, time-went-link-firefox.test.ts).
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { startLink } from '../../bench/link/link-emulator';
import { launchInNamespace } from '../../bench/run/chromium-contender';
import { startLinkSite, type LinkSite } from '../../bench/overhead/overhead-link-site';
import { describeNetns } from '../bench-link/netns-gate';
import { describeE2e, requireBrowser } from './harness/browsers';
import { copyExtensionBuild } from './harness/extension-build';
import { CHROMIUM_EXTENSION_ID } from './harness/launch-chromium';
import { TempDirs } from './harness/temp-dirs';
import {
  applyFontPreloadAndRevisit, expectBound, expectChainPath, expectPredictionEndsWithSheet, expectRoundTrips,
  expectFontPushed, expectMeasuredAsLogged, expectSavedAsPredicted, expectSentAsLogged, firstChainVisit, type ChainVisit,
} from './harness/time-went-check';
import { chainServerCommand } from './site/chain-origin';

const RTT_MS = 300;
const ORIGIN = `chrome-extension://${CHROMIUM_EXTENSION_ID}`;

describeE2e('e2e where the time went: Chromium on the emulated link', () => {
  describeNetns('a known chain: document → sheet → @import → font', () => {
    const dirs = new TempDirs();
    const logPath = join(dirs.make('chain-log'), 'requests.jsonl');
    let site: LinkSite | undefined;
    let browser: Browser | undefined;
    let v: ChainVisit;

    beforeAll(async () => {
      requireBrowser('chromium');
      const extension = copyExtensionBuild(dirs);
      site = await startLinkSite({ rttMs: RTT_MS, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 }, { startLink, siteCommand: chainServerCommand(logPath) });
      browser = await launchInNamespace({ clientNs: site.clientNs, hostResolverRules: 'MAP nothing.invalid 127.0.0.1', spkiHashes: [], timeoutMs: 30_000 }, dirs.make('chain-chromium'), extension.dir);
      v = await firstChainVisit({ browser, extensionOrigin: ORIGIN, queryPage: extension.queryPage, siteOrigin: site.origin, logPath });
    }, 90_000);
    afterAll(async () => {
      await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
      await site?.close();
      dirs.removeAll();
    });

    test('the critical path names exactly the chain, in order', () => {
      expectChainPath(v.shown);
    });

    test('the path the popup measured is the link’s round trip, and each link of the chain took one round trip (within 1 RTT)', () => {
      expectRoundTrips(v.shown, RTT_MS);
    });

    test('the bound is one handshake and one round trip per level; the page ended within 1 RTT of it', () => {
      expectBound(v.shown, RTT_MS);
    });

    test('when each level was sent agrees with when the origin saw it asked for (±¼ RTT), one round trip apart (within 1 RTT)', () => {
      expectSentAsLogged(v.shown, v.log, RTT_MS);
    });

    test('the suggested font preload, applied with one click, saves on the next visit what was predicted (±1 RTT)', async () => {
      if (!browser) throw new Error('chromium did not start');
      const applied = await applyFontPreloadAndRevisit({ browser, extensionOrigin: ORIGIN, ...v, logPath });
      expectPredictionEndsWithSheet(v.shown, applied.predictedMs);
      expectSavedAsPredicted(applied, RTT_MS);
      expectFontPushed(applied);
      expectMeasuredAsLogged(applied, v.log, RTT_MS);
    }, 60_000);
  });
});
