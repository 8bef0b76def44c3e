/**
 * One run of the scripted user's whole path in a fresh profile: the browser, with or without the
 * built extension (its native host registered, as `getlist install` does for a user), the HTTP
 * cache on (as users browse) or off. Chromium runs inside the link's client namespace and is driven
 * from here over CDP pipes (bench/run/chromium-contender.ts `launchInNamespace`); Firefox's driver
 * runs inside the namespace itself (firefox-walker.ts says why).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'puppeteer-core';
import { launchInNamespace } from '../run/chromium-contender';
import type { FirefoxWalkerOptions } from './firefox-walker-options';
import { INJECT_RULES, settingsFor, usesExtension, type NavContender } from './nav-contenders';
import type { NavStep } from './user-path';
import { walk, type StepResult } from './walk';

export type NavBrowser = 'chromium' | 'firefox';

export interface WalkSessionOptions {
  browser: NavBrowser;
  clientNs: string;
  origin: string;
  steps: readonly NavStep[];
  hostResolverRules: string;
  spkiHashes: readonly string[];
  contender: NavContender;
  extensionDir: string;
  cacheOn: boolean;
  hoverMs: number;
  timeoutMs: number;
  settleMs: number;
  progress: (line: string) => void;
  /** Chromium only: a trace of each step (walk.ts, view-trace.ts). */
  trace?: { dir: string; label: string };
}

const GETLIST_BIN = resolve(__dirname, '..', '..', 'bin', 'getlist.js');
const FIREFOX_DRIVER = resolve(__dirname, 'navigate-firefox-driver.js');
const live = new Set<ChildProcess>();

export function killWalkersSync(): void {
  for (const p of live) if (p.exitCode === null && p.pid !== undefined) {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {
      p.kill('SIGKILL');
    }
  }
  live.clear();
}

function installHost(browser: NavBrowser, dir: string, env: Record<string, string>): void {
  execFileSync(process.execPath, [GETLIST_BIN, 'install', '--browser', browser, ...(browser === 'chromium' ? ['--user-data-dir', join(dir, 'profile')] : []), '--json'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: 'ignore',
    timeout: 15_000,
  });
}

/** Writes the extension's settings from its service worker (retried while the worker starts). */
async function setSettings(browser: Browser, patch: Record<string, unknown>): Promise<void> {
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker', { timeout: 15_000 });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const w = await target.worker();
      await w?.evaluate(`chrome.storage.local.get('getlist.settings.v1').then((x) => chrome.storage.local.set({ 'getlist.settings.v1': { ...(x['getlist.settings.v1'] ?? {}), ...${JSON.stringify(patch)} } }))`);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function chromiumWalk(o: WalkSessionOptions, dir: string, env: Record<string, string>): Promise<StepResult[]> {
  const withExtension = usesExtension(o.contender);
  const browser: Browser = await launchInNamespace({ ...o, timeoutMs: o.timeoutMs }, dir, withExtension ? o.extensionDir : undefined, { env, extensionsEnabled: true });
  const proc = browser.process();
  if (proc) live.add(proc);
  try {
    // The extension's background is up before the first page, as in a browser in use.
    if (withExtension) await browser.waitForTarget((t) => t.type() === 'service_worker', { timeout: 15_000 });
    const settings = settingsFor(o.contender);
    if (settings !== undefined) await setSettings(browser, settings);
    const page = await browser.newPage();
    await page.setCacheEnabled(o.cacheOn);
    if (o.contender === 'rules') await page.evaluateOnNewDocument(INJECT_RULES);
    return await walk(page, o);
  } finally {
    await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
    if (proc) live.delete(proc);
  }
}

async function firefoxWalk(o: WalkSessionOptions, dir: string): Promise<StepResult[]> {
  if (o.contender !== 'alone' && o.contender !== 'getlist') throw new Error(`${o.contender} runs in Chromium only`);
  const options: FirefoxWalkerOptions = { origin: o.origin, steps: o.steps, withExtension: usesExtension(o.contender), extensionDir: o.extensionDir, dir, cacheOn: o.cacheOn, hoverMs: o.hoverMs, timeoutMs: o.timeoutMs, settleMs: o.settleMs };
  // Detached: a group of its own, so the browser the driver started dies with it.
  const child = spawn('ip', ['netns', 'exec', o.clientNs, process.execPath, FIREFOX_DRIVER, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  live.add(child);
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      let msg: { event?: string; message?: string; line?: string; steps?: StepResult[] };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        continue; // Firefox's own chatter
      }
      if (msg.event === 'progress' && msg.line) o.progress(msg.line);
      else if (msg.event === 'error') throw new Error(`firefox driver: ${msg.message ?? 'failed'}`);
      else if (msg.event === 'result') return msg.steps ?? [];
    }
    throw new Error(`firefox driver exited (${child.exitCode ?? child.signalCode}) without a result: ${stderr.slice(-800)}`);
  } finally {
    killWalkersSync();
  }
}

export async function walkSession(o: WalkSessionOptions): Promise<StepResult[]> {
  const dir = mkdtempSync(join(tmpdir(), `getlist-navigate-${o.browser}-`));
  const env = { HOME: join(dir, 'home'), GETLIST_DATA_DIR: join(dir, 'data') };
  try {
    if (usesExtension(o.contender)) installHost(o.browser, dir, env);
    return o.browser === 'firefox' ? await firefoxWalk(o, dir) : await chromiumWalk(o, dir, env);
  } finally {
    removeTempDir(dir);
  }
}

/** A browser profile left behind is not a failed walk: the run's steps are kept, and the leftover named. */
function removeTempDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    process.stderr.write(`[navigate] could not remove ${dir}: ${(err as Error).message}\n`);
  }
}
