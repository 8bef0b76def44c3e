/**
 * One page load by real Chromium (headless, its own network stack) inside the client namespace.
 * A new browser process with a fresh user-data dir per load: no cache, no sockets, no TLS
 * sessions carry over. CDP runs over pipes, which cross the namespace boundary where a
 * DevTools TCP port would not. Times come from Chromium's CDP network events; Resource Timing is
 * read as well, as a cross-check.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BenchRunError } from '../cli/bench-run-error';
import {
  chromiumNetworkTiming, ignoredUrl, inFlight,
  type CdpLoadingEnded, type CdpNetworkEvents, type CdpRequestSent, type CdpResponseReceived, type ChromiumNetworkTiming,
} from './chromium-network-timing';
import { chromiumTiming, type ChromiumTiming, type TimingEntry } from './chromium-timing';
import { CHROMIUM_QUIET_FLAGS } from './chromium-flags';
import { chromiumTrace, type LoadTrace } from './load-trace';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface ChromiumLoadOptions {
  clientNs: string;
  url: string;
  /** `--host-resolver-rules` value mapping the origin names to the server addresses. */
  hostResolverRules: string;
  /** SPKI hashes Chromium accepts without a trusted chain (the origins' leaf and CA). */
  spkiHashes: readonly string[];
  timeoutMs: number;
  /** Requests a complete load makes (document included). */
  expectedRequests: number;
  /** Quiet period with no CDP request in flight once the expected count was sent (catches extras). @default 500 */
  quietMs?: number;
  /**
   * Quiet period with nothing in flight when fewer requests than expected were sent (a script may
   * still be about to ask for more). @default 5000
   */
  shortfallQuietMs?: number;
  /** HTTP/1.1 only (`--disable-http2`): TLS origins that offer h2 are asked over HTTP/1.1. @default false */
  http1Only?: boolean;
}

export interface ChromiumLoad {
  /** From CDP network events: the measure reported. */
  network: ChromiumNetworkTiming;
  /** From Resource Timing: a cross-check (misses entries for some cross-origin subresources). */
  resourceTiming: ChromiumTiming | undefined;
  /** Every request's discovery, send, first byte, end and connection, from the same events. */
  timeline: LoadTrace;
}

