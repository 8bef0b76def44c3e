/**
 * Page-load numbers from Chromium's own network events (CDP `Network.*` on the tab's session), so
 * every request the page makes counts, including those Resource Timing leaves out (fonts and
 * background images requested by other-origin stylesheets get no entry). Pure: it takes plain event
 * objects as recorded from the CDP session.
 *
 * Times: CDP `timestamp` and `response.timing.requestTime` are seconds on one monotonic clock;
 * `receiveHeadersEnd` is ms after `requestTime`. Results are in ms.
 */

export interface CdpRequestSent {
  requestId: string;
  url: string;
  /** Monotonic seconds. */
  timestamp: number;
  /** Wall-clock seconds (epoch); informational. */
  wallTime?: number;
  /** CDP resource type, e.g. "Document", "Stylesheet", "Font". */
  type?: string;
  /** `request.initialPriority`, e.g. "VeryHigh", "Low"; only the per-request timeline reads it. */
  priority?: string;
}

export interface CdpResponseReceived {
  requestId: string;
  /**
   * `response.timing`; absent for responses not from the network (e.g. memory cache). The phase
   * fields are ms after `requestTime`, −1 when the phase did not happen (a reused connection has
   * no connect); only the per-request timeline (load-trace.ts) reads them.
   */
  timing?: { requestTime: number; receiveHeadersEnd: number; connectStart?: number; connectEnd?: number; sendStart?: number };
  /** `response.protocol`, e.g. "http/1.1", "h2". */
  protocol?: string;
  /** `response.connectionId`: the socket (or h2 session) that carried it. */
  connectionId?: number;
}

export interface CdpLoadingEnded {
  requestId: string;
  /** Monotonic seconds. */
  timestamp: number;
  /** true for `Network.loadingFailed`. */
  failed?: boolean;
}

export interface CdpNetworkEvents {
  sent: readonly CdpRequestSent[];
  responses: readonly CdpResponseReceived[];
  ended: readonly CdpLoadingEnded[];
}

export interface ChromiumNetworkTiming {
  /**
   * The document request's requestWillBeSent → the latest loadingFinished of any of the page's
   * requests (document included).
   */
  totalMs: number;
  /**
   * Mean over subresources (document excluded) with network timing of
   * (response.timing.requestTime + receiveHeadersEnd) − requestWillBeSent timestamp: from when the
   * renderer issued the request (after discovery, before any wait for a connection) to the end of
   * the response headers. NaN when there is none.
   */
  meanTtfbMs: number;
  /** The page's requests (document included; favicon and data: URLs left out). */
  requests: number;
  /** Of those, requests that ended in loadingFailed. */
  failed: number;
  /** Of those, requests with no loadingFinished or loadingFailed. */
  unfinished: number;
  protocols: string[];
  /** URLs of the requests counted, in order of requestWillBeSent, document first. */
  urls: string[];
}

/** Not a page request: the browser's own favicon fetch, and data: URLs (no network). */
export function ignoredUrl(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    return new URL(url).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * undefined when no document request was sent or it never finished. The document is the first
 * request of type "Document" (or, without types, the first request).
 */
export function chromiumNetworkTiming(ev: CdpNetworkEvents): ChromiumNetworkTiming | undefined {
  // First requestWillBeSent per requestId (a redirect re-sends under the same id; the start counts).
  const sent = new Map<string, CdpRequestSent>();
  for (const s of ev.sent) if (!ignoredUrl(s.url) && !sent.has(s.requestId)) sent.set(s.requestId, s);
  if (sent.size === 0) return undefined;
  const doc = [...sent.values()].find((s) => s.type === 'Document') ?? [...sent.values()][0];
  if (doc === undefined) return undefined;
  const finished = new Map<string, number>();
  const failed = new Set<string>();
  for (const e of ev.ended) {
    if (!sent.has(e.requestId)) continue;
    if (e.failed) failed.add(e.requestId);
    else finished.set(e.requestId, Math.max(finished.get(e.requestId) ?? -Infinity, e.timestamp));
  }
  if (!finished.has(doc.requestId)) return undefined;
  const ttfbs: number[] = [];
  const protocols = new Set<string>();
  for (const r of ev.responses) {
    const s = sent.get(r.requestId);
    if (s === undefined) continue;
    if (r.protocol !== undefined && r.protocol !== '') protocols.add(r.protocol);
    if (r.requestId === doc.requestId || r.timing === undefined || !(r.timing.requestTime > 0)) continue;
    const ms = (r.timing.requestTime - s.timestamp) * 1000 + r.timing.receiveHeadersEnd;
    if (Number.isFinite(ms) && ms >= 0) ttfbs.push(ms);
  }
  const lastEnd = Math.max(...finished.values());
  const ids = [...sent.keys()];
  return {
    totalMs: round3((lastEnd - doc.timestamp) * 1000),
    meanTtfbMs: ttfbs.length === 0 ? Number.NaN : round3(ttfbs.reduce((a, b) => a + b, 0) / ttfbs.length),
    requests: sent.size,
    failed: failed.size,
    unfinished: ids.filter((id) => !finished.has(id) && !failed.has(id)).length,
    protocols: [...protocols].sort(),
    urls: [doc.url, ...[...sent.values()].filter((s) => s !== doc).map((s) => s.url)],
  };
}

/** Requests sent and not yet finished or failed (favicon and data: URLs left out). */
export function inFlight(ev: CdpNetworkEvents): number {
  const open = new Set<string>();
  for (const s of ev.sent) if (!ignoredUrl(s.url)) open.add(s.requestId);
  for (const e of ev.ended) open.delete(e.requestId);
  return open.size;
}
