import { isHttpProtocol } from '../../core/http-protocol';
import { originOf } from '../../core/url-parts';
import type { BrowserHandshake } from '../../protocol/requests';
import { isFromCache, showsConnect } from './connection-count';
import type { PageRecord } from './page-record';

/** The connect phases of one fetch, as Resource Timing (or Navigation Timing, for the document) gives them. */
interface ConnectPhases {
  name: string;
  fetchStart?: number;
  domainLookupStart: number;
  domainLookupEnd: number;
  connectStart: number;
  /** Undefined where the record does not hold it (a document in a record of an older version). */
  secureConnectionStart: number | undefined;
  connectEnd: number;
  nextHopProtocol: string;
}

/**
 * Every connection the browser shows opening for the page, as handshake records: the same
 * connections the popup counts as "opened" (a connect phase after the fetch started, or with a
 * length; connection-count.ts), timed by the browser's own clock (Resource Timing §4.4):
 *
 * - DNS: `domainLookupStart` … `domainLookupEnd` (0 when the browser's DNS cache answered);
 * - TCP: `connectStart` … `secureConnectionStart` on https:, … `connectEnd` on http:;
 * - TLS: `secureConnectionStart` … `connectEnd` (the browser's `connectEnd` includes TLS);
 * - total: from DNS start (or the connect's start) to `connectEnd`.
 *
 * Left out: entries the browser restricts (cross-origin without Timing-Allow-Origin: zeroed
 * phases), entries from the HTTP cache, HTTP/3 (QUIC has no TCP phase), an https: connect whose TLS
 * start is not exposed, and every entry of a record without `timeOrigin` (no epoch to place them).
 * An HTTP/2 session that several waiting requests share is shown to each with the same phases in
 * Chromium: one record per origin and connect time. TLS resumption is not exposed, so records carry
 * none (a TLS 1.3 handshake takes one round trip resumed or not).
 *
 * These are the browser's figures, not corrected, and neither browser marks the ones that fall
 * short (bench/RESULTS.md, "The browser's own handshakes against the link", traced packet by packet):
 * Chromium clamps a connect already under way when the request took the socket (the navigation's
 * preconnect, a connect begun for another request) to the request's start, so it shows only the
 * rest, and nothing in its entries tells such a connect from a whole one; Firefox times its
 * connects whole but stamps some with no length (`connectEnd` = `connectStart`) though each took a
 * round trip on the wire. A TCP phase of no length is therefore marked `connect: 'unended'`: the
 * connection is counted, its TCP time and total are left out of the stats (src/stats/handshake.ts).
 */
export function browserHandshakes(page: Pick<PageRecord, 'url' | 'timings' | 'navigation'>): BrowserHandshake[] {
  const timeOrigin = page.navigation?.timeOrigin;
  if (timeOrigin === undefined) return [];
  const fetches: ConnectPhases[] = [];
  const doc = documentPhases(page);
  if (doc) fetches.push(doc);
  for (const t of page.timings) if (!t.restricted && !isFromCache(t)) fetches.push(t);
  const out: BrowserHandshake[] = [];
  const seen = new Set<string>();
  for (const f of fetches) {
    const h = handshakeOf(f, timeOrigin);
    if (!h) continue;
    const key = `${h.origin} ${h.protocol} ${f.connectStart} ${f.connectEnd}`;
    if (h.protocol === 'h2' && seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out.sort((a, b) => a.startedAt - b.startedAt);
}

function handshakeOf(f: ConnectPhases, timeOrigin: number): BrowserHandshake | undefined {
  if (!showsConnect(f) || !isHttpProtocol(f.nextHopProtocol)) return undefined;
  const origin = originOf(f.name);
  const https = origin.startsWith('https:');
  if (https && !(f.secureConnectionStart !== undefined && f.secureConnectionStart >= f.connectStart && f.secureConnectionStart <= f.connectEnd)) return undefined;
  const dnsMs = f.domainLookupEnd > f.domainLookupStart && f.domainLookupStart > 0 ? f.domainLookupEnd - f.domainLookupStart : 0;
  const start = f.domainLookupStart > 0 && f.domainLookupStart <= f.connectStart ? f.domainLookupStart : f.connectStart;
  const tcpEnd = https ? (f.secureConnectionStart as number) : f.connectEnd;
  const tcpMs = tcpEnd - f.connectStart;
  const tlsMs = https ? f.connectEnd - tcpEnd : 0;
  return {
    origin,
    startedAt: round(timeOrigin + start),
    dnsMs: round(dnsMs),
    tcpMs: round(tcpMs),
    tlsMs: round(tlsMs),
    totalMs: round(Math.max(f.connectEnd - start, dnsMs + tcpMs + tlsMs)),
    protocol: f.nextHopProtocol,
    ...(round(tcpMs) === 0 ? { connect: 'unended' as const } : {}),
  };
}

function documentPhases(page: Pick<PageRecord, 'url' | 'navigation'>): ConnectPhases | undefined {
  const n = page.navigation;
  if (!n || n.connectStart === undefined || n.connectEnd === undefined || n.domainLookupStart === undefined) return undefined;
  if (n.transferSize === 0 && (n.encodedBodySize ?? 0) > 0) return undefined; // from the HTTP cache
  return {
    name: page.url,
    ...(n.fetchStart !== undefined ? { fetchStart: n.fetchStart } : {}),
    domainLookupStart: n.domainLookupStart,
    domainLookupEnd: n.domainLookupEnd ?? n.domainLookupStart,
    connectStart: n.connectStart,
    secureConnectionStart: n.secureConnectionStart,
    connectEnd: n.connectEnd,
    nextHopProtocol: n.nextHopProtocol,
  };
}

/** The browser's clocks give at best 5 µs; 1 µs keeps every figure it gave. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
