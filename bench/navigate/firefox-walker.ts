/**
 * `ip netns exec <client ns> node dist/bench/navigate-firefox-driver.js '<options JSON>'` — the
 * scripted user in Firefox ESR, driven from inside the client namespace: puppeteer speaks WebDriver
 * BiDi over a WebSocket on the namespace's own loopback, which a process outside cannot reach.
 * Names resolve through /etc/netns/<ns>/hosts, which `ip netns exec` mounts. One JSON object a
 * line on stdout: `{"event":"progress"}` per step, then `{"event":"result","steps":[…]}` or
 * `{"event":"error"}`. The extension is installed temporarily, as about:debugging does.
 */
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { FirefoxWalkerOptions } from './firefox-walker-options';
import { walk, type StepResult } from './walk';

const FIREFOX = '/usr/bin/firefox-esr';

function emit(o: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(o)}\n`);
}

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2] ?? '') as FirefoxWalkerOptions;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: join(o.dir, 'profile'),
    acceptInsecureCerts: true,
    // Firefox's defaults otherwise (its own link prefetch and predictor included), as a user has them.
    extraPrefsFirefox: o.cacheOn ? {} : { 'browser.cache.disk.enable': false, 'browser.cache.memory.enable': false },
    env: { ...process.env, HOME: join(o.dir, 'home'), MOZ_REMOTE_ALLOW_SYSTEM_ACCESS: '1' },
    timeout: 30_000,
    protocolTimeout: o.timeoutMs + 10_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let steps: StepResult[];
  try {
    if (o.withExtension) await browser.installExtension(o.extensionDir);
    const page = await browser.newPage();
    steps = await walk(page, { ...o, progress: (line) => emit({ event: 'progress', line }) });
  } finally {
    await closeFirefox(browser);
  }
  // Only once Firefox is gone: the parent removes its profile when the result arrives.
  emit({ event: 'result', steps });
}

/** Closes Firefox, then kills what is left of it: puppeteer starts it in a process group of its own. */
async function closeFirefox(browser: Browser): Promise<void> {
  const proc = browser.process();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
  if (proc?.pid === undefined) return;
  try {
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // The group is gone: Firefox closed.
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    emit({ event: 'error', message: (err as Error).message });
    process.exit(1);
  },
);
