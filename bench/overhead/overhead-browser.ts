/**
 * One headless Chromium for the overhead benchmark, with or without the built extension (and its
 * native host registered in a temp dir, as `getlist install --user-data-dir` does for a user).
 * Each load runs in a fresh tab with the HTTP cache disabled; the numbers come from the page's
 * own Navigation Timing and from CDP `Performance.getMetrics` (main-thread script time).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BenchRunError } from '../run/bench-run-error';
import { CHROMIUM_PATH } from '../run/chromium-contender';
import { CHROMIUM_QUIET_FLAGS } from '../run/chromium-flags';

export const EXTENSION_DIR = resolve(__dirname, '..', '..', 'dist', 'extension');
const GETLIST_BIN = resolve(__dirname, '..', '..', 'bin', 'getlist.js');

export interface OverheadLoad {
  loadMs: number;
  domContentLoadedMs: number;
  /** CDP ScriptDuration of the tab's renderer main thread (page + content scripts), ms. */
  scriptMs: number;
  /** CDP TaskDuration: all main-thread work of the tab, ms. */
  taskMs: number;
}

export interface OverheadBrowser {
  withExtension: boolean;
  load(url: string): Promise<OverheadLoad>;
  close(): Promise<void>;
}

export interface OverheadBrowserOptions {
  withExtension: boolean;
  /** Register the native host (the extension measures each page through it). @default true */
  withHost?: boolean;
  /** Waited after each load, so the extension's post-load work does not overlap the next run. */
  settleMs: number;
}

export async function launchOverheadBrowser(options: OverheadBrowserOptions): Promise<OverheadBrowser> {
  const dir = mkdtempSync(join(tmpdir(), `getlist-overhead-${options.withExtension ? 'ext' : 'plain'}-`));
  const userDataDir = join(dir, 'profile');
  const env: Record<string, string> = { HOME: join(dir, 'home'), GETLIST_DATA_DIR: join(dir, 'data') };
  const args = [...CHROMIUM_QUIET_FLAGS];
  if (options.withExtension) {
    if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new BenchRunError('E_CHROMIUM_LAUNCH', `${EXTENSION_DIR} has no build; run \`npm run build\` first`);
    args.push(`--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`);
    if (options.withHost ?? true) {
      execFileSync(process.execPath, [GETLIST_BIN, 'install', '--browser', 'chromium', '--user-data-dir', userDataDir, '--json'], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        stdio: 'ignore',
        timeout: 15_000,
      });
    }
  }
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      userDataDir,
      ...(options.withExtension ? { ignoreDefaultArgs: ['--disable-extensions'] } : {}),
      args,
      env: { ...process.env, ...env },
      timeout: 20_000,
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new BenchRunError('E_CHROMIUM_LAUNCH', `Chromium did not start: ${(err as Error).message}`);
  }
  if (options.withExtension) {
    await browser.waitForTarget((t) => t.type() === 'service_worker', { timeout: 15_000 });
  }

  const load = async (url: string): Promise<OverheadLoad> => {
    const page = await browser.newPage();
    try {
      await page.setCacheEnabled(false);
      const cdp = await page.createCDPSession();
      await cdp.send('Performance.enable');
      await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
      await new Promise((r) => setTimeout(r, options.settleMs));
      // A string: the bench compiles without the DOM lib.
      const nav = (await page.evaluate(
        `(() => { const n = performance.getEntriesByType('navigation')[0]; return { loadMs: n.loadEventStart, domContentLoadedMs: n.domContentLoadedEventStart }; })()`,
      )) as { loadMs: number; domContentLoadedMs: number };
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      return { ...nav, scriptMs: metric('ScriptDuration'), taskMs: metric('TaskDuration') };
    } finally {
      await page.close().catch(() => undefined);
    }
  };

  return {
    withExtension: options.withExtension,
    load,
    close: async () => {
      await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
