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
import type { Browser, WebWorker } from 'puppeteer-core';
import { chromiumNetworkTiming, type CdpNetworkEvents } from '../run/chromium-network-timing';
import { PAINT_ENTRIES, type PaintEntries } from './paint-entries';
import { storageItemsExpression, storedLearnedState, storedVisitsExpression } from './learned-storage';
import { launchInNamespace, recordNetwork, settle, type ChromiumLoadOptions } from '../run/chromium-contender';
import type { Origins } from '../origins/start-origins';
import type { PathSample, PathVerdict } from '../../src/page/hints/hint-types';

/**
 * Each browser alone, with getlist, (Chromium, `--hints-off`) with getlist and its hints switched
 * off in the options: the extension's own cost, apart from what the hints do; and (Chromium)
 * alone on the page's `+ideal` variant, whose head carries the ideal hints, and on its `+all`
 * variant, every subresource preloaded at high priority (bench/corpus/ideal-hints.ts): the bounds on
 * what hinting can gain.
 */
export type HintsContender = 'chromium' | 'chromium+getlist' | 'chromium+getlist-off' | 'chromium+ideal' | 'chromium+all' | 'firefox' | 'firefox+getlist' | 'firefox+getlist-off' | 'firefox+ideal' | 'firefox+all';

export interface HintsSessionOptions {
  clientNs: string;
  /** The page (`+ideal`, `+all` contenders: its `+ideal`, `+all` variant). */
  url: string;
  hostResolverRules: string;
  spkiHashes: readonly string[];
  /** dist/extension, for `+getlist`. */
  extensionDir: string;
  contender: HintsContender;
  expectedRequests: number;
  timeoutMs: number;
  origins: Origins;
  /** `host/path` of the page's resources found only through CSS or script (its manifest's `discoveredBy`). */
  lateResources?: ReadonlySet<string>;
  /** Packets the link has dropped so far, both directions (its drop-tail queue): read around the measured load. */
  droppedPackets?: () => Promise<number>;
  /**
   * Each warm-up visit's tab is closed this long after `load`, as a user who moves on does: exactly two
   * warm-up visits then, learned or not (`learnedWarmUps` says how many were). Without it a visit
   * stays until the extension has learned it (up to LEARN_WAIT_MS), and a missed one is repeated.
   */
  dwellMs?: number;
}

export interface HintsRun {
  /** Navigation start → last response end (CDP), ms. */
  completeMs: number;
  fcpMs: number | null;
  lcpMs: number | null;
  /** What the largest contentful paint was: an image's URL, else the element's tag (absent from results written before it was recorded). */
  lcpElement?: string | null;
  /** Requests the origins logged for the measured load. */
  serverRequests: number;
  /** Paths the origins served more than once in the measured load. */
  duplicates: string[];
  /** Paths the origins served for the measured load, sorted. */
  paths: string[];
  /**
   * Navigation start → the last response end of the late-found resources (Chromium: CDP), ms: when
   * it is well before `completeMs`, no hint can shorten the page's completion.
   */
  lateEndMs?: number;
  /** Warm-up visits made (2, more when the extension missed one). */
  warmUpVisits: number;
  /** With a dwell (getlist only): how many of the two warm-up visits the extension had learned once their tabs closed. */
  learnedWarmUps?: number;
  /** Hints in the Link header the extension's rules give the page (getlist only). */
  hints?: number;
  /** The learned state as the extension stored it (getlist only), for the overhead measurement. */
  learned?: unknown;
  /** What each learned visit of the page measured of its path (null: nothing), oldest first (getlist only). */
  samples?: Array<PathSample | null>;
  /**
   * Per learned visit of the page, oldest first: its document's first byte and its first paint
   * without a font preloaded, ms (null: not measured) — what the Chromium font rule judges by (getlist only).
   */
  paints?: Array<[number | null, number | null]>;
  /** Per learned visit of the page, oldest first, the resources it recorded (`late|early as size url`; getlist only). */
  learnedResources?: string[][];
  /** The page's preloads (`as url`) as the learned state gives them (getlist only). */
  preloads?: string[];
  /** The page's preconnects (`origin`, ` anonymous` for a CORS pool) as the learned state gives them (getlist only). */
  preconnects?: string[];
  /** The path verdict of the page's hint list (getlist only; absent when no visit measured its path). */
  path?: PathVerdict;
  /**
   * Packets the link's drop-tail queue dropped during the measured load (Chromium): a TCP loss at a
   * connection's start costs it round trips of recovery, one way a run lands in the slow mode.
   */
  droppedPackets?: number;
  /**
   * With GETLIST_HINTS_TIMELINE=1: the measured load's requests as CDP saw them, `start end url` in
   * ms from the document's request, in start order — where a contender's time went.
   */
  timeline?: string[];
  /**
   * With GETLIST_HINTS_DUMP=1 (getlist only): per warm-up visit, the page's own Resource Timing
   * (what the lean build's records are built from) and the packets the link dropped during it —
   * the path samples' raw material (src/page/hints/path-sample.ts).
   */
  warmUpTimings?: WarmUpTimings[];
}

