import type { PageRecord, TimingEntry } from './page-record';
import { originOf } from '../../core/url-parts';

/**
 * How the browser's connections carried a page, derived from what the browser exposes. No
 * browser tells an extension which connection a request went on, so each origin's count comes
 * from the strongest signal its entries give, and says which:
 *
 * - `connect-phase`: entries whose connect (or DNS) phase starts after their fetch started, or
 *   has a length, opened a connection. Reliable in Firefox; in Chromium a request handed a socket
 *   the browser had already connected (its preconnect at navigation start) shows no connect phase,
 *   so this is a lower bound there.
 * - `overlap`: HTTP/1.x carries one request at a time per connection, so the largest number of
 *   requests in flight at once (`requestStart` … `responseEnd`: when a request held a connection;
 *   `startTime` is when it joined the browser's queue) is a lower bound on the connections used,
 *   capped at what the protocol allows one origin (`MAX_CONNECTIONS_PER_ORIGIN`). A request whose
 *   send time is not exposed (`requestStart` 0, or equal to its start: no request is on the wire
 *   the instant its fetch starts) is left out of it, never placed at its start.
 * - `per-origin`: HTTP/2 and HTTP/3 multiplex one connection per origin; the browser may coalesce
 *   origins onto one connection (same address, certificate covering both), which it does not
 *   expose, so this can over-count by the coalesced origins.
 *
 * Cross-origin entries without Timing-Allow-Origin hide their phases (`notExposed`); entries
 * served from the HTTP cache used no connection (`cached`).
 */
export type ConnectionSource = 'connect-phase' | 'overlap' | 'per-origin';

export interface OriginConnections {
  origin: string;
  /** The protocol most of the origin's exposed entries used (`http/1.1`, `h2`, `h3`; '' unknown). */
  protocol: string;
  /** Connections that carried the page's requests to this origin (the most the signals allow). */
  connections: number;
  /**
   * The fewest the signals allow: below `connections` when some connect phases are ambiguous — a
   * zero-length connect stamped the moment another response on the origin ended may be a queued
   * request handed an idle connection (Firefox stamps both alike, on a 1 ms clock).
   */
  connectionsMin: number;
  /** Of those, connections whose connect phase the browser showed (opened during this page). */
  opened: number;
  /** Requests with exposed timing (the document included for its origin). */
  requests: number;
  /**
   * The most HTTP/1.x requests whose `requestStart` … `responseEnd` overlap, capped at
   * `MAX_CONNECTIONS_PER_ORIGIN`; 1 for HTTP/2 and HTTP/3; undefined when no request of the origin
   * exposes its send time.
   */
  inFlight?: number;
  /** Requests whose send time the browser did not expose: left out of `inFlight`. */
  unsent: number;
  source: ConnectionSource;
}

/**
 * HTTP/1.1 connections a browser keeps to one origin at most: Chromium's socket pool limit, and
 * Firefox's `network.http.max-persistent-connections-per-server` default. HTTP/2 and HTTP/3 send
 * every request of an origin on one connection (RFC 9113 §9.1, RFC 9114 §3.3).
 */
export const MAX_CONNECTIONS_PER_ORIGIN = { h1: 6, multiplexed: 1 } as const;

export interface ConnectionCounts {
  /** Connections used, summed over origins (the most the signals allow). */
  connections: number;
  /** The fewest the signals allow, summed over origins; equal to `connections` when they agree. */
  connectionsMin: number;
  /** Connections shown opening (connect phase visible): a lower bound on those opened for this page. */
  opened: number;
  /**
   * A lower bound on the connections used, summed over origins: each origin's `inFlight`, else 1
   * (it carried a request). Undefined when no origin exposes a send time.
   */
  usedAtLeast?: number;
  /** Requests whose send time was not exposed (`OriginConnections.unsent`), summed. */
  unsent: number;
  /** Requests counted (exposed, not from the cache), the document included. */
  requests: number;
  /** Requests that did not need a connection of their own: `requests − connections`. */
  reused: number;
  /** `requests / connections`; undefined when nothing was exposed. */
  requestsPerConnection?: number;
  /** Entries served from the HTTP cache. */
  cached: number;
  /** Cross-origin entries without Timing-Allow-Origin: their connection is not exposed. */
  notExposed: number;
  byOrigin: OriginConnections[];
}

