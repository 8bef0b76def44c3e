import type { Discovery, PageRecord } from './page-record';
import { firstUrl } from './redirect-hops';
import { withoutFragment } from './site-rules';

/**
 * Lowers each discovery's `atMs` to the earliest signal that the browser knew of the resource:
 * the content script's MutationObserver delivery, the Resource Timing `startTime` of the fetch,
 * or webRequest `onBeforeRequest` (ms after the navigation started, when no timing entry exists).
 * A browser's preload scanner requests parser-found resources before the parser inserts their
 * elements, and style-found images are only seen by the script after load, so the DOM time alone
 * can follow the request; after this, a discovery is never later than its request's start.
 *
 * Idempotent (a minimum), so the reducer runs it after every report. Returns whether any changed.
 */
export function settleDiscoveryTimes(page: Pick<PageRecord, 'discoveries' | 'timings' | 'requests' | 'startedAt'>): boolean {
  if (page.discoveries.length === 0) return false;
  const started = new Map<string, { at: number; source: 'resource-timing' | 'webrequest' }>();
  for (const t of page.timings) {
    const url = withoutFragment(t.name);
    const seen = started.get(url);
    if (!seen || t.startTime < seen.at) started.set(url, { at: t.startTime, source: 'resource-timing' });
  }
  for (const r of page.requests) {
    // The URL the element named is the request's first (Resource Timing names it so too).
    const key = withoutFragment(firstUrl(r));
    if (!started.has(key)) started.set(key, { at: Math.max(0, r.startedAt - page.startedAt), source: 'webrequest' });
  }
  let changed = false;
  for (const d of page.discoveries) {
    const s = started.get(withoutFragment(d.url));
    if (s && s.at < d.atMs) {
      settle(d, s.at, s.source);
      changed = true;
    }
  }
  return changed;
}

function settle(d: Discovery, at: number, source: 'resource-timing' | 'webrequest'): void {
  d.atMs = at;
  d.atSource = source;
}
