import puppeteer from 'puppeteer-core';
import { requireBrowser } from '../e2e/harness/browsers';
import type { TempDirs } from '../e2e/harness/temp-dirs';
import { CHROMIUM_QUIET_FLAGS } from '../../bench/run/chromium-flags';

export interface ChromiumLoad {
  /**
   * `scheme://host/path?query` of every request Chromium started for the page (CDP
   * `requestWillBeSent`), without those it then blocked itself (`loadingFailed.blockedReason`,
   * e.g. mixed content).
   */
  requested: string[];
  /** Transfer size per URL as Chromium counted it (`loadingFinished.encodedDataLength`, headers included). */
  transferBytes: Map<string, number>;
}

/**
 * Loads `url` in a fresh headless Chromium (fresh profile: no cache, no cookies) at 1280×800, DPR
 * 1, every host mapped to the local origin, with JavaScript off or on, and records what it asks
 * for over CDP. Waits for the network to go idle, then long enough for the favicon request that
 * follows the load event.
 */
export async function loadInChromium(url: string, port: number, javascript: boolean, dirs: TempDirs): Promise<ChromiumLoad> {
  const browser = await puppeteer.launch({
    executablePath: requireBrowser('chromium'),
    headless: true,
    userDataDir: dirs.make('fidelity-chromium'),
    args: [
      ...CHROMIUM_QUIET_FLAGS,
      '--ignore-certificate-errors',
      `--host-resolver-rules=MAP * 127.0.0.1:${port}`,
      '--window-size=1280,800',
    ],
    timeout: 20_000,
    protocolTimeout: 30_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
    await page.setJavaScriptEnabled(javascript);
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    const requested: string[] = [];
    const byId = new Map<string, string>();
    const transferBytes = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (!/^https?:/.test(e.request.url)) return;
      const u = new URL(e.request.url);
      u.hash = '';
      requested.push(u.href);
      byId.set(e.requestId, u.href);
    });
    const blocked = new Set<string>();
    cdp.on('Network.loadingFailed', (e) => {
      const u = byId.get(e.requestId);
      if (u !== undefined && e.blockedReason !== undefined) blocked.add(u);
    });
    cdp.on('Network.loadingFinished', (e) => {
      const u = byId.get(e.requestId);
      if (u !== undefined) transferBytes.set(u, e.encodedDataLength);
    });
    await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 1500));
    return { requested: requested.filter((u) => !blocked.has(u)), transferBytes };
  } finally {
    await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
  }
}