/** The parts of an entry the count reads; the document's navigation entry maps onto it too. */
interface Fetch {
  name: string;
  /** When the fetch joined the browser's queue (the document's: its `fetchStart`). */
  startTime?: number;
  fetchStart?: number;
  domainLookupStart: number;
  connectStart: number;
  connectEnd: number;
  /** 0 when unknown (a document in a record of an older version): left out of the overlap. */
  requestStart: number;
  responseEnd: number;
  nextHopProtocol: string;
}

export function connectionCounts(page: Pick<PageRecord, 'url' | 'timings' | 'navigation'>): ConnectionCounts {
  const out: ConnectionCounts = { connections: 0, connectionsMin: 0, opened: 0, unsent: 0, requests: 0, reused: 0, cached: 0, notExposed: 0, byOrigin: [] };
  // An origin's HTTP/1.x and HTTP/2 fetches cannot share a connection: counted apart.
  const byOrigin = new Map<string, Fetch[]>();
  const add = (f: Fetch) => {
    const key = `${originOf(f.name)} ${isMultiplexed(f.nextHopProtocol) ? f.nextHopProtocol : 'h1'}`;
    const list = byOrigin.get(key);
    if (list) list.push(f);
    else byOrigin.set(key, [f]);
  };
  const doc = documentFetch(page);
  if (doc) add(doc);
  for (const t of page.timings) {
    if (t.restricted) out.notExposed++;
    else if (isFromCache(t)) out.cached++;
    else add(t);
  }
  for (const [key, fetches] of byOrigin) {
    const o = countOrigin(key.slice(0, key.lastIndexOf(' ')), fetches);
    out.byOrigin.push(o);
    out.connections += o.connections;
    out.connectionsMin += o.connectionsMin;
    out.opened += o.opened;
    out.requests += o.requests;
    out.unsent += o.unsent;
  }
  if (out.byOrigin.some((o) => o.inFlight !== undefined)) out.usedAtLeast = out.byOrigin.reduce((sum, o) => sum + (o.inFlight ?? 1), 0);
  out.reused = out.requests - out.connections;
  if (out.connections > 0) out.requestsPerConnection = out.requests / out.connections;
  return out;
}

/** Served from the HTTP cache: a body arrived, no bytes crossed the network. */
export function isFromCache(t: Pick<TimingEntry, 'transferSize' | 'encodedBodySize'>): boolean {
  return t.transferSize === 0 && t.encodedBodySize > 0;
}

function countOrigin(origin: string, fetches: readonly Fetch[]): OriginConnections {
  const protocol = mostCommon(fetches.map((f) => f.nextHopProtocol));
  const connects = fetches.filter(showsConnect);
  const opened = connects.length;
  const requests = fetches.length;
  const sent = fetches.filter(sendTimeExposed);
  const unsent = requests - sent.length;
  if (isMultiplexed(protocol)) {
    const connections = Math.max(1, opened);
    const inFlight = sent.length > 0 ? MAX_CONNECTIONS_PER_ORIGIN.multiplexed : undefined;
    return { origin, protocol, connections, connectionsMin: connections, opened, requests, ...(inFlight ? { inFlight } : {}), unsent, source: opened > 1 ? 'connect-phase' : 'per-origin' };
  }
  const inFlight = sent.length > 0 ? Math.min(MAX_CONNECTIONS_PER_ORIGIN.h1, maxInFlight(sent)) : undefined;
  const overlap = inFlight ?? 0;
  const certain = connects.filter((f) => !mayBeHandover(f, fetches)).length;
  const connectionsMin = Math.max(1, overlap, certain);
  const shared = { origin, protocol, connectionsMin, opened, requests, ...(inFlight ? { inFlight } : {}), unsent };
  return overlap > opened
    ? { ...shared, connections: overlap, source: 'overlap' }
    : { ...shared, connections: Math.max(1, opened), source: 'connect-phase' };
}

/**
 * The browser exposed when the request went on a connection: `requestStart` is set and later than
 * the fetch's start (a request waits at least for a connection to be found for it).
 */
