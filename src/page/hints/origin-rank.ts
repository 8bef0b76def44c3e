import type { LearnedEntry, LearnedOrigin } from './hint-types';

/**
 * An origin whose first request the page asked of it waited this many round trips or more between
 * asked for and sent — on the visit that held it least, its own DNS and connection time taken out —
 * was held by the browser with its socket open (async third-party scripts, which Chromium sends
 * after the page's own requests), not waiting for a connection, and gets no preconnect. Measured
 * from the request's own asking, not from the document's first byte, so an origin found late by a
 * dependency (a font named in a style sheet, a script-inserted one) and sent at once is not counted
 * deferred. 3: more than a cold origin's own setup (DNS, TCP, TLS 1.3 ≈ 1 + 1 + 1 round trips), so
 * a visit whose connection phases were not exposed cannot make an origin look held; and below what
 * the browser's held async scripts wait (docs/extension.md, "Which origins get a preconnect").
 */
export const HELD_RTTS = 3;

/**
 * Which learned origins get the few preconnects (HintLimits.maxPreconnects), best first: of the
 * origins whose requests the browser sends as soon as asked, the ones it fetched the most bytes from, then
 * the one whose last response ended later, then the first asked. What a warm connection buys is
 * not one handshake's round trips but an open HTTP/2 session the browser's resource scheduler sees
 * when the page's requests start: a request to an origin with no such session yet is a "delayable"
 * one Chromium holds back while render-blocking requests are in flight (an inference from the
 * bench's timings, not read in Chromium's source), and on a page the bulk of whose bytes are images,
 * those are the requests its completion waits on.
 *
 * An origin the browser held even with its socket open (HELD_RTTS: async third-party scripts,
 * and with them what they fetch) is left out whatever its bytes: its requests wait on the
 * browser's own order, not on a connection, and it is not the page's content. An origin no visit
 * exposed phases for (no Timing-Allow-Origin, or no round trip measured) is not judged held:
 * without evidence it keeps its place by bytes.
 *
 * A response whose size Resource Timing does not expose counts as UNKNOWN_SIZE_BYTES
 * (observe-visit.ts), so a third-party image origin of many responses still ranks by how much it
 * serves. The measurements that chose bytes over first-request order, and HELD_RTTS:
 * docs/extension.md, "Which origins get a preconnect".
 */
export function rankedOrigins(entry: LearnedEntry, min: number): LearnedOrigin[] {
  return recurringOrigins(entry, min)
    .filter((o) => !(o.heldRtts >= HELD_RTTS))
    .map(({ heldRtts: _, ...o }) => o)
    .sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0) || (b.endMs ?? 0) - (a.endMs ?? 0) || a.atMs - b.atMs);
}

/**
 * Origins seen in at least `min` visits, with medians over those visits; critical when any visit
 * found them so; `heldRtts` the least any visit that measured its round trip held the first
 * request asked of it, in that visit's round trips (NaN when none exposed it).
 */
function recurringOrigins(entry: LearnedEntry, min: number): Array<LearnedOrigin & { heldRtts: number }> {
  const counts = new Map<string, { o: LearnedOrigin; n: number; at: number[]; end: number[]; bytes: number[]; held: number[] }>();
  for (const v of entry.visits) {
    const rtt = v.path?.rttMs;
    const once = new Set<string>();
    for (const o of v.origins) {
      const id = `${o.crossorigin ?? ''} ${o.origin}`;
      if (once.has(id)) continue;
      once.add(id);
      const c = counts.get(id) ?? { o, n: 0, at: [], end: [], bytes: [], held: [] };
      if (o.critical) c.o = { ...c.o, critical: true };
      // Whether only the browser's cache served it: as the latest visit that saw it found.
      const { cached: _, ...seen } = c.o;
      c.o = o.cached ? { ...seen, cached: true } : seen;
      c.n++;
      c.at.push(o.atMs);
      if (o.endMs !== undefined) c.end.push(o.endMs);
      if (o.bytes !== undefined) c.bytes.push(o.bytes);
      if (o.heldMs !== undefined && rtt !== undefined && rtt > 0) c.held.push(o.heldMs / rtt);
      counts.set(id, c);
    }
  }
  return [...counts.values()]
    .filter((c) => c.n >= min)
    .map((c) => {
      const { bytes: _, endMs: __, heldMs: ___, ...o } = c.o;
      return { ...o, heldRtts: c.held.length > 0 ? Math.min(...c.held) : NaN, atMs: median(c.at), ...(c.end.length > 0 ? { endMs: median(c.end) } : {}), ...(c.bytes.length > 0 ? { bytes: median(c.bytes) } : {}) };
    });
}

/** The lower median: a value some visit observed (src/stats/median averages the middle two). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
}
