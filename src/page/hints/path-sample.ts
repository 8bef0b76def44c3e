import type { PageRecord, TimingEntry } from '../model/page-record';
import { documentResponseEnd } from '../model/timing-mapping';
import type { PathSample, PathVerdict, Visit } from './hint-types';

/**
 * Whether a page's path is bandwidth-bound, judged from what earlier visits measured.
 *
 * A preload only moves bytes earlier. When the link sits idle for much of the way to first paint
 * (round trips dominate: a fast link, a far server), a late resource fetched in that idle time is
 * free. When the bytes the page needs before it can paint take several round trips just to
 * serialize at the rate the path delivers, every preloaded byte that is not itself needed for the
 * paint is a byte the render-blocking style sheets and scripts wait behind — and across origins no
 * stream priority can put it back in line (each origin has its own connection on the one link).
 *
 * The measure: `criticalBytes / deliveryBytesPerMs`, the serialization time of the page's
 * pre-DOMContentLoaded bytes, in round trips (`rttMs`); at BANDWIDTH_BOUND_RTTS or more the path is
 * bandwidth-bound. Below, the link is idle for the rest of those round trips, and what it would
 * carry in that time (`budgetBytes`) is what preloads the paint does not need may take. The delivery
 * rate is a lower bound on the path's capacity that no timing of a response can push above it
 * (`deliveryRate`): bytes over the time they must have crossed the link in, from one round trip
 * after the request to the response's end, for the single large response and the busy period
 * (responses sharing the link summed) that give the most — so a far, fast path is not taken for a
 * narrow one because its responses shared it, and a narrow one is not taken for a fast one because
 * a response was read late and whole. Across visits the less bound of two judges, and of three or
 * more the second least bound (`pathVerdict`). The measurements behind each choice:
 * docs/extension.md, "Hints that never cost on a slow link".
 */

/** Responses smaller than this say more about round trips than about the rate. */
export const RATE_MIN_BYTES = 16 * 1024;
/**
 * Serialization of the critical bytes at or above this many round trips: bandwidth-bound. It sits
 * between the bench's two link shapes (bench/hints/main.ts: 40 ms / 5 Mbit/s and 100 ms / 20 Mbit/s).
 * The rate bound reads a far link's rate low (slow start and queueing inside the spans), so a page
 * near the threshold on a far, fast link is judged bound: the cautious side.
 */
export const BANDWIDTH_BOUND_RTTS = 4;

/** A request to its first byte faster than this was not a round trip over a network (a cache, a service worker). */
export const RTT_FLOOR_MS = 2;

/**
 * How `pathSampleOf` measures. Samples stored under another method are dropped when the learned
 * state is read (learned-state-json.ts): methods 1–3 misread the path (round trips from clamped
 * connect phases and cache hits; rates from `responseStart`; a Firefox document's span ending at
 * its first byte), and a wrong sample must not keep judging — the page is hinted as unmeasured
 * until new visits measure it.
 */
export const PATH_SAMPLE_METHOD = 4;

/** What a preload of a resource whose size was not exposed (no Timing-Allow-Origin) is counted as. */
export const UNKNOWN_SIZE_BYTES = 32 * 1024;

/** What one page load says of its path; undefined when it measured no rate or no round trip. */
export function pathSampleOf(page: PageRecord): PathSample | undefined {
  const timings = new Map<string, TimingEntry>();
  for (const t of page.timings) if (!t.restricted && !timings.has(t.name)) timings.set(t.name, t);
  const nav = page.navigation;
  const sizeOf = (t: TimingEntry | undefined) => (t ? t.encodedBodySize || t.transferSize : 0);

  // The document and every style sheet and script the page asked for before DOMContentLoaded:
  // what the parser had to have (render-blocking ones and, counted too, deferred ones).
  let criticalBytes = nav?.encodedBodySize ?? 0;
  const counted = new Set<string>();
  for (const r of page.requests) {
    if (r.frameId !== 0 || (r.type !== 'stylesheet' && r.type !== 'script') || counted.has(r.url)) continue;
    if (page.domContentLoadedAt === undefined || r.startedAt >= page.domContentLoadedAt) continue;
    counted.add(r.url);
    criticalBytes += sizeOf(timings.get(r.url));
  }

  // Only what crossed the network: a response served from the browser's cache (transferSize 0
  // with a body) took no round trip and no link time, and would read as a near-zero RTT and a
  // near-infinite rate.
  const network = [...timings.values()].filter((t) => t.transferSize > 0 && t.requestStart > 0);

  const rttMs = roundTripOf(network, nav) ?? Infinity;
  if (rttMs === Infinity || criticalBytes === 0) return undefined;

  // Each response's bytes crossed the link somewhere in [requestStart + one round trip, responseEnd]
  // (the server cannot answer sooner). Not `responseStart`: a response whose first packet was lost
  // (drop-tail queue) or whose socket was read late by a busy network thread is timed from when its
  // headers were *read*, with most of its body already buffered below, and reads many times the
  // link: a slow path would be judged fast.
  const spans: Span[] = [];
  const add = (bytes: number, requestStart: number | undefined, end: number | undefined) => {
    if (bytes <= 0 || requestStart === undefined || requestStart <= 0 || end === undefined) return;
    // The measured round trip can exceed the path's (server time on every response), which reads
    // the rate somewhat above the link: the one over-read left, bounded by FAST_QUORUM.
    const from = requestStart + rttMs;
    if (end - from >= 1) spans.push({ from, to: end, bytes });
  };
  // Not a document whose end is unknown (Firefox reports it at the first byte): read as its end, a
  // whole document crosses in no time and clears a bound path.
  if (nav && (nav.transferSize ?? 1) > 0) add(nav.encodedBodySize ?? 0, nav.requestStart, documentResponseEnd(nav));
  for (const t of network) add(sizeOf(t), t.requestStart, t.responseEnd);
  const rate = deliveryRate(spans);
  if (rate === 0) return undefined;
  return { criticalBytes, deliveryBytesPerMs: round(rate, 1000), rttMs: round(rttMs, 10), method: PATH_SAMPLE_METHOD };
}