export function sendTimeExposed(f: Pick<Fetch, 'requestStart' | 'responseEnd'> & { fetchStart?: number; startTime?: number }): boolean {
  if (!(f.requestStart > 0) || !(f.responseEnd >= f.requestStart)) return false;
  const start = f.startTime ?? f.fetchStart;
  return start === undefined || f.requestStart > start;
}

/**
 * A connect phase of no length that starts when another of the origin's responses ended: as much a
 * queued request handed the connection that response freed as a new connection (loopback connects
 * take well under the 1 ms Firefox's clock shows).
 */
function mayBeHandover(f: Fetch, fetches: readonly Fetch[]): boolean {
  if (f.connectEnd > f.connectStart) return false;
  return fetches.some((o) => o !== f && o.responseEnd > 0 && Math.abs(o.responseEnd - f.requestStart) <= HANDOVER_SLACK_MS);
}

/**
 * A connection was set up for this fetch: its connect phase has a length, or its DNS/connect
 * phase began after the fetch did (a reused connection's phases all equal `fetchStart`).
 */
export function showsConnect(f: Pick<Fetch, 'connectStart' | 'connectEnd' | 'domainLookupStart' | 'fetchStart'>): boolean {
  if (f.connectEnd > f.connectStart) return true;
  if (f.fetchStart === undefined || f.connectStart === 0) return false;
  return f.connectStart > f.fetchStart || f.domainLookupStart > f.fetchStart;
}

function isMultiplexed(protocol: string): boolean {
  return protocol === 'h2' || protocol === 'h3' || protocol.startsWith('h3-');
}

/**
 * Overlap shorter than this is taken for a connection handed from one request to the next: Firefox
 * stamps a response's end when it processes it, which can fall a moment after the next request on
 * the same connection was sent, and coarsened timers round both. Real concurrency overlaps by far more.
 */
const HANDOVER_SLACK_MS = 2;

/**
 * Most requests in flight at once, intervals `[requestStart, responseEnd)` of requests whose send
 * time is exposed; touching ends (within the slack) do not overlap.
 */
function maxInFlight(fetches: readonly Fetch[]): number {
  const edges: [number, number][] = [];
  for (const f of fetches) {
    if (f.responseEnd <= f.requestStart) continue;
    // A request shorter than the slack keeps its own end: it cannot have been handed a connection mid-response.
    const end = f.responseEnd - HANDOVER_SLACK_MS > f.requestStart ? f.responseEnd - HANDOVER_SLACK_MS : f.responseEnd;
    edges.push([f.requestStart, 1], [end, -1]);
  }
  // Ends before starts at the same time: a connection freed at t can take the request sent at t.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, d] of edges) max = Math.max(max, (now += d));
  return Math.max(max, fetches.length > 0 ? 1 : 0);
}

/** The document's navigation entry as a fetch of its own origin; undefined when it came from the cache or is missing. */
export function documentFetch(page: Pick<PageRecord, 'url' | 'navigation'>): Fetch | undefined {
  const n = page.navigation;
  if (!n) return undefined;
  if (n.transferSize === 0 && (n.encodedBodySize ?? 0) > 0) return undefined; // the document came from the cache
  // Without its phases (older records) the document still counts as a request on some connection.
  const phases = n.requestStart !== undefined && n.connectStart !== undefined && n.connectEnd !== undefined;
  return {
    name: page.url,
    ...(phases && n.fetchStart !== undefined ? { fetchStart: n.fetchStart } : {}),
    domainLookupStart: phases ? (n.domainLookupStart ?? n.connectStart ?? 0) : 0,
    connectStart: phases ? (n.connectStart ?? 0) : 0,
    connectEnd: phases ? (n.connectEnd ?? 0) : 0,
    requestStart: phases ? (n.requestStart ?? 0) : 0,
    responseEnd: phases ? (n.responseEnd ?? n.responseStart) : 0,
    nextHopProtocol: n.nextHopProtocol,
  };
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = '';
  let bestCount = 0;
  for (const [v, c] of counts) if (c > bestCount && v !== '') [best, bestCount] = [v, c];
  return best;
}
