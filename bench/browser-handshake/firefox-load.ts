/**
 * One load by Firefox ESR in the client namespace. Puppeteer speaks WebDriver BiDi to Firefox over a
 * WebSocket on the namespace's own loopback, which a process outside it cannot reach, so the load
 * runs in a child started there (`--firefox-load`, internal), which prints the page's timing as one
 * JSON line. Names resolve through /etc/netns/<ns>/hosts, which `ip netns exec` mounts. A fresh
 * profile per load, and no speculative work of Firefox's own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { BenchRunError } from '../cli/bench-run-error';
import { FIREFOX_PATH, QUIET_FIREFOX_PREFS } from '../overhead/overhead-firefox';
import { PAGE_TIMING, type PageTiming } from './page-timing';

/** The child's side: loads `url` once and writes its timing to stdout. */
export async function firefoxLoadHere(url: string, timeoutMs: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-browser-hs-ff-'));
  try {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: join(dir, 'profile'),
      extraPrefsFirefox: { ...QUIET_FIREFOX_PREFS, 'network.dns.disablePrefetch': true, 'network.http.speculative-parallel-limit': 0 },
      env: { ...process.env, HOME: dir },
      timeout: 30_000,
      protocolTimeout: timeoutMs + 10_000,
    });
    try {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
      const timing = (await page.evaluate(PAGE_TIMING)) as PageTiming;
      process.stdout.write(`${JSON.stringify({ timing })}\n`);
    } finally {
      const proc = browser.process();
      await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
      if (proc && proc.exitCode === null) proc.kill('SIGKILL');
    }
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The parent's side: runs the child in `clientNs` and returns the timing it printed. */
export async function firefoxLoad(clientNs: string, entry: string, url: string, timeoutMs: number): Promise<PageTiming> {
  const child = spawn('ip', ['netns', 'exec', clientNs, process.execPath, entry, '--firefox-load', '--url', url], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err = (err + s).slice(-2000)));
  const timer = setTimeout(() => kill(), timeoutMs + 40_000);
  function kill(): void {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(timer);
  for (const line of out.split('\n')) {
    if (!line.startsWith('{"timing"')) continue;
    return (JSON.parse(line) as { timing: PageTiming }).timing;
  }
  throw new BenchRunError('E_RUN_FAILED', `firefox load of ${url} in ${clientNs} gave no timing (exit ${code}): ${err.trim().slice(-800)}`);
}
