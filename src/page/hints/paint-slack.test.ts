import type { LearnedResource, PathSample, Visit } from './hint-types';
import { fontsBeforePaint, INITIAL_WINDOW_BYTES, slowStartRounds } from './paint-slack';
import { PATH_SAMPLE_METHOD, UNKNOWN_SIZE_BYTES } from './path-sample';

const PAGE = 'https://www.example.test/real-shop/index.html';
const FONTS = 'https://fonts.example.test/real-shop/fonts';

const path = (criticalBytes: number, deliveryBytesPerMs: number, rttMs: number): PathSample => ({ criticalBytes, deliveryBytesPerMs, rttMs, method: PATH_SAMPLE_METHOD });
const visit = (documentMs: number | undefined, paintMs: number | undefined, p: PathSample | undefined): Visit => ({
  at: 0,
  url: PAGE,
  hinted: false,
  ...(p ? { path: p } : {}),
  ...(documentMs !== undefined ? { documentMs } : {}),
  ...(paintMs !== undefined ? { paintMs } : {}),
  resources: [],
  origins: [],
});
const font = (url: string, size = 0): LearnedResource => ({ url, as: 'font', crossorigin: 'anonymous', type: 'font/woff2', late: true, atMs: 870, inViewport: false, size });

/**
 * real-shop's two warm-up visits as the Detailed build learned them in bench/hints/main.ts (Chromium 156,
 * 100 ms / 20 Mbit/s, `--detailed`): a cold one (document at 324 ms, paint at 904) and one soon after
 * on open connections (107 ms, 488). Its two fonts come from a font service's style sheet, their
 * sizes not exposed.
 */
const SHOP = [visit(324, 904, path(178_600, 1338.71, 101.1)), visit(107, 488, path(146_000, 1720, 102.2))];
const SHOP_FONTS = [font(`${FONTS}/f0.woff2`), font(`${FONTS}/f1.woff2`)];

describe('fontsBeforePaint: Chromium preloads a font only where it arrives before the page paints anyway', () => {
  test('real-shop: the first font ends a round trip before either visit’s paint, the second does not', () => {
    // Cold: 324 + 324 (the font service reached as the document was) + one more round of slow start
    // for 32 768 bytes (101.1) = 749.1 ≤ 904 − 101.1; the second font makes 65 536 bytes on that
    // connection, three rounds: 850.2 > 802.9. Warm: 107 + 107 + 102.2 = 316.2 ≤ 488 − 102.2.
    expect([...fontsBeforePaint(SHOP, SHOP_FONTS, PAGE)]).toEqual([`${FONTS}/f0.woff2`]);
    // Painting later (cold at 952, warm at 521), both fit.
    const later = [visit(324, 952, path(178_600, 1338.71, 101.1)), visit(107, 521, path(146_000, 1720, 102.2))];
    expect([...fontsBeforePaint(later, SHOP_FONTS, PAGE)]).toEqual(SHOP_FONTS.map((f) => f.url));
  });

  test('a font that does not fit leaves out every later one, small as it may be', () => {
    expect([...fontsBeforePaint(SHOP, [font(`${FONTS}/big.woff2`, 200_000), font(`${FONTS}/small.woff2`, 1_000)], PAGE)]).toEqual([]);
  });

  test('another origin takes what the document took to reach, and slow start; the document’s own origin, one round trip', () => {
    // real-small's shape: the document at 316 ms, paint at 648, a 20 000-byte font. From the font
    // service: 316 + 316 + 100 (two rounds) = 732 > 548 — not preloaded (with it Chromium painted 1.20 × later).
    const small = [visit(316, 648, path(57_200, 1500, 100))];
    expect(fontsBeforePaint(small, [font('https://fonts.example.test/f.woff2', 20_000)], PAGE).size).toBe(0);
    // The same font on the document's open connection: 316 + 100 + 13.3 = 429.3 ≤ 548.
    expect(fontsBeforePaint(small, [font('https://www.example.test/f.woff2', 20_000)], PAGE).size).toBe(1);
  });

  test('slow start: ten 1,460-byte segments, doubling each round trip', () => {
    expect([1, 14_600, 14_601, 43_800, 43_801, 102_200, 102_201].map(slowStartRounds)).toEqual([1, 1, 2, 2, 3, 3, 4]);
    expect(INITIAL_WINDOW_BYTES).toBe(14_600);
  });

  test('on a busy path the critical bytes decide: the fonts cannot all cross before the page’s own bytes', () => {
    // almanac-median's shape: 744 000 critical bytes, the document at 320 ms, paint at ~1 000. The
    // connection's estimate is 320 + 320 + 102 = 742 ms; at a rate read as 2 363 B/ms the link's,
    // 320 + (744 000 + 32 768) / 2 363 = 649, is sooner; at 970 B/ms (the cold visit) it is 1 121.
    const fast = visit(320, 1000, path(744_000, 2363, 102));
    const cold = visit(320, 996, path(744_000, 970, 102));
    expect(fontsBeforePaint([fast], [font(`${FONTS}/a.woff2`)], PAGE).size).toBe(1);
    expect(fontsBeforePaint([cold], [font(`${FONTS}/a.woff2`)], PAGE).size).toBe(0);
    // Every visit that measured must agree.
    expect(fontsBeforePaint([fast, cold], [font(`${FONTS}/a.woff2`)], PAGE).size).toBe(0);
  });

  test('a font of unexposed size counts as UNKNOWN_SIZE_BYTES', () => {
    // On the document's origin the link decides: 324 + (178 600 + x) / 1 338.71, then a round trip
    // — a paint at 583 ms is exactly room for UNKNOWN_SIZE_BYTES, not for 2 000 bytes more.
    const room = 324 + (178_600 + UNKNOWN_SIZE_BYTES) / 1338.71 + 101.1;
    const at = (paint: number) => [visit(324, paint, path(178_600, 1338.71, 101.1))];
    const own = 'https://www.example.test/f0.woff2';
    expect(fontsBeforePaint(at(Math.ceil(room)), [font(own)], PAGE).size).toBe(1);
    expect(fontsBeforePaint(at(Math.floor(room)), [font(own)], PAGE).size).toBe(0);
    expect(fontsBeforePaint(at(Math.ceil(room)), [font(own, UNKNOWN_SIZE_BYTES + 2000)], PAGE).size).toBe(0);
  });

  test('no visit that measured its path, its document and a paint without a font preload: no font', () => {
    const f0 = [font(`${FONTS}/f0.woff2`)];
    expect(fontsBeforePaint([], f0, PAGE).size).toBe(0);
    expect(fontsBeforePaint([visit(324, undefined, path(178_600, 1338.71, 101.1))], f0, PAGE).size).toBe(0);
    expect(fontsBeforePaint([visit(undefined, 904, path(178_600, 1338.71, 101.1))], f0, PAGE).size).toBe(0);
    expect(fontsBeforePaint([visit(324, 904, undefined)], f0, PAGE).size).toBe(0);
    // Visits that did not measure are left out, not counted against: the one that did judges.
    expect(fontsBeforePaint([visit(324, undefined, undefined), SHOP[0] as Visit], f0, PAGE).size).toBe(1);
  });
});
