import type { ScheduleItem } from '../../protocol/requests';
import { MAX_REQUESTS_PER_SCHEDULE, MAX_URL_LENGTH } from '../../protocol/version';
import { priorityRank, type PriorityClass } from '../../core/priority';
import type { ObservedRequest, PageRecord } from './page-record';
import { isHttpUrl, withoutFragment } from './site-rules';

/**
 * The request list a page hands the host (`schedule`): the GETLIST of Padmanabhan & Mogul, ordered
 * low-latency first as McManus recommends.
 *
 * Invariants: the document is first; every URL appears once (compared without its fragment);
 * only GET; only http(s) URLs the host accepts; sorted by priority class, then by when the browser
 * learned of the URL (ties keep their order of appearance); at most `maxRequests` items.
 */
export interface RequestListOptions {
  /** Items at most, the document included. @default MAX_REQUESTS_PER_SCHEDULE (2000) */
  maxRequests?: number;
}

/** The class of a URL only webRequest saw (no content-script discovery): by webRequest ResourceType. */
export function priorityForResourceType(type: string, inViewport = false): PriorityClass {
  switch (type) {
    case 'main_frame':
      return 'document';
    case 'stylesheet':
      return 'blocking';
    case 'script':
      return 'script';
    case 'font':
      return 'font';
    case 'image':
    case 'imageset':
      return inViewport ? 'visible-image' : 'image';
    default:
      return 'other';
  }
}

interface Candidate {
  url: string;
  priority: PriorityClass;
  /** ms since navigation start. */
  at: number;
  inViewport: boolean;
  resourceType: string;
  /** Order of first appearance, for a stable sort. */
  seq: number;
}

export function buildRequestList(page: PageRecord, options: RequestListOptions = {}): ScheduleItem[] {
  const max = Math.max(1, options.maxRequests ?? MAX_REQUESTS_PER_SCHEDULE);
  const documentUrl = withoutFragment(page.url);
  const byUrl = new Map<string, Candidate>();
  let seq = 0;

  for (const d of page.discoveries) {
    const url = acceptableUrl(d.url);
    if (!url || url === documentUrl) continue;
    const at = Math.max(0, d.atMs);
    const seen = byUrl.get(url);
    if (!seen) {
      byUrl.set(url, { url, priority: d.priority, at, inViewport: d.inViewport, resourceType: d.kind, seq: seq++ });
      continue;
    }
    // The same URL discovered twice: the most urgent class and the earliest time win.
    if (priorityRank(d.priority) < priorityRank(seen.priority)) seen.priority = d.priority;
    seen.at = Math.min(seen.at, at);
    seen.inViewport ||= d.inViewport;
  }
  for (const c of byUrl.values()) if (c.inViewport && c.priority === 'image') c.priority = 'visible-image';

  const inTopFrame = topFrameRequests(page);
  for (const r of page.requests) {
    if (!inTopFrame(r) || r.method !== 'GET' || r.type === 'main_frame') continue;
    const url = acceptableUrl(r.url);
    if (!url || url === documentUrl || byUrl.has(url)) continue;
    byUrl.set(url, { url, priority: priorityForResourceType(r.type), at: Math.max(0, r.startedAt - page.startedAt), inViewport: false, resourceType: r.type, seq: seq++ });
  }

  const sorted = [...byUrl.values()].sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority) || a.at - b.at || a.seq - b.seq);
  const items: ScheduleItem[] = [{ url: documentUrl, method: 'GET', priority: 'document', discoveredAt: 0, resourceType: 'main_frame' }];
  for (const c of sorted.slice(0, max - 1)) {
    items.push({ url: c.url, method: 'GET', priority: c.priority, discoveredAt: Math.round(c.at), inViewport: c.inViewport, resourceType: c.resourceType });
  }
  return items;
}

/** The URL as the host will accept it (http(s), no credentials, not too long), fragment removed; else undefined. */
function acceptableUrl(raw: string): string | undefined {
  if (!isHttpUrl(raw)) return undefined;
  const url = withoutFragment(raw);
  if (url.length > MAX_URL_LENGTH) return undefined;
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return undefined;
  return url;
}

/**
 * Which of a page's requests are its top frame's: frame 0, or a URL in the top document's own
 * Resource Timing (the content script runs in the top frame only; a sub-frame's fetches are in its
 * own timeline). Chromium 156 sometimes reports a new top-level document's first sub-resources
 * with the frame's internal id instead of 0 (extension/background/frame-id.ts; seen in the e2e
 * replay check about one run in four after a browser restart); its timeline still holds them.
 */
export function topFrameRequests(page: Pick<PageRecord, 'timings'>): (r: Pick<ObservedRequest, 'frameId' | 'url'>) => boolean {
  const ownTimeline = new Set(page.timings.map((t) => withoutFragment(t.name)));
  return (r) => r.frameId === 0 || ownTimeline.has(withoutFragment(r.url));
}
