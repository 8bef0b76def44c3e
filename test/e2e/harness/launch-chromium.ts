import puppeteer, { type Browser, type WebWorker } from 'puppeteer-core';
import { requireBrowser } from './browsers';
import { CHROMIUM_QUIET_FLAGS } from '../../../bench/run/chromium-flags';

/** Fixed by the `key` in manifest.json (see README "Who may connect"). */
export const CHROMIUM_EXTENSION_ID = 'kelbbeopokdfcgnhndalcnpcofnpkfln';

export interface LaunchedChromium {
  browser: Browser;
  extensionId: string;
  /** `chrome-extension://<id>`. */
  extensionOrigin: string;
  /** The extension's service worker (waits up to 15 s for it to start). */
  serviceWorker(): Promise<WebWorker>;
  /** Errors the service worker logged or threw since it was first attached. */
  workerErrors: string[];
  close(): Promise<void>;
}

export interface LaunchChromiumOptions {
  extensionDir: string;
  /** A fresh dir per run: Chromium also reads native host manifests from `<userDataDir>/NativeMessagingHosts/`. */
  userDataDir: string;
  /** Environment of the browser, which the native host inherits (set HOME and GETLIST_DATA_DIR). */
  env?: Record<string, string>;
  /** Certificates (base64 SHA-256 of their SPKI) Chromium accepts without a trusted chain: the h2 test site's. */
  spkiHashes?: readonly string[];
}

/** Headless Chromium with only the extension under test loaded, unpacked. */
export async function launchChromium(options: LaunchChromiumOptions): Promise<LaunchedChromium> {
  const browser = await puppeteer.launch({
    executablePath: requireBrowser('chromium'),
    headless: true,
    userDataDir: options.userDataDir,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      ...CHROMIUM_QUIET_FLAGS,
      `--disable-extensions-except=${options.extensionDir}`,
      `--load-extension=${options.extensionDir}`,
      ...(options.spkiHashes?.length ? [`--ignore-certificate-errors-spki-list=${options.spkiHashes.join(',')}`] : []),
    ],
    env: { ...process.env, ...options.env },
    timeout: 20_000,
    protocolTimeout: 20_000,
  });
  const extensionOrigin = `chrome-extension://${CHROMIUM_EXTENSION_ID}`;
  const workerErrors: string[] = [];
  let worker: Promise<WebWorker> | undefined;
  const serviceWorker = () =>
    (worker ??= (async () => {
      const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`${extensionOrigin}/`), { timeout: 15_000 });
      const w = await target.worker();
      if (!w) throw new Error(`service worker target ${target.url()} has no worker`);
      w.on('console', (m) => {
        if (m.type() === 'error') workerErrors.push(`console.error: ${m.text()}`);
      });
      w.on('error', (e) => workerErrors.push(`uncaught: ${e.message}`));
      return w;
    })());
  return {
    browser,
    extensionId: CHROMIUM_EXTENSION_ID,
    extensionOrigin,
    serviceWorker,
    workerErrors,
    close: async () => {
      await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
    },
  };
}
