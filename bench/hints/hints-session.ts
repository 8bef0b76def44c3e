/**
 * One measured load by real Chromium in the client namespace, with or without the built getlist
 * extension, after the page was visited twice in the same profile (the extension learns its list
 * there; Chromium alone gets the same two visits, so its own LoadingPredictor learns too). The
 * browser is restarted between the warm-up and the measured load: no socket, no TLS session and no
 * in-memory resource survives; the origins send `Cache-Control: no-store`, so the HTTP cache holds
 * nothing either.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type WebWorker } from 'puppeteer-core';
import { chromiumNetworkTiming } from '../run/chromium-network-timing';
import { recordNetwork, settle, writeWrapper, type ChromiumLoadOptions } from '../run/chromium-contender';
import type { Origins } from '../origins/start-origins';

export type HintsContender = 'chromium' | 'chromium+getlist';

export interface HintsSessionOptions {
  clientNs: string;
  url: string;
  hostResolverRules: string;
  spkiHashes: readonly string[];
  /** dist/extension, for `chromium+getlist`. */
  extensionDir: string;
  contender: HintsContender;
  expectedRequests: number;
  timeoutMs: number;
  origins: Origins;
}

export interface HintsRun {
  /** Navigation start → last response end (CDP), ms. */
  completeMs: number;
  fcpMs: number | null;
  lcpMs: number | null;
  /** Requests the origins logged for the measured load. */
  serverRequests: number;
  /** Paths the origins served more than once in the measured load. */
  duplicates: string[];
  /** Paths the origins served for the measured load, sorted. */
  paths: string[];
  /** The Link header value the extension's rules give the page (getlist only). */
  hints?: number;
  /** The learned state as the extension stored it (getlist only), for the overhead measurement. */
  learned?: unknown;
}

const EXTENSION_ID = 'kelbbeopokdfcgnhndalcnpcofnpkfln';
/** After load, the extension learns once the page's timings are in (LEARN_DELAY_MS = 1500 in the background). */
const LEARN_WAIT_MS = 10_000;
const live = new Set<ChildProcess>();

export function killHintBrowsersSync(): void {
  for (const p of live) if (p.exitCode === null) p.kill('SIGKILL');
  live.clear();
}

async function launch(o: HintsSessionOptions, dir: string): Promise<Browser> {
  const withExtension = o.contender === 'chromium+getlist';
  const browser = await puppeteer.launch({
    executablePath: writeWrapper(dir, o.clientNs),
    headless: true,
    pipe: true,
    userDataDir: join(dir, 'profile'),
    ...(withExtension ? { ignoreDefaultArgs: ['--disable-extensions'] } : {}),
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic',
      `--host-resolver-rules=${o.hostResolverRules}`,
      `--ignore-certificate-errors-spki-list=${o.spkiHashes.join(',')}`,
      ...(withExtension ? [`--disable-extensions-except=${o.extensionDir}`, `--load-extension=${o.extensionDir}`] : []),
    ],
    timeout: 30_000,
    protocolTimeout: o.timeoutMs + 10_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const proc = browser.process();
  if (proc) live.add(proc);
  return browser;
}

async function close(browser: Browser): Promise<void> {
  const proc = browser.process();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
  if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  if (proc) live.delete(proc);
}

async function worker(browser: Browser): Promise<WebWorker> {
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${EXTENSION_ID}/`), { timeout: 15_000 });
  const w = await target.worker();
  if (!w) throw new Error('the extension service worker has no worker');
  return w;
}

/** Hints in the extension's fullest session rule (the page's own), waiting ≤ 10 s for the rules rebuilt after a restart. */
async function hintCount(w: WebWorker): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const values = (await w.evaluate(`chrome.declarativeNetRequest.getSessionRules().then((rs) => rs.map((r) => r.action.responseHeaders?.[0]?.value ?? '').filter(Boolean))`)) as string[];
    if (values.length > 0 || Date.now() > deadline) return Math.max(0, ...values.map((v) => v.split(', <').length));
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One warm-up visit; with the extension, waits (≤ 10 s) until it has learned `visits` visits of the page. */
async function loadOnce(browser: Browser, o: HintsSessionOptions, visits: number): Promise<void> {
  const page = await browser.newPage();
  await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
  if (o.contender === 'chromium+getlist') {
    const w = await worker(browser);
    const deadline = Date.now() + LEARN_WAIT_MS;
    const learned = `chrome.storage.local.get('getlist.hints.v1').then((x) => (x['getlist.hints.v1']?.entries ?? []).find((e) => e.key === ${JSON.stringify(o.url)})?.visits.length ?? 0)`;
    while (((await w.evaluate(learned)) as number) < visits) {
      if (Date.now() > deadline) {
        const keys = await w.evaluate(`Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)]).then((x) => JSON.stringify(x).slice(0, 600))`);
        throw new Error(`the extension did not learn visit ${visits} of ${o.url} within ${LEARN_WAIT_MS} ms; storage.local: ${String(keys)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } else await new Promise((r) => setTimeout(r, 500));
  await page.close();
}

export async function hintsSession(o: HintsSessionOptions): Promise<HintsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-bench-hints-'));
  let browser: Browser | undefined;
  try {
    browser = await launch(o, dir);
    // The extension's background is running before the first visit, as in a browser in use.
    if (o.contender === 'chromium+getlist') await worker(browser);
    for (let i = 1; i <= 2; i++) await loadOnce(browser, o, i);
    await close(browser);

    browser = await launch(o, dir);
    let hints: number | undefined;
    let learned: unknown;
    if (o.contender === 'chromium+getlist') {
      const w = await worker(browser);
      hints = await hintCount(w);
      learned = await w.evaluate(`chrome.storage.local.get('getlist.hints.v1').then((x) => x['getlist.hints.v1'])`);
    }
    const page = await browser.newPage();
    const { events, lastEventAt } = await recordNetwork(page);
    const before = o.origins.accessLog().length;
    const deadline = Date.now() + o.timeoutMs;
    await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    await settle(events, lastEventAt, { expectedRequests: o.expectedRequests } as ChromiumLoadOptions, deadline);
    const paints = (await page.evaluate(`new Promise((resolve) => {
      let lcp = null;
      try { new PerformanceObserver((l) => { for (const e of l.getEntries()) lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true }); } catch {}
      setTimeout(() => resolve({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null, lcp }), 200);
    })`)) as { fcp: number | null; lcp: number | null };
    const network = chromiumNetworkTiming(events);
    if (!network) throw new Error(`${o.contender} ${o.url}: no finished document request`);
    const served = o.origins.accessLog().slice(before).map((e) => `${e.origin}${e.path}`).filter((p) => !p.endsWith('/favicon.ico'));
    const counts = new Map<string, number>();
    for (const p of served) counts.set(p, (counts.get(p) ?? 0) + 1);
    return {
      completeMs: network.totalMs,
      fcpMs: paints.fcp,
      lcpMs: paints.lcp,
      serverRequests: served.length,
      duplicates: [...counts].filter(([, n]) => n > 1).map(([p]) => p),
      paths: [...served].sort(),
      ...(hints !== undefined ? { hints } : {}),
      ...(learned !== undefined ? { learned } : {}),
    };
  } finally {
    if (browser) await close(browser);
    rmSync(dir, { recursive: true, force: true });
  }
}