/** A shell script that runs Chromium inside `ns`; puppeteer starts it as the browser executable. */
export function writeWrapper(dir: string, ns: string): string {
  const path = join(dir, 'chromium-in-netns.sh');
  writeFileSync(path, `#!/bin/sh\nexec ip netns exec '${ns}' ${CHROMIUM_PATH} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * Waits until no CDP request has been in flight for `quietMs` (or `shortfallQuietMs` while fewer
 * than the expected requests were sent), bounded by `deadline`. The wait adds nothing to the
 * measured time, which is read from the events' own timestamps.
 */
export async function settle(events: CdpNetworkEvents, lastEventAt: () => number, o: ChromiumLoadOptions, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (inFlight(events) === 0) {
      const sent = new Set(events.sent.filter((s) => !ignoredUrl(s.url)).map((s) => s.requestId)).size;
      const quiet = sent >= o.expectedRequests ? (o.quietMs ?? 500) : (o.shortfallQuietMs ?? 5000);
      if (Date.now() - lastEventAt() >= quiet) return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resource Timing entries, as plain objects. */
async function resourceTimingEntries(page: Page): Promise<{ nav: TimingEntry | undefined; resources: TimingEntry[] }> {
  // A string, not a function: the page's DOM types are not in this tsconfig (ES2022 + Node only).
  return page.evaluate(`(() => {
    const plain = (e) => e.toJSON();
    return { nav: performance.getEntriesByType('navigation').map(plain)[0], resources: performance.getEntriesByType('resource').map(plain) };
  })()`) as Promise<{ nav: TimingEntry | undefined; resources: TimingEntry[] }>;
}

/**
 * Records the tab's Network events (the page target's session: its main frame and same-process
 * frames) into plain objects.
 */
export async function recordNetwork(page: Page): Promise<{ events: CdpNetworkEvents; lastEventAt: () => number }> {
  const sent: CdpRequestSent[] = [];
  const responses: CdpResponseReceived[] = [];
  const ended: CdpLoadingEnded[] = [];
  let last = Date.now();
  const client = await page.createCDPSession();
  client.on('Network.requestWillBeSent', (e) => {
    last = Date.now();
    sent.push({ requestId: e.requestId, url: e.request.url, timestamp: e.timestamp, wallTime: e.wallTime, type: e.type, priority: e.request.initialPriority });
  });
  client.on('Network.responseReceived', (e) => {
    last = Date.now();
    const t = e.response.timing;
    const timing = t === undefined ? undefined
      : { requestTime: t.requestTime, receiveHeadersEnd: t.receiveHeadersEnd, connectStart: t.connectStart, connectEnd: t.connectEnd, sendStart: t.sendStart };
    responses.push({ requestId: e.requestId, protocol: e.response.protocol, timing, connectionId: e.response.connectionId });
  });
  client.on('Network.loadingFinished', (e) => {
    last = Date.now();
    ended.push({ requestId: e.requestId, timestamp: e.timestamp });
  });
  client.on('Network.loadingFailed', (e) => {
    last = Date.now();
    ended.push({ requestId: e.requestId, timestamp: e.timestamp, failed: true });
  });
  await client.send('Network.enable');
  return { events: { sent, responses, ended }, lastEventAt: () => last };
}

/** Chromium processes of loads in progress, for {@link killBrowsersSync}. */
const liveBrowsers = new Set<ChildProcess>();

/**
 * SIGKILLs every Chromium a load in progress started. For a signal handler: puppeteer's own
 * SIGINT/SIGTERM/SIGHUP handlers are off (they would keep the process alive after the signal), so
 * the benchmark's handler calls this before it exits.
 */
export function killBrowsersSync(): void {
  for (const proc of liveBrowsers) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  liveBrowsers.clear();
}

export interface NamespaceLaunchExtras {
  /** Added to this process's environment for the browser (and the native host it starts). @default none */
  env?: Record<string, string>;
  /** Without an extension: keep Chromium's extension system on (no `--disable-extensions`). @default false */
  extensionsEnabled?: boolean;
  /** More command-line switches for Chromium. @default none */
  args?: readonly string[];
}

/**
 * Headless Chromium started inside the client namespace (through `writeWrapper`) with the quiet
 * flags, the origins' host rules and certificates, and optionally one unpacked extension; its
 * profile lives in `dir` (`dir/profile`). Every benchmark that loads pages over the link starts it here.
 */
export function launchInNamespace(
  o: Pick<ChromiumLoadOptions, 'clientNs' | 'hostResolverRules' | 'spkiHashes' | 'timeoutMs'>,
  dir: string,
  extensionDir?: string,
  extras: NamespaceLaunchExtras = {},
): Promise<Browser> {
  return puppeteer.launch({
    executablePath: writeWrapper(dir, o.clientNs),
    headless: true,
    pipe: true,
    userDataDir: join(dir, 'profile'),
    ...(extras.env !== undefined ? { env: { ...process.env, ...extras.env } } : {}),
    ...(extensionDir !== undefined || extras.extensionsEnabled === true ? { ignoreDefaultArgs: ['--disable-extensions'] } : {}),
    args: [
      ...CHROMIUM_QUIET_FLAGS,
      `--host-resolver-rules=${o.hostResolverRules}`,
      `--ignore-certificate-errors-spki-list=${o.spkiHashes.join(',')}`,
      ...(extensionDir !== undefined ? [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`] : []),
      ...(extras.args ?? []),
    ],
    timeout: 30_000,
    protocolTimeout: o.timeoutMs + 10_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

export async function loadWithChromium(o: ChromiumLoadOptions): Promise<ChromiumLoad> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-bench-chromium-'));
  const deadline = Date.now() + o.timeoutMs;
  let browser: Browser | undefined;
  try {
    try {
      browser = await launchInNamespace(o, dir, undefined, o.http1Only === true ? { args: ['--disable-http2'] } : {});
      const proc = browser.process();
      if (proc !== null) liveBrowsers.add(proc);
    } catch (err) {
      throw new BenchRunError('E_CHROMIUM_LAUNCH', `could not start ${CHROMIUM_PATH} in ${o.clientNs}: ${(err as Error).message}`);
    }
    const page = await browser.newPage();
    const { events, lastEventAt } = await recordNetwork(page);
    try {
      await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    } catch (err) {
      throw new BenchRunError(/timeout/i.test((err as Error).message) ? 'E_RUN_TIMEOUT' : 'E_CHROMIUM_LOAD', `chromium ${o.url}: ${(err as Error).message}`);
    }
    await settle(events, lastEventAt, o, deadline);
    const { nav, resources } = await resourceTimingEntries(page);
    const network = chromiumNetworkTiming(events);
    if (network === undefined) throw new BenchRunError('E_CHROMIUM_LOAD', `chromium ${o.url}: no finished document request in the CDP network events`);
    return { network, resourceTiming: chromiumTiming(nav, resources), timeline: chromiumTrace(events) };
  } finally {
    if (browser !== undefined) {
      const proc = browser.process();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([browser.close(), new Promise((r) => (timer = setTimeout(r, 5_000)))]).catch(() => undefined);
      clearTimeout(timer);
      if (proc !== null && proc.exitCode === null) proc.kill('SIGKILL');
      if (proc !== null) liveBrowsers.delete(proc);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

