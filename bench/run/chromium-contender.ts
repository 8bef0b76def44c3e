/**
 * One page load by real Chromium (headless, its own network stack) inside the client namespace.
 * A new browser process with a fresh user-data dir per load: no cache, no sockets, no TLS
 * sessions carry over. CDP runs over pipes, which cross the namespace boundary where a
 * DevTools TCP port would not.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BenchRunError } from './bench-run-error';
import { chromiumTiming, type ChromiumTiming, type TimingEntry } from './chromium-timing';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface ChromiumLoadOptions {
  clientNs: string;
  url: string;
  /** `--host-resolver-rules` value mapping the origin names to the server addresses. */
  hostResolverRules: string;
  /** SPKI hashes Chromium accepts without a trusted chain (the origins' leaf and CA). */
  spkiHashes: readonly string[];
  timeoutMs: number;
  /** Resource entries a complete load has (the page's requests minus the document). */
  expectedResources: number;
  /**
   * Page requests the origins have answered so far in this load. Chromium keeps no Resource
   * Timing entry for some fetches (the favicon link, for one), so the entry count alone may never
   * reach `expectedResources`; the server's count says when the load is complete.
   */
  served?: () => number;
  /** Quiet period once the expected entries are in (catches extras). @default 500 */
  quietMs?: number;
  /**
   * Quiet period when fewer entries than expected arrived. Longer than `quietMs` because on a
   * 2 Mbit/s link one large image can take seconds, and an entry appears only when it ends.
   * @default 5000
   */
  shortfallQuietMs?: number;
}

/** A shell script that runs Chromium inside `ns`; puppeteer starts it as the browser executable. */
function writeWrapper(dir: string, ns: string): string {
  const path = join(dir, 'chromium-in-netns.sh');
  writeFileSync(path, `#!/bin/sh\nexec ip netns exec '${ns}' ${CHROMIUM_PATH} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * Waits until Resource Timing is complete: the expected count is in and nothing new came for
 * `quietMs`, or fewer came and nothing new for `shortfallQuietMs`. Bounded by `deadline`. The
 * wait adds nothing to the measured time, which is read from the entries themselves.
 */
async function settledEntries(page: Page, o: ChromiumLoadOptions, deadline: number): Promise<{ nav: TimingEntry | undefined; resources: TimingEntry[] }> {
  let count = -1;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const n = (await page.evaluate("performance.getEntriesByType('resource').length")) as number;
    if (n !== count) {
      count = n;
      stableSince = Date.now();
    } else {
      const complete = n >= o.expectedResources || (o.served?.() ?? 0) >= o.expectedResources + 1;
      if (Date.now() - stableSince >= (complete ? (o.quietMs ?? 500) : (o.shortfallQuietMs ?? 5000))) break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // A string, not a function: the page's DOM types are not in this tsconfig (ES2022 + Node only).
  return page.evaluate(`(() => {
    const plain = (e) => e.toJSON();
    return { nav: performance.getEntriesByType('navigation').map(plain)[0], resources: performance.getEntriesByType('resource').map(plain) };
  })()`) as Promise<{ nav: TimingEntry | undefined; resources: TimingEntry[] }>;
}

export async function loadWithChromium(o: ChromiumLoadOptions): Promise<ChromiumTiming> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-bench-chromium-'));
  const deadline = Date.now() + o.timeoutMs;
  let browser: Browser | undefined;
  try {
    try {
      browser = await puppeteer.launch({
        executablePath: writeWrapper(dir, o.clientNs),
        headless: true,
        pipe: true,
        userDataDir: join(dir, 'profile'),
        args: [
          '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
          '--disable-sync', '--no-first-run', '--disable-quic',
          `--host-resolver-rules=${o.hostResolverRules}`,
          `--ignore-certificate-errors-spki-list=${o.spkiHashes.join(',')}`,
        ],
        timeout: 30_000,
        protocolTimeout: o.timeoutMs + 10_000,
      });
    } catch (err) {
      throw new BenchRunError('E_CHROMIUM_LAUNCH', `could not start ${CHROMIUM_PATH} in ${o.clientNs}: ${(err as Error).message}`);
    }
    const page = await browser.newPage();
    try {
      await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    } catch (err) {
      throw new BenchRunError(/timeout/i.test((err as Error).message) ? 'E_RUN_TIMEOUT' : 'E_CHROMIUM_LOAD', `chromium ${o.url}: ${(err as Error).message}`);
    }
    const { nav, resources } = await settledEntries(page, o, deadline);
    const timing = chromiumTiming(nav, resources);
    if (timing === undefined) throw new BenchRunError('E_CHROMIUM_LOAD', `chromium ${o.url}: no finished navigation entry`);
    return timing;
  } finally {
    if (browser !== undefined) {
      const proc = browser.process();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([browser.close(), new Promise((r) => (timer = setTimeout(r, 5_000)))]).catch(() => undefined);
      clearTimeout(timer);
      if (proc !== null && proc.exitCode === null) proc.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

