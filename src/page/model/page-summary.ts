import type { PageRecord, TimingEntry } from './page-record';
import { connectionCounts } from './connection-count';
import { originOf } from '../../core/url-parts';

/** The page's navigation milestones in ms from navigation start; `undefined` when not known yet. */
export interface NavigationMilestones {
  ttfbMs?: number;
  domContentLoadedMs?: number;
  loadMs?: number;
}

/**
 * Navigation Timing when the content script reported it (exact, page clock), else the
 * background's webNavigation epoch times relative to `startedAt` (no TTFB from those).
 */
export function navigationMilestones(page: PageRecord): NavigationMilestones {
  const nav = page.navigation;
  const fromEpoch = (at: number | undefined) => (at === undefined ? undefined : Math.max(0, at - page.startedAt));
  return {
    ttfbMs: positive(nav?.responseStart),
    domContentLoadedMs: positive(nav?.domContentLoadedEventEnd) ?? fromEpoch(page.domContentLoadedAt),
    loadMs: positive(nav?.loadEventEnd) ?? fromEpoch(page.loadAt),
  };
}

/**
 * Each entry classified by its own phases alone (a connect phase shown or not). Not a count of
 * connections: a browser hands requests sockets it connected earlier without showing a connect
 * phase (Chromium's preconnect), so the page's connections are `connectionCounts`.
 */
export interface ConnectionUsage {
  /** Entries that opened a new connection (`connectEnd > connectStart`). */
  opened: number;
  /** Entries sent on a connection that already existed (`connectStart === connectEnd`, network fetch). */
  reused: number;
  /** Served from the HTTP cache (`transferSize === 0` with a body): no connection used. */
  cached: number;
  /** Cross-origin entries without Timing-Allow-Origin: the browser does not say. */
  notExposed: number;
}

export function connectionUsage(timings: readonly TimingEntry[]): ConnectionUsage {
  const usage: ConnectionUsage = { opened: 0, reused: 0, cached: 0, notExposed: 0 };
  for (const t of timings) {
    if (t.restricted) usage.notExposed++;
    else if (t.transferSize === 0 && t.encodedBodySize > 0) usage.cached++;
    else if (t.connectEnd > t.connectStart) usage.opened++;
    else usage.reused++;
  }
  return usage;
}

export interface TransferBytes {
  /** Sum of `transferSize` over entries that expose it. */
  bytes: number;
  /** Entries counted. */
  exposed: number;
  /** Restricted entries, whose size the browser hides. */
  notExposed: number;
}

export function transferBytes(timings: readonly TimingEntry[]): TransferBytes {
  const out: TransferBytes = { bytes: 0, exposed: 0, notExposed: 0 };
  for (const t of timings) {
    if (t.restricted) out.notExposed++;
    else {
      out.bytes += t.transferSize;
      out.exposed++;
    }
  }
  return out;
}

/** Requests the page made: the background's webRequest list, else the timing entries + the document. */
export function requestCount(page: PageRecord): number {
  return page.requests.length > 0 ? page.requests.length : page.timings.length + (page.navigation ? 1 : 0);
}

/** Distinct origins the page fetched from (document included). */
export function origins(page: PageRecord): string[] {
  const set = new Set<string>();
  const add = (url: string) => {
    const o = originOf(url);
    if (o !== '' && o !== 'null') set.add(o);
  };
  add(page.url);
  for (const r of page.requests) add(r.url);
  for (const t of page.timings) add(t.name);
  return [...set];
}

/** What the browser itself took, for the replay table's `browser-observed` row. */
export interface BrowserObserved {
  /** Load event end (ms from navigation start), else the last request's end. */
  totalMs?: number;
  /** Mean `responseStart − startTime` over entries that expose it (navigation included). */
  meanTtfbMs?: number;
  /** Connections the page's requests used, the document's included (`connectionCounts`); undefined when not exposed. */
  connections?: number;
  /** `lower`: `connections` is a lower bound (requests in flight at once); `not-exposed`: no send time exposed, no figure. */
  connectionsBound?: 'exact' | 'lower' | 'not-exposed';
  requestsPerConnection?: number;
  /** Entries whose timing was not exposed (left out of the means). */
  notExposed: number;
}

export function browserObserved(page: PageRecord): BrowserObserved {
  const { loadMs, ttfbMs } = navigationMilestones(page);
  const lastEnd = page.requests.reduce((m, r) => (r.endedAt === undefined ? m : Math.max(m, r.endedAt - page.startedAt)), -1);
  const totalMs = loadMs ?? (lastEnd >= 0 ? lastEnd : undefined);
  const ttfbs: number[] = ttfbMs === undefined ? [] : [ttfbMs];
  let notExposed = 0;
  for (const t of page.timings) {
    if (t.restricted) notExposed++;
    else if (t.responseStart > 0 && !(t.transferSize === 0 && t.encodedBodySize > 0)) ttfbs.push(t.responseStart - t.startTime);
  }
  // Connections the page's requests used (not only those opened during it): see connection-count.ts.
  const counts = page.timings.length > 0 || page.navigation ? connectionCounts(page) : undefined;
  const exposed = counts !== undefined && counts.requests > 0;
  const bound = !exposed ? undefined : counts.usedAtLeast === undefined ? 'not-exposed' : counts.byOrigin.some((o) => o.source === 'overlap') ? 'lower' : 'exact';
  // A lower bound is the fewest connections the signals allow (connection-count.ts), never more.
  const connections = bound === 'lower' ? counts?.connectionsMin : bound === 'exact' ? counts?.connections : undefined;
  return {
    totalMs,
    meanTtfbMs: ttfbs.length > 0 ? ttfbs.reduce((a, b) => a + b, 0) / ttfbs.length : undefined,
    connections,
    ...(bound ? { connectionsBound: bound } : {}),
    requestsPerConnection: connections ? (counts?.requests ?? 0) / connections : undefined,
    notExposed,
  };
}

function positive(ms: number | undefined): number | undefined {
  return ms !== undefined && ms > 0 ? ms : undefined;
}