/**
 * One round trip of the path, as a load measured it: the smallest time from a request sent to its
 * first byte over `network` responses (what crossed the network) and the document; server think
 * time and queueing only add to it. Undefined when none measured one.
 */
export function roundTripOf(network: readonly TimingEntry[], nav: PageRecord['navigation']): number | undefined {
  // One round trip: the smallest time from a request sent to its first byte (server think time and
  // queueing only add to it). Connect phases are not used: Chromium clamps the connect times of a
  // socket that was already connecting (preconnected, or opened for another request) to the
  // request's own start, so a request that joined a handshake near its end shows a connect phase of
  // a millisecond or two, and a fast page would be judged bandwidth-bound.
  let rttMs = Infinity;
  const rtt = (requestStart: number | undefined, responseStart: number) => {
    if (requestStart === undefined || requestStart <= 0) return;
    const x = responseStart - requestStart;
    if (Number.isFinite(x) && x >= RTT_FLOOR_MS) rttMs = Math.min(rttMs, x);
  };
  for (const t of network) rtt(t.requestStart, t.responseStart);
  if (nav && (nav.transferSize ?? 1) > 0) rtt(nav.requestStart, nav.responseStart);
  return rttMs === Infinity ? undefined : rttMs;
}

/** A response's body bytes and the interval they must have crossed the link in. */
export interface Span {
  from: number;
  to: number;
  bytes: number;
}

/**
 * The path's delivery rate as a lower bound, never above what the link carries: for any set of
 * responses, all their bytes crossed the link within the union of their spans, so bytes over the
 * union's length is at most the link's rate — whatever the responses' own first-byte times say.
 * Two such sets are taken, the best bound of either: each single response of RATE_MIN_BYTES or
 * more (one alone on the link reads the rate itself), and each busy period (overlapping spans
 * merged; responses sharing the link add up) carrying RATE_MIN_BYTES or more. Idle time inside a
 * span (slow start, server think time) only lowers the figure: the path reads more bound, the safe
 * side (hints are cut, never added, on a doubtful path).
 */
export function deliveryRate(spans: readonly Span[]): number {
  let rate = 0;
  for (const s of spans) if (s.bytes >= RATE_MIN_BYTES) rate = Math.max(rate, s.bytes / (s.to - s.from));
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  let cur: Span | undefined;
  const close = () => {
    if (cur && cur.bytes >= RATE_MIN_BYTES) rate = Math.max(rate, cur.bytes / (cur.to - cur.from));
  };
  for (const s of sorted) {
    if (cur && s.from <= cur.to) cur = { from: cur.from, to: Math.max(cur.to, s.to), bytes: cur.bytes + s.bytes };
    else {
      close();
      cur = { ...s };
    }
  }
  close();
  return rate;
}

/**
 * The verdict of the visits that measured their path; undefined when none did. Every sample's rate
 * is a lower bound on the link's (`deliveryRate`), so the least bound visit is still a bound on the
 * path and the more bound ones only read more of their own idle time (a cold first visit's large
 * responses are all in slow start; slow start inside the spans reads a far link low). So the less
 * bound of two visits judges. From three visits on, "fast" needs two visits that say so
 * (FAST_QUORUM: the second least bound judges), so one visit from a faster network, or one read
 * too high by a measured round trip longer than the path's (`pathSampleOf`), does not clear a path
 * the others find bound. How often each rule judged the bench's pages bound: docs/extension.md,
 * "Hints that never cost on a slow link".
 */
export function pathVerdict(visits: readonly Visit[]): PathVerdict | undefined {
  const paths = visits.map((v) => v.path).filter((p): p is PathSample => p !== undefined && p.deliveryBytesPerMs > 0 && p.rttMs > 0);
  if (paths.length === 0) return undefined;
  // The judging visit: the k-th least bound, k = FAST_QUORUM once there are more than two.
  const k = paths.length > 2 ? FAST_QUORUM : 1;
  const criticalRtts = kthSmallest(paths.map((p) => p.criticalBytes / p.deliveryBytesPerMs / p.rttMs), k);
  // What the link carries in BANDWIDTH_BOUND_RTTS round trips beyond the critical bytes, as the same visits judge.
  const budgetBytes = Math.max(0, -kthSmallest(paths.map((p) => p.criticalBytes - BANDWIDTH_BOUND_RTTS * p.rttMs * p.deliveryBytesPerMs), k));
  return { criticalRtts: round(criticalRtts, 100), bandwidthBound: criticalRtts >= BANDWIDTH_BOUND_RTTS, budgetBytes: Math.round(budgetBytes), samples: paths.length };
}

/** Visits that must find the path not bound, once three or more measured it, for the verdict to be "not bound". */
export const FAST_QUORUM = 2;

function kthSmallest(xs: readonly number[], k: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(k, s.length) - 1] as number;
}

function round(x: number, by: number): number {
  return Math.round(x * by) / by;
}
