import type { ScheduleItem } from '../../protocol/requests';
import { MAX_REQUESTS_PER_SCHEDULE } from '../../protocol/version';
import { priorityRank, type PriorityClass } from '../../core/priority';
import type { Discovery, PageRecord } from './page-record';
import { buildRequestList, priorityForResourceType, topFrameRequests } from './request-list';
import { withoutFragment } from './site-rules';

/**
 * The list a replay sends the host (docs/extension.md, "Replays replay what the browser did"): only URLs
 * the browser actually requested for the page's top frame (webRequest, or the top document's own
 * Resource Timing), each once, in the order
 * the browser found them — by `discoveredAt`, the earliest of the content script's discovery and
 * the request's start — never re-sorted by class. The class comes from the discovery when there is
 * one (it knows a visible image from a background), else from the request type. Ordering by class
 * is the strategy's decision, not the list's: the `browser` baseline replays discovery order.
 *
 * Invariants: the document first; only URLs `buildRequestList` would accept; at most
 * `maxRequests` items (the earliest found kept).
 */
export function buildReplayList(page: PageRecord, options: { maxRequests?: number } = {}): ScheduleItem[] {
  const max = Math.max(1, options.maxRequests ?? MAX_REQUESTS_PER_SCHEDULE);
  // Everything buildRequestList accepts, keyed by URL: its validation and de-duplication rules.
  const accepted = new Map(buildRequestList(page, { maxRequests: Number.MAX_SAFE_INTEGER }).map((i) => [i.url, i]));
  const claims = claimsByUrl(page.discoveries);
  const [documentItem] = accepted.values();
  const items: ScheduleItem[] = documentItem ? [documentItem] : [];
  const seen = new Set(items.map((i) => i.url));
  const inTopFrame = topFrameRequests(page);
  const requested = [...page.requests].filter((r) => inTopFrame(r) && r.method === 'GET' && r.type !== 'main_frame').sort((a, b) => a.startedAt - b.startedAt);
  const found: Array<ScheduleItem & { discoveredAt: number }> = [];
  for (const r of requested) {
    const url = withoutFragment(r.url);
    const item = accepted.get(url);
    if (!item || seen.has(url)) continue;
    seen.add(url);
    const claim = claims.get(url);
    const startedMs = Math.max(0, r.startedAt - page.startedAt);
    const priority: PriorityClass = claim?.priority ?? priorityForResourceType(r.type);
    found.push({ ...item, priority, discoveredAt: Math.round(Math.min(startedMs, claim?.atMs ?? startedMs)), resourceType: r.type });
  }
  // Stable: equal discovery times keep the browser's request order.
  found.sort((a, b) => a.discoveredAt - b.discoveredAt);
  return [...items, ...found].slice(0, max);
}

/** Discovery claims the browser never acted on (no request seen): shown in the popup, not replayed. */
export function unrequestedDiscoveries(page: PageRecord): Discovery[] {
  const requested = new Set(page.requests.map((r) => withoutFragment(r.url)));
  const out: Discovery[] = [];
  const seen = new Set<string>();
  for (const d of page.discoveries) {
    const url = withoutFragment(d.url);
    if (requested.has(url) || seen.has(url) || url === withoutFragment(page.url)) continue;
    seen.add(url);
    out.push(d);
  }
  return out;
}

function claimsByUrl(discoveries: readonly Discovery[]): Map<string, { priority: PriorityClass; atMs: number }> {
  const out = new Map<string, { priority: PriorityClass; atMs: number }>();
  for (const d of discoveries) {
    const url = withoutFragment(d.url);
    const priority: PriorityClass = d.inViewport && d.priority === 'image' ? 'visible-image' : d.priority;
    const seen = out.get(url);
    if (!seen) out.set(url, { priority, atMs: Math.max(0, d.atMs) });
    else {
      if (priorityRank(priority) < priorityRank(seen.priority)) seen.priority = priority;
      seen.atMs = Math.min(seen.atMs, Math.max(0, d.atMs));
    }
  }
  return out;
}
