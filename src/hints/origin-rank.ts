import type { LearnedEntry, LearnedOrigin } from './hint-types';

/**
 * Which learned origins get the few preconnects (HintLimits.maxPreconnects), best first: the ones
 * the page fetched the most bytes from, then the one whose last response ended later, then the
 * first asked. What a warm connection buys is not one handshake's round trips but an open HTTP/2
 * session the browser's resource scheduler sees when the page's requests start: a request to an
 * origin with no such session yet is a "delayable" one Chromium holds back while render-blocking
 * requests are in flight (an inference from the timings below, not read in Chromium's source), and
 * on a page the bulk of whose bytes are images, those are the requests its completion waits on.
 *
 * Issue 15, almanac-median at 100 ms / 20 Mbit/s, 1-BDP queue, lean build, not bandwidth-bound
 * (session 21, 9 runs each): preconnecting static, social, fonts and the image origins img, cdn1,
 * cdn2 (1 018 kB of the page's images) finished in 1.87–1.90 s in every run so hinted, against
 * 1.92–3.53 s alone; the same list with tags, ads, analytics (script origins whose requests were
 * sent last — 960 ms after the document's first byte — but 206 kB of scripts besides ads' 265 kB
 * creative) in their place finished in 3.3–4.0 s. Ordering by first request (session 20) tied
 * these origins within 2 ms and picked the script ones. Open: this order itself picks img, cdn1,
 * ads, static, analytics, cdn2 there and measured 1.43 × alone (9 runs): ads and analytics — origins
 * of async scripts held ~440 ms even on a warm visit — cost what the image origins gain, so the
 * rule that leaves such origins out is still to be found and measured. A response whose size Resource Timing
 * does not expose (no Timing-Allow-Origin) counts as UNKNOWN_SIZE_BYTES (observe-visit.ts), so a
 * third-party image origin of many responses still ranks by how much it serves.
 */
export function rankedOrigins(entry: LearnedEntry, min: number): LearnedOrigin[] {
  return recurringOrigins(entry, min).sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0) || (b.endMs ?? 0) - (a.endMs ?? 0) || a.atMs - b.atMs);
}

/** Origins seen in at least `min` visits, with medians over those visits; critical when any visit found them so. */
function recurringOrigins(entry: LearnedEntry, min: number): LearnedOrigin[] {
  const counts = new Map<string, { o: LearnedOrigin; n: number; at: number[]; end: number[]; bytes: number[] }>();
  for (const v of entry.visits) {
    const once = new Set<string>();
    for (const o of v.origins) {
      const id = `${o.crossorigin ?? ''} ${o.origin}`;
      if (once.has(id)) continue;
      once.add(id);
      const c = counts.get(id) ?? { o, n: 0, at: [], end: [], bytes: [] };
      if (o.critical) c.o = { ...c.o, critical: true };
      c.n++;
      c.at.push(o.atMs);
      if (o.endMs !== undefined) c.end.push(o.endMs);
      if (o.bytes !== undefined) c.bytes.push(o.bytes);
      counts.set(id, c);
    }
  }
  return [...counts.values()]
    .filter((c) => c.n >= min)
    .map((c) => {
      const { bytes: _, endMs: __, ...o } = c.o;
      return { ...o, atMs: median(c.at), ...(c.end.length > 0 ? { endMs: median(c.end) } : {}), ...(c.bytes.length > 0 ? { bytes: median(c.bytes) } : {}) };
    });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
}
