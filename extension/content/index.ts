/**
 * Content script (top frame, injected by the background once the page's load has completed,
 * extension/background/content-injection.ts): reports the page's inlined resources as the DOM
 * gained them, and its Resource Timing after `load`, from the records `content-start.js`
 * (early-records.ts) kept since `document_start` in Detailed capture, or from what the document
 * holds at `load` in lean capture (early-recorder.ts). Everything it sends is a `ContentMessage`;
 * classification and timing mapping are the pure helpers in src/page. Nothing runs on the page's
 * critical path: the observers only keep what they are given, this script is parsed after `load`,
 * and the work happens in idle time after `load` (bench/overhead/main.ts measures what is left).
 */
import { DEFAULT_RESOURCE_TIMING_BUFFER, isHttpEntry, toNavigationTiming, toTimingEntry } from '../../src/page/model/timing-mapping';
import { DISCOVERY_OFF, TIMINGS_OFF } from '../platform/bench-switches';
import { documentLoadedAt, startDiscovery, type DiscoveryHandle } from './discovery-observer';
import { readEntries, takeEarlyRecords, type EarlyRecords } from './early-records';
import { afterLoadIdle, idle, onHidden } from './idle';
import { send } from './messaging';
import { scanStyleBackgrounds } from './style-scan';

/** Wait after `load` so late `load`-handler fetches have entries too. */
const TIMINGS_DELAY_MS = 300;
/**
 * The first report waits for an idle period at most this long: a visit may end a second after
 * `load` (a tab closed, a link followed), and the hints learn from what was reported by then.
 */
const FIRST_REPORT_IDLE_MS = 500;
/** Classification work allowed when the page is hidden or put away, before its last reports go. */
const HIDDEN_BUDGET_MS = 20;
/** Re-send timings at most this often when more entries arrive after the first report. */
const TIMINGS_THROTTLE_MS = 1000;
/** The background accepts at most 5000 items per message; stay well below. */
const MAX_PER_MESSAGE = 1000;

/** Set in the isolated world by the first run: a second injection into the same document does nothing. */
const STARTED_KEY = '__getlistMainStarted';

function main(): void {
  if (window.top !== window) return;
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
  const g = globalThis as Record<string, unknown>;
  if (g[STARTED_KEY] === true) return;
  g[STARTED_KEY] = true;
  const early = takeEarlyRecords(document);
  // Bench-only builds (bench/overhead/main.ts --variants) may switch either half off; normal builds never.
  const discovery = DISCOVERY_OFF ? undefined : startDiscovery(document, early);
  const scan = discovery ? () => scanStyleBackgrounds(document, discovery.report, discovery.scanDone) : () => undefined;
  if (TIMINGS_OFF) {
    afterLoadIdle(scan);
    if (discovery) onHidden(() => discovery.flushNow(HIDDEN_BUDGET_MS));
  } else watchTimings(early, scan, discovery);
}

/**
 * Sends the resource entries the buffered PerformanceObserver collected after `load`, then the new
 * ones whenever more arrive (throttled). Started at document_start (Detailed capture), it kept the
 * entries past the page's Resource Timing buffer (250 by default); started after `load`, it has the
 * buffer only, and says so when the buffer was full (`bufferFull`).
 */
function watchTimings(early: EarlyRecords, afterLoad: () => void, discovery: DiscoveryHandle | undefined): void {
  const entries = early.entries;
  let armed = false;
  let sentCount = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Decided once, at the first report: whether the buffer had filled before this observer started. */
  let bufferFull: boolean | undefined;

  const flush = () => {
    timer = undefined;
    readEntries(early);
    if (entries.length === sentCount && sentCount > 0) return;
    const fresh = entries.slice(Math.max(0, sentCount));
    sentCount = entries.length;
    const origin = location.origin;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const mapped = fresh.filter((e) => isHttpEntry(e.name)).map((e) => toTimingEntry(e, origin));
    bufferFull ??= !early.fromStart && performance.getEntriesByType('resource').length === DEFAULT_RESOURCE_TIMING_BUFFER;
    const loadedAt = documentLoadedAt();
    // Only the entries not sent yet (the background keeps what it has); the navigation timing each time.
    for (let i = 0; i === 0 || i < mapped.length; i += MAX_PER_MESSAGE) {
      send({
        channel: 'content',
        type: 'timings',
        entries: mapped.slice(i, i + MAX_PER_MESSAGE),
        ...(nav ? { navigation: { ...toNavigationTiming(nav), timeOrigin: Math.round(performance.timeOrigin), ...firstPaint() } } : {}),
        ...(bufferFull ? { bufferFull } : {}),
        ...(loadedAt !== undefined ? { loadedAt } : {}),
        documentCookies: document.cookie !== '',
      });
    }
  };
  const schedule = () => {
    if (armed && timer === undefined) timer = setTimeout(flush, TIMINGS_THROTTLE_MS);
  };

  early.onEntries = schedule;

  afterLoadIdle(() =>
    setTimeout(
      () =>
        idle(() => {
          if (!armed) {
            armed = true;
            flush();
          }
          // Style sheets are scanned last, in an idle period of their own.
          idle(afterLoad, FIRST_REPORT_IDLE_MS);
        }, FIRST_REPORT_IDLE_MS),
      TIMINGS_DELAY_MS,
    ),
  );
  // Hidden or put away (closed, navigated from): what is held goes now, not in a later idle period.
  onHidden(() => {
    if (timer !== undefined) clearTimeout(timer);
    armed = true;
    flush();
    discovery?.flushNow(HIDDEN_BUDGET_MS);
  });
}

/** The page's first contentful paint, once it has painted (the hints' font rule reads it: src/page/hints/paint-slack.ts). */
function firstPaint(): { firstContentfulPaint?: number } {
  const fcp = performance.getEntriesByName('first-contentful-paint', 'paint')[0];
  return fcp ? { firstContentfulPaint: Math.round(fcp.startTime * 1000) / 1000 } : {};
}

main();