/** One warm-up visit's Resource Timing, as the page saw it. */
export interface WarmUpTimings {
  droppedPackets?: number;
  navigation: Record<string, number | string>;
  resources: Array<Record<string, number | string>>;
}

const TIMING_FIELDS = ['startTime', 'requestStart', 'responseStart', 'responseEnd', 'transferSize', 'encodedBodySize', 'nextHopProtocol', 'initiatorType', 'name'];
const DUMP_TIMINGS = `(() => { const pick = (e) => Object.fromEntries(${JSON.stringify(TIMING_FIELDS)}.map((k) => [k, typeof e[k] === 'number' ? Math.round(e[k] * 10) / 10 : e[k]]));
  return { navigation: pick(performance.getEntriesByType('navigation')[0]), resources: performance.getEntriesByType('resource').map(pick) }; })()`;

/**
 * The measured load's requests (CDP), `start end url priority sent` — ms from the document's
 * request; `sent` when the network stack wrote the request (`timing.requestTime + sendStart`: a
 * request the browser held starts long before it is sent) — in start order.
 */
function timelineOf(events: CdpNetworkEvents): string[] {
  const doc = events.sent[0];
  if (!doc) return [];
  const ends = new Map(events.ended.map((e) => [e.requestId, e.timestamp]));
  const sentAt = new Map(events.responses.map((r) => [r.requestId, r.timing && r.timing.sendStart !== undefined && r.timing.sendStart >= 0 ? r.timing.requestTime + r.timing.sendStart / 1000 : undefined]));
  const ms = (t: number | undefined) => (t === undefined ? '-' : String(Math.round((t - doc.timestamp) * 1000)));
  return events.sent.map((e) => `${ms(e.timestamp)} ${ms(ends.get(e.requestId))} ${e.url} ${e.priority ?? '-'} ${ms(sentAt.get(e.requestId))}`);
}

const EXTENSION_ID = 'kelbbeopokdfcgnhndalcnpcofnpkfln';
/** After load, the extension learns once the page's timings are in (LEARN_DELAY_MS, 5 s, in the background). */
const LEARN_WAIT_MS = 10_000;
/** With a dwell, how long after the tab's close the learned visit may take to be stored (the close grace is 300 ms). */
const CLOSED_LEARN_WAIT_MS = 3000;
const live = new Set<ChildProcess>();

export function killHintBrowsersSync(): void {
  for (const p of live) if (p.exitCode === null) p.kill('SIGKILL');
  live.clear();
}

