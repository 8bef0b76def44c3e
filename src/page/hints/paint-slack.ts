import type { LearnedResource, Visit } from './hint-types';
import { UNKNOWN_SIZE_BYTES } from './path-sample';
import { originOf } from '../../core/url-parts';

/**
 * The font rule for Chromium (`HintLimits.fontPreloads: 'before-paint'`): which late fonts a
 * preload gets to the browser before the page would have painted anyway. Chromium holds its first
 * paint for a pending preloaded font (CHROMIUM_HINT_LIMITS); a font that has already arrived holds
 * nothing, and it no longer waits until the style sheets are applied to be found — on real-shop at
 * 100 ms its two fonts were the page's last responses, requested at ~870 ms with a first paint at
 * ~900 ms.
 *
 * When a preloaded font would end, estimated per visit that measured its path (`Visit.path`), its
 * document's first byte (`documentMs`) and a paint with no font preloaded (`paintMs`):
 * - the preload acts with the document's first bytes (a `Link` header and the `<link>`s pushed at
 *   commit both come with them), and so does the preconnect to the font's origin;
 * - reaching another origin takes what reaching the document took on that visit, navigation start
 *   to first byte: its DNS, TCP and TLS if it had to open a connection, none if one was open (a
 *   revisit soon after: Chromium's second warm-up visit in bench/hints/main.ts reads ~105 ms against
 *   ~320 ms on a 100 ms https path), and the request's round trip; the document's own origin takes
 *   the round trip only;
 * - its bytes, with those of every font preloaded before it (in the order given), cross the link at
 *   the visit's delivery rate — a lower bound on the link's (path-sample.ts); a font whose size was
 *   not exposed counts as UNKNOWN_SIZE_BYTES;
 * - on another origin's new connection they take slow start's round trips as well: the fonts of
 *   that origin so far, from an initial window of INITIAL_WINDOW_BYTES doubling each round trip
 *   (RFC 6928's ten segments; the first round arrives with the first byte);
 * - and they cannot all have crossed before the page's critical bytes (document, style sheets and
 *   scripts asked for before DOMContentLoaded) crossed with them: where the page's own bytes keep
 *   the link busy this is the later term (almanac-median's 744 kB at 100 ms / 20 Mbit/s: a cold
 *   visit read at 970 B/ms puts even one font past 1,100 ms, after its ~1,000 ms paint).
 *
 * The font must end at least one round trip before that visit's first paint, in every visit that
 * measured all three, and at least one must have. The round trip of margin is about what the
 * estimate missed where it was checked (Chromium 156, 100 ms / 20 Mbit/s, Detailed capture, session
 * 28): the last font preloaded on real-shop, real-news and almanac-median ended 49–162 ms after the
 * cold visit's estimate (7 loads) — queueing behind the page's other connections, which it does not
 * model. The result is a prefix of `fonts`: a font that does not fit leaves no room for a later one,
 * whose bytes come after its.
 */
export function fontsBeforePaint(visits: readonly Visit[], fonts: readonly LearnedResource[], pageUrl: string): Set<string> {
  const judged = visits.filter(measuredPaint);
  const ok = new Set<string>();
  if (judged.length === 0) return ok;
  const documentOrigin = originOf(pageUrl);
  let bytes = 0;
  const onOrigin = new Map<string, number>();
  for (const font of fonts) {
    const size = font.size > 0 ? font.size : UNKNOWN_SIZE_BYTES;
    const origin = originOf(font.url);
    bytes += size;
    const originBytes = (onOrigin.get(origin) ?? 0) + size;
    onOrigin.set(origin, originBytes);
    const sameOrigin = origin === documentOrigin;
    const fits = judged.every((v) => {
      const { rttMs, deliveryBytesPerMs: rate, criticalBytes } = v.path as NonNullable<Visit['path']>;
      const start = v.documentMs as number;
      const reach = sameOrigin ? rttMs : start;
      const slowStart = sameOrigin ? 0 : (slowStartRounds(originBytes) - 1) * rttMs;
      const end = Math.max(start + reach + Math.max(bytes / rate, slowStart), start + (criticalBytes + bytes) / rate);
      return end <= (v.paintMs as number) - rttMs;
    });
    if (!fits) break;
    ok.add(font.url);
  }
  return ok;
}

/** The visit measured what the rule needs: its path, its document's first byte and a paint with no font preloaded. */
export function measuredPaint(v: Visit): boolean {
  return v.path !== undefined && v.documentMs !== undefined && v.paintMs !== undefined;
}

/** A new TCP connection's initial congestion window: ten segments of 1,460 bytes (RFC 6928). */
export const INITIAL_WINDOW_BYTES = 14_600;

/** Round trips slow start takes to deliver `bytes` from INITIAL_WINDOW_BYTES, doubling each one. */
export function slowStartRounds(bytes: number): number {
  return Math.max(1, Math.ceil(Math.log2(bytes / INITIAL_WINDOW_BYTES + 1)));
}

