import type { WebWorker } from 'puppeteer-core';
import { launchInNamespace } from '../../../bench/run/chromium-contender';
import type { DetailedChromium } from './detailed-capture';
import { CHROMIUM_EXTENSION_ID } from './launch-chromium';

/**
 * Chromium with the extension inside a link's client namespace (bench/run/chromium-contender.ts
 * `launchInNamespace`, CDP over pipes), its profile in `dir`: started again on the same `dir`, it
 * is the same profile (grantDetailedAndRestart restarts it so).
 */
export async function chromiumOnLink(clientNs: string, dir: string, extensionDir: string): Promise<DetailedChromium> {
  const browser = await launchInNamespace({ clientNs, hostResolverRules: 'MAP nothing.invalid 127.0.0.1', spkiHashes: [], timeoutMs: 30_000 }, dir, extensionDir);
  const extensionOrigin = `chrome-extension://${CHROMIUM_EXTENSION_ID}`;
  let worker: Promise<WebWorker> | undefined;
  return {
    browser,
    extensionOrigin,
    serviceWorker: () =>
      (worker ??= (async () => {
        const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`${extensionOrigin}/`), { timeout: 15_000 });
        const w = await target.worker();
        if (!w) throw new Error(`service worker target ${target.url()} has no worker`);
        return w;
      })()),
    close: async () => {
      await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
    },
  };
}
