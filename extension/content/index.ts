/**
 * Content script (top frame, `document_start`): reports the page's inlined resources as the DOM
 * gains them, and its Resource Timing after `load`. Everything it sends is a `ContentMessage`;
 * classification and timing mapping are the pure helpers in src/page. Nothing runs on the page's
 * critical path: observers only keep what they are given, and the work happens in idle time
 * after `load` (bench/overhead.ts measures what is left).
 */
import { isHttpEntry, toNavigationTiming, toTimingEntry } from '../../src/page/model/timing-mapping';
import { benchOff } from '../platform/bench-switches';
import { startDiscovery } from './discovery-observer';
import { afterLoadIdle, idle } from './idle';
import { send } from './messaging';
import { scanStyleBackgrounds } from './style-scan';

/** Wait after `load` so late `load`-handler fetches have entries too. */
const TIMINGS_DELAY_MS = 300;
/** Re-send timings at most this often when more entries arrive after the first report. */
const TIMINGS_THROTTLE_MS = 1000;
/** The background accepts at most 5000 items per message; stay well below. */
const MAX_PER_MESSAGE = 1000;

function main(): void {
  if (window.top !== window) return;
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
  // Bench-only builds (bench/overhead.ts --variants) may switch either half off; normal builds never.
  const discovery = benchOff('discovery') ? undefined : startDiscovery(document);
  const scan = discovery ? () => scanStyleBackgrounds(document, discovery.report) : () => undefined;
  if (benchOff('timings')) afterLoadIdle(scan);
  else watchTimings(scan);
}

/**
 * Collects resource entries from a buffered PerformanceObserver started at document_start, so
 * entries past the page's Resource Timing buffer (250 by default) are not lost. Sends them after
 * `load`, then the new ones whenever more arrive (throttled).
 */
function watchTimings(afterLoad: () => void): void {
  const entries: PerformanceResourceTiming[] = [];
  let armed = false;
  let sentCount = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    if (entries.length === sentCount && sentCount > 0) return;
    const fresh = entries.slice(Math.max(0, sentCount));
    sentCount = entries.length;
    const origin = location.origin;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const mapped = fresh.filter((e) => isHttpEntry(e.name)).map((e) => toTimingEntry(e, origin));
    // Only the entries not sent yet (the background keeps what it has); the navigation timing each time.
    for (let i = 0; i === 0 || i < mapped.length; i += MAX_PER_MESSAGE) {
      send({ channel: 'content', type: 'timings', entries: mapped.slice(i, i + MAX_PER_MESSAGE), ...(nav ? { navigation: toNavigationTiming(nav) } : {}) });
    }
  };
  const schedule = () => {
    if (armed && timer === undefined) timer = setTimeout(flush, TIMINGS_THROTTLE_MS);
  };

  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) entries.push(e as PerformanceResourceTiming);
      schedule();
    }).observe({ type: 'resource', buffered: true });
  } catch {
    // No PerformanceObserver support for `resource`: fall back to the buffer at load.
    entries.push(...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]));
  }

  afterLoadIdle(() =>
    setTimeout(
      () =>
        idle(() => {
          armed = true;
          flush();
          // Style sheets are scanned last, in an idle period of their own.
          idle(afterLoad);
        }),
      TIMINGS_DELAY_MS,
    ),
  );
}

main();
