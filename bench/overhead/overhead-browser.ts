/**
 * One headless Chromium for the overhead benchmark, with or without the built extension (and its
 * native host registered in a temp dir, as `getlist install --user-data-dir` does for a user).
 * Each load runs in a fresh tab or in the browser's one warm tab (overhead-load.ts), HTTP cache
 * disabled; the numbers come from the page's own Navigation Timing and from CDP
 * `Performance.getMetrics` (main-thread script time). Firefox: overhead-firefox.ts.
 * With `clientNs` it runs inside that network namespace of the packet-level link (CDP over pipes,
 * bench/run/chromium-contender.ts `launchInNamespace`), and so does the native host it starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BenchRunError } from '../cli/bench-run-error';
import { CHROMIUM_PATH, launchInNamespace } from '../run/chromium-contender';
import { CHROMIUM_QUIET_FLAGS } from '../run/chromium-flags';
import { tabbedLoader, type LoadTab, type OverheadLoad, type OverheadTab } from './overhead-load';

export type { OverheadLoad, OverheadTab } from './overhead-load';

export const EXTENSION_DIR = resolve(__dirname, '..', '..', 'dist', 'extension');
export const GETLIST_BIN = resolve(__dirname, '..', '..', 'bin', 'getlist.js');

export interface OverheadBrowser {
  withExtension: boolean;
  /** `plain`, or the extension variant's name. */
  label: string;
  /** @param tab a new tab for this load, or the browser's one warm tab. @default 'fresh' */
  load(url: string, tab?: OverheadTab): Promise<OverheadLoad>;
  close(): Promise<void>;
}

export interface OverheadBrowserOptions {
  withExtension: boolean;
  /** The unpacked extension to load. @default dist/extension */
  extensionDir?: string;
  /** @default 'plain' without the extension, 'full' with it */
  label?: string;
  /** Without the extension: keep Chromium's extension system on (no `--disable-extensions`), as a user's browser has it. @default false */
  extensionsEnabled?: boolean;
  /** Register the native host (the extension measures each page through it). @default true */
  withHost?: boolean;
  /** Waited after each load, so the extension's post-load work does not overlap the next run. */
  settleMs: number;
  /** Run Chromium in this network namespace (the link's client side). @default this process's namespace (loopback) */
  clientNs?: string;
}

export async function launchOverheadBrowser(options: OverheadBrowserOptions): Promise<OverheadBrowser> {
  const dir = mkdtempSync(join(tmpdir(), `getlist-overhead-${options.withExtension ? 'ext' : 'plain'}-`));
  const userDataDir = join(dir, 'profile');
  const env: Record<string, string> = { HOME: join(dir, 'home'), GETLIST_DATA_DIR: join(dir, 'data') };
  const args = [...CHROMIUM_QUIET_FLAGS];
  const extensionDir = options.extensionDir ?? EXTENSION_DIR;
  if (options.withExtension) {
    if (!existsSync(join(extensionDir, 'manifest.json'))) throw new BenchRunError('E_CHROMIUM_LAUNCH', `${extensionDir} has no build; run \`npm run build\` first`);
    args.push(`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`);
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
    browser = options.clientNs !== undefined
      // The page's origin is an IP address: no host rules, no certificates.
      ? await launchInNamespace({ clientNs: options.clientNs, hostResolverRules: '', spkiHashes: [], timeoutMs: 60_000 }, dir,
        options.withExtension ? extensionDir : undefined, { env, extensionsEnabled: options.extensionsEnabled === true })
      : await puppeteer.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        userDataDir,
        ...(options.withExtension || options.extensionsEnabled === true ? { ignoreDefaultArgs: ['--disable-extensions'] } : {}),
        args,
        env: { ...process.env, ...env },
        timeout: 20_000,
      });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new BenchRunError('E_CHROMIUM_LAUNCH', `Chromium did not start${options.clientNs !== undefined ? ` in ${options.clientNs}` : ''}: ${(err as Error).message}`);
  }
  if (options.withExtension) {
    await browser.waitForTarget((t) => t.type() === 'service_worker', { timeout: 15_000 });
  }

  const openTab = async (): Promise<LoadTab> => {
    const page = await browser.newPage();
    await page.setCacheEnabled(false);
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable');
    const counters = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      return { scriptMs: metric('ScriptDuration'), taskMs: metric('TaskDuration') };
    };
    return { page, counters };
  };
  const load = tabbedLoader(openTab, () => ({ settleMs: options.settleMs, pid: browser.process()?.pid }));

  return { withExtension: options.withExtension, label: options.label ?? (options.withExtension ? 'full' : 'plain'), load, close: () => closeBrowser(browser, dir) };
}

/** Closes a launched browser (killed if it has not gone within 5 s) and removes its profile directory. */
export async function closeBrowser(browser: Browser, profileDir: string): Promise<void> {
  const proc = browser.process();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000).unref())]).catch(() => undefined);
  if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  rmSync(profileDir, { recursive: true, force: true, maxRetries: 3 });
}
