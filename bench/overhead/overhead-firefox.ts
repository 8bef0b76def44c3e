/**
 * One headless Firefox ESR for the overhead benchmark (WebDriver BiDi, puppeteer-core), with or
 * without the built extension — installed temporarily with `browser.installExtension`, as
 * about:debugging does, which grants its host permissions — and its native host registered under
 * a temp HOME (`$HOME/.mozilla/native-messaging-hosts/`, test/e2e/harness/launch-firefox.ts).
 * Firefox has no CDP `Performance.getMetrics`: its loads carry Navigation Timing and the process
 * tree's CPU by role (Firefox names its processes: process-cpu.ts `roleOfComm`), script time NaN.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BenchRunError } from '../cli/bench-run-error';
import { closeBrowser, EXTENSION_DIR, GETLIST_BIN, type OverheadBrowser, type OverheadBrowserOptions } from './overhead-browser';
import { tabbedLoader, type LoadTab } from './overhead-load';

export const FIREFOX_PATH = '/usr/bin/firefox-esr';

/** HTTP cache off, and no speculative work of Firefox's own: every load a bench measures is the page's. */
export const QUIET_FIREFOX_PREFS: Readonly<Record<string, boolean | number>> = {
  'browser.cache.disk.enable': false,
  'browser.cache.memory.enable': false,
  'network.predictor.enabled': false,
  'network.prefetch-next': false,
};

export async function launchOverheadFirefox(options: Omit<OverheadBrowserOptions, 'clientNs' | 'extensionsEnabled'>): Promise<OverheadBrowser> {
  const dir = mkdtempSync(join(tmpdir(), `getlist-overhead-firefox-${options.withExtension ? 'ext' : 'plain'}-`));
  const env: Record<string, string> = { HOME: join(dir, 'home'), GETLIST_DATA_DIR: join(dir, 'data') };
  const extensionDir = options.extensionDir ?? EXTENSION_DIR;
  if (options.withExtension) {
    if (!existsSync(join(extensionDir, 'manifest.json'))) throw new BenchRunError('E_RUN_FAILED', `${extensionDir} has no build; run \`npm run build\` first`);
    if (options.withHost ?? true) {
      execFileSync(process.execPath, [GETLIST_BIN, 'install', '--browser', 'firefox', '--json'], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        stdio: 'ignore',
        timeout: 15_000,
      });
    }
  }
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: join(dir, 'profile'),
      // The pages are no-store too.
      extraPrefsFirefox: { ...QUIET_FIREFOX_PREFS },
      env: { ...process.env, ...env },
      timeout: 30_000,
      protocolTimeout: 90_000,
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new BenchRunError('E_RUN_FAILED', `Firefox did not start: ${(err as Error).message}`);
  }
  try {
    if (options.withExtension) await browser.installExtension(extensionDir);
  } catch (err) {
    await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
    rmSync(dir, { recursive: true, force: true });
    throw new BenchRunError('E_RUN_FAILED', `Firefox did not install ${extensionDir}: ${(err as Error).message}`);
  }

  const openTab = async (): Promise<LoadTab> => {
    const page = await browser.newPage();
    await page.setCacheEnabled(false);
    return { page };
  };
  const load = tabbedLoader(openTab, () => ({ settleMs: options.settleMs, pid: browser.process()?.pid }));

  return { withExtension: options.withExtension, label: options.label ?? (options.withExtension ? 'lean' : 'plain'), load, close: () => closeBrowser(browser, dir) };
}