async function launch(o: HintsSessionOptions, dir: string): Promise<Browser> {
  const withExtension = o.contender.startsWith('chromium+getlist');
  const browser = await launchInNamespace(o, dir, withExtension ? o.extensionDir : undefined);
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

/**
 * Evaluates `expression` in the extension's service worker. A worker that is still starting (or
 * was just restarted) may not have its context yet (`chrome is not defined`): retried ≤ 10 s.
 */
async function inWorker(browser: Browser, expression: string): Promise<unknown> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await (await worker(browser)).evaluate(expression);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Hints the extension applied to the measured load: the `<link data-getlist-hint>` elements its
 * document_start content script inserted (the shipped lean build delivers hints so; it holds no
 * declarativeNetRequest permission, docs/extension.md). Read after the load, so it costs it nothing.
 */
const LINK_HINTS = `document.querySelectorAll('link[data-getlist-hint]').length`;

/**
 * One warm-up visit; with the extension, waits until it has learned `visits` visits of the page.
 * Returns false when it did not within LEARN_WAIT_MS (the background missed the navigation's
 * first events — seen on the first visit after a cold start, about one run in four).
 */
async function loadOnce(browser: Browser, o: HintsSessionOptions, visits: number, dump?: WarmUpTimings[]): Promise<boolean> {
  const page = await browser.newPage();
  const dropsBefore = dump ? await o.droppedPackets?.() : undefined;
  await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
  if (dump) {
    await new Promise((r) => setTimeout(r, 1000));
    const t = (await page.evaluate(DUMP_TIMINGS)) as WarmUpTimings;
    const dropsAfter = await o.droppedPackets?.();
    dump.push({ ...t, ...(dropsBefore !== undefined && dropsAfter !== undefined ? { droppedPackets: dropsAfter - dropsBefore } : {}) });
  }
  let learned = true;
  if (o.dwellMs !== undefined) {
    await new Promise((r) => setTimeout(r, o.dwellMs));
    await page.close();
  }
  if (o.contender === 'chromium+getlist') {
    const deadline = Date.now() + (o.dwellMs !== undefined ? CLOSED_LEARN_WAIT_MS : LEARN_WAIT_MS);
    const count = storedVisitsExpression('chrome', o.url);
    while (((await inWorker(browser, count)) as number) < visits) {
      if (Date.now() > deadline) {
        learned = false;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } else if (o.dwellMs === undefined) await new Promise((r) => setTimeout(r, 500));
  if (!page.isClosed()) await page.close();
  return learned;
}

/** Warm-up visits until two are learned (at most 4 visits); with a dwell, two visits whatever was learned. */
async function warmUp(browser: Browser, o: HintsSessionOptions, dump?: WarmUpTimings[]): Promise<{ visits: number; learned: number }> {
  let learned = 0;
  let visits = 0;
  if (o.dwellMs !== undefined) {
    for (; visits < 2; visits++) if (await loadOnce(browser, o, learned + 1, dump)) learned++;
    return { visits, learned };
  }
  while (learned < 2 && visits < 4) {
    visits++;
    if (await loadOnce(browser, o, learned + 1, dump)) learned++;
  }
  if (learned < 2) throw new Error(`the extension learned ${learned} of ${visits} warm-up visits of ${o.url}`);
  return { visits, learned };
}

/** The document's request → the last loadingFinished of a late resource, ms (CDP's monotonic clock). */
function lateEnd(events: CdpNetworkEvents, late: ReadonlySet<string> | undefined): number | undefined {
  const doc = events.sent[0];
  if (!late || late.size === 0 || !doc) return undefined;
  const ids = new Set(
    events.sent
      .filter((e) => {
        try {
          const u = new URL(e.url);
          return late.has(`${u.hostname}${u.pathname}`);
        } catch {
          return false;
        }
      })
      .map((e) => e.requestId),
  );
  const ends = events.ended.filter((e) => ids.has(e.requestId) && !e.failed).map((e) => e.timestamp);
  return ends.length === 0 ? undefined : Math.round((Math.max(...ends) - doc.timestamp) * 1000);
}

/** What the origins served since log line `before`: the measured load's requests, favicon aside. */
export function servedSince(origins: Origins, before: number): Pick<HintsRun, 'serverRequests' | 'duplicates' | 'paths'> {
  const served = origins.accessLog().slice(before).map((e) => `${e.origin}${e.path}`).filter((p) => !p.endsWith('/favicon.ico'));
  const counts = new Map<string, number>();
  for (const p of served) counts.set(p, (counts.get(p) ?? 0) + 1);
  return {
    serverRequests: served.length,
    duplicates: [...counts].filter(([, n]) => n > 1).map(([p]) => p),
    paths: [...served].sort(),
  };
}

export async function hintsSession(o: HintsSessionOptions): Promise<HintsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-bench-hints-'));
  let browser: Browser | undefined;
  try {
    browser = await launch(o, dir);
    // The extension's background is running before the first visit, as in a browser in use.
    if (o.contender === 'chromium+getlist') await inWorker(browser, 'chrome.runtime.id');
    // Options → "Early hints" off: nothing learned, no rules; the rest of the extension runs.
    if (o.contender === 'chromium+getlist-off') await inWorker(browser, `chrome.storage.local.set({ 'getlist.settings.v1': { hints: false } })`);
    const dump = process.env.GETLIST_HINTS_DUMP === '1' && o.contender === 'chromium+getlist' ? ([] as WarmUpTimings[]) : undefined;
    const warm = await warmUp(browser, o, dump);
    await close(browser);

    browser = await launch(o, dir);
    let hints: number | undefined;
    let learned: unknown;
    if (o.contender === 'chromium+getlist') {
      learned = storedLearnedState(await inWorker(browser, storageItemsExpression('chrome')));
    }
    const page = await browser.newPage();
    const { events, lastEventAt } = await recordNetwork(page);
    const before = o.origins.accessLog().length;
    const dropsBefore = await o.droppedPackets?.();
    const deadline = Date.now() + o.timeoutMs;
    await page.goto(o.url, { waitUntil: 'load', timeout: o.timeoutMs });
    await settle(events, lastEventAt, { expectedRequests: o.expectedRequests } as ChromiumLoadOptions, deadline);
    if (o.contender === 'chromium+getlist') hints = (await page.evaluate(LINK_HINTS)) as number;
    const paints = (await page.evaluate(PAINT_ENTRIES)) as PaintEntries;
    const dropsAfter = await o.droppedPackets?.();
    const network = chromiumNetworkTiming(events);
    if (!network) throw new Error(`${o.contender} ${o.url}: no finished document request`);
    const lateEndMs = lateEnd(events, o.lateResources);
    return {
      completeMs: network.totalMs,
      ...(lateEndMs !== undefined ? { lateEndMs } : {}),
      fcpMs: paints.fcp,
      lcpMs: paints.lcp,
      lcpElement: paints.lcpElement,
      ...servedSince(o.origins, before),
      warmUpVisits: warm.visits,
      ...(o.dwellMs !== undefined && o.contender === 'chromium+getlist' ? { learnedWarmUps: warm.learned } : {}),
      ...(hints !== undefined ? { hints } : {}),
      ...(learned !== undefined ? { learned } : {}),
      ...(process.env.GETLIST_HINTS_TIMELINE === '1' ? { timeline: timelineOf(events) } : {}),
      ...(dump ? { warmUpTimings: dump } : {}),
      ...(dropsBefore !== undefined && dropsAfter !== undefined ? { droppedPackets: dropsAfter - dropsBefore } : {}),
    };
  } finally {
    if (browser) await close(browser);
    rmSync(dir, { recursive: true, force: true });
  }
}
