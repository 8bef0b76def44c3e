import { leanRequests } from '../model/lean-requests';
import type { PageRecord, TimingEntry } from '../model/page-record';
import { hintsFor } from './hint-list';
import { CHROMIUM_HINT_LIMITS as L, FIREFOX_HINT_LIMITS, type PathSample } from './hint-types';
import { createLearnedState, recordVisit } from './learned-state';
import { learnedStateFromJson, learnedStateToJson } from './learned-state-json';
import { observeVisit } from './observe-visit';
import { HELD_RTTS, rankedOrigins } from './origin-rank';
import { PATH_SAMPLE_METHOD, UNKNOWN_SIZE_BYTES } from './path-sample';

/**
 * almanac-median's origins as Chromium 156 recorded them in lean capture at 100 ms / 20 Mbit/s
 * (bench/hints/main.ts with GETLIST_HINTS_DUMP=1, run 1's two warm-up visits; per origin its
 * first request and its last response, ms from the time origin; the origin's other responses
 * folded into its last row's size, so each origin's bytes are the visit's).
 */
type Row = [string, string, number, number, number, number];
const PAGE = 'https://www.example.test/almanac-median/index.html';

// [url under the origin, initiator, startTime, requestStart, responseEnd, encodedBodySize]
const COLD: { nav: [number, number, number]; rows: Row[] } = {
  nav: [202.1, 304.5, 409.9],
  rows: [
    ['www css/main.css', 'link', 313.5, 330.1, 507, 16660],
    ['static css/site-1.css', 'link', 314, 539.7, 742, 10178],
    ['static js/static-20.js', 'script', 314.7, 981.2, 1288.4, 248_185],
    ['fonts css/families.css', 'link', 314.2, 543.5, 650.8, 6_008],
    ['social css/widget.css', 'link', 314.2, 542.6, 754.3, 12064],
    ['social js/social-18.js', 'script', 314.6, 981.2, 1421.8, 54_021],
    ['tags js/tags-3.js', 'script', 314.4, 1267.7, 1410.5, 6117],
    ['tags js/tags-13.js', 'script', 314.5, 1268, 1510.6, 8_368],
    ['ads js/ads-5.js', 'script', 314.4, 1268.5, 1512, 10781],
    ['ads creative/ad-3.gif', 'img', 1332.6, 1334.4, 1937, 380_678],
    ['analytics js/analytics-6.js', 'script', 314.5, 1268.5, 1836.8, 176_709],
    ['img i/thumb-0.gif', 'img', 314.7, 547, 653.5, 4083],
    ['img i/photo-20.gif', 'img', 409.7, 981.8, 1735.3, 492_004],
    ['cdn1 i/photo-1.gif', 'img', 314.8, 547.3, 885.4, 81947],
    ['cdn1 bg/bg-0.gif', 'css', 964.1, 981.8, 1497.4, 342_288],
    ['cdn2 i/thumb-2.gif', 'img', 314.9, 881.4, 985.7, 7866],
    ['cdn2 i/photo-17.gif', 'img', 409.6, 981.7, 1440.4, 89_987],
  ],
};
const WARM: typeof COLD = {
  nav: [3.5, 106.4, 210.3],
  rows: [
    ['www css/main.css', 'link', 114.2, 117.8, 307.8, 16660],
    ['static css/site-2.css', 'link', 114.4, 118.2, 336.8, 26358],
    ['static js/static-20.js', 'script', 117.3, 554.2, 831.1, 232_005],
    ['social css/widget.css', 'link', 114.5, 118.3, 236.6, 12064],
    ['social js/social-18.js', 'script', 117.3, 554.2, 986.2, 54_021],
    ['fonts css/families.css', 'link', 114.6, 118.3, 239.3, 6_008],
    ['tags js/tags-3.js', 'script', 114.6, 541.7, 645.9, 6117],
    ['tags js/tags-13.js', 'script', 117.2, 553.4, 802.6, 8_368],
    ['ads js/ads-5.js', 'script', 114.9, 546.1, 659, 10781],
    ['ads creative/ad-5.gif', 'img', 878.5, 884, 1489.9, 380_678],
    ['analytics js/analytics-6.js', 'script', 115, 548.9, 1150.8, 176_709],
    ['img i/thumb-0.gif', 'img', 117.4, 125.8, 241.1, 4083],
    ['img late/promo-6.gif', 'img', 878.5, 884.1, 1412.5, 492_004],
    ['cdn1 i/photo-1.gif', 'img', 117.4, 125.9, 471.8, 81947],
    ['cdn1 bg/bg-0.gif', 'css', 545.1, 556, 1096.8, 342_288],
    ['cdn2 i/thumb-2.gif', 'img', 117.4, 242.2, 348.1, 7866],
    ['cdn2 i/photo-17.gif', 'img', 210.1, 555.8, 1052.3, 89_987],
  ],
};

/** The lean record of one load (requests rebuilt from Resource Timing, lean-requests.ts). */
function leanRecord(shape: typeof COLD, startedAt: number): PageRecord {
  const timings: TimingEntry[] = shape.rows.map(([short, initiatorType, startTime, requestStart, responseEnd, size]) => {
    const [host, path] = short.split(' ') as [string, string];
    return {
      name: `https://${host}.example.test/almanac-median/${path}`, initiatorType, startTime, fetchStart: startTime, domainLookupStart: startTime, domainLookupEnd: startTime, connectStart: startTime, secureConnectionStart: 0, connectEnd: startTime,
      // size −1: a cross-origin entry without Timing-Allow-Origin (sizes and phases zero).
      ...(size < 0
        ? { requestStart: 0, responseStart: 0, responseEnd, transferSize: 0, encodedBodySize: 0, nextHopProtocol: '', restricted: true }
        : { requestStart, responseStart: requestStart + 100, responseEnd, transferSize: size + 300, encodedBodySize: size, nextHopProtocol: 'h2', responseStatus: 200, restricted: false }),
    };
  });
  const [requestStart, responseStart, responseEnd] = shape.nav;
  const page: PageRecord = {
    pageId: `1:${startedAt}`, tabId: 1, url: PAGE, startedAt, capture: 'lean', requests: [], timings, discoveries: [], domContentLoadedAt: startedAt + 1300,
    navigation: { timeOrigin: startedAt, fetchStart: 0, requestStart, responseStart, responseEnd, encodedBodySize: 24_000, transferSize: 24_300, domContentLoadedEventStart: 1290, domContentLoadedEventEnd: 1300, loadEventEnd: 2100, nextHopProtocol: 'h2', responseStatus: 200 },
  };
  page.requests = leanRequests(page);
  return page;
}

/** Not bandwidth-bound (the far link as the less bound visit of a recorded pair reads it). */
const FAR: PathSample = { criticalBytes: 744_000, deliveryBytesPerMs: 2163.958, rttMs: 102.6, method: PATH_SAMPLE_METHOD };

function learn(shapes: ReadonlyArray<typeof COLD>, path: PathSample) {
  const state = createLearnedState();
  shapes.forEach((s, i) => recordVisit(state, { ...observeVisit(leanRecord(s, 1_000_000 * (i + 1)), L), path }, L));
  return state;
}

const host = (href: string) => new URL(href).hostname.split('.')[0] as string;

function preconnects(shapes: ReadonlyArray<typeof COLD>, path: PathSample): string[] {
  return hintsFor(learn(shapes, path).entries, PAGE, L).preconnects.map((p) => host(p.href));
}

/** ms `host`'s first-asked request in `shape` waited between asked for (startTime) and sent (requestStart): the records' own clock. */
function heldOf(shape: typeof COLD, h: string): number {
  const first = shape.rows.filter(([short]) => short.startsWith(`${h} `)).sort((a, b) => a[2] - b[2])[0]!;
  return first[3] - first[2];
}
const HOSTS = ['static', 'fonts', 'social', 'tags', 'ads', 'analytics', 'img', 'cdn1', 'cdn2'];

describe('preconnects go to the origins the page sends to at its start and fetches the most from', () => {
  test('almanac-median, far fast path: the image origins, not the deferred script ones, get warm connections', () => {
    // What each set measured: docs/extension.md, "Which origins get a preconnect".
    const list = preconnects([COLD, WARM], FAR);
    // img 496 kB, cdn1 424 kB, static 258 kB, cdn2 98 kB, social 66 kB, fonts 6 kB; ads 391 kB,
    // analytics 177 kB, tags 14 kB left out: held 427–434 ms (4.2 round trips) between asked for
    // and sent on the warm visit, the others 4–125 ms.
    expect(list).toEqual(['img', 'cdn1', 'static', 'cdn2', 'social', 'fonts']);
    // The set measured at 0.61 × alone.
    expect([...list].sort()).toEqual(['cdn1', 'cdn2', 'fonts', 'img', 'social', 'static']);
    // Bytes alone chose ads and analytics (1.43 × alone); the first-request order tags, ads, analytics (1.18 ×).
    expect(list).not.toEqual(expect.arrayContaining(['ads']));
    expect(list).not.toEqual(expect.arrayContaining(['analytics']));
    expect(list).not.toEqual(expect.arrayContaining(['tags']));
    // The same whichever visit comes first: the visit that held it least judges.
    expect(preconnects([WARM, COLD], FAR)).toEqual(list);
  });

  test('each origin held less than HELD_RTTS ranks by its bytes; the observer is the records’ own times and sizes', () => {
    const state = learn([COLD, WARM], FAR);
    const bytesOf = (h: string) => COLD.rows.filter(([short]) => short.startsWith(`${h} `)).reduce((n, r) => n + r[5], 0);
    const early = (h: string) => Math.min(heldOf(COLD, h), heldOf(WARM, h)) < HELD_RTTS * FAR.rttMs;
    const expected = HOSTS.filter(early).sort((a, b) => bytesOf(b) - bytesOf(a)).slice(0, L.maxPreconnects);
    expect(HOSTS.filter((h) => !early(h)).sort()).toEqual(['ads', 'analytics', 'tags']);
    expect(hintsFor(state.entries, PAGE, L).preconnects.map((p) => host(p.href))).toEqual(expected);
    // What the visit stored is that clock: the warm visit's holds.
    const warm = state.entries.get(PAGE)!.visits[1]!;
    for (const h of HOSTS) expect(warm.origins.find((o) => host(o.origin) === h)?.heldMs).toBe(Math.round(heldOf(WARM, h)));
  });

  test('what the rule reads is stored: read back from storage, the state picks the same list', () => {
    const state = learn([COLD, WARM], FAR);
    const back = learnedStateFromJson(JSON.parse(JSON.stringify(learnedStateToJson(state))));
    expect(back.entries.get(PAGE)!.visits[1]!.origins.find((o) => host(o.origin) === 'tags')?.heldMs).toBe(Math.round(heldOf(WARM, 'tags')));
    expect(hintsFor(back.entries, PAGE, L).preconnects).toEqual(hintsFor(state.entries, PAGE, L).preconnects);
  });

  test('from cold visits only, an origin held there too is left out; one warm visit that sends it at once brings it back', () => {
    // cdn2's first request was held 567 ms (5.5 round trips) on the cold visit, no phases exposed, 125 ms on the warm one.
    expect(heldOf(COLD, 'cdn2') / FAR.rttMs).toBeGreaterThan(HELD_RTTS);
    expect(preconnects([COLD, COLD], FAR)).toEqual(['img', 'cdn1', 'static', 'social', 'fonts']);
    expect(preconnects([COLD, COLD, WARM], FAR)).toEqual(['img', 'cdn1', 'static', 'cdn2', 'social', 'fonts']);
  });

  test('the threshold is in the visit’s own round trips: on a path of 4 × the round trip nothing here is deferred, and the order is by bytes alone', () => {
    const slow = { ...FAR, rttMs: 4 * FAR.rttMs };
    expect(preconnects([COLD, WARM], slow)).toEqual(['img', 'cdn1', 'ads', 'static', 'analytics', 'cdn2']);
  });

  test('a request’s own DNS and connection time is not counted as held: a cold visit whose waits were all connections judges no origin held', () => {
    // Each request's wait from asked to sent spent on DNS and its connection (phases exposed).
    const page = leanRecord(COLD, 1_000_000);
    page.timings = page.timings.map((t) => ({ ...t, domainLookupStart: t.startTime, domainLookupEnd: t.startTime + 5, connectStart: t.startTime + 5, connectEnd: t.requestStart }));
    page.requests = leanRequests(page);
    const visit = observeVisit(page, L);
    for (const h of HOSTS) expect(visit.origins.find((o) => host(o.origin) === h)?.heldMs).toBe(0);
    const state = createLearnedState();
    recordVisit(state, { ...visit, path: FAR }, L);
    recordVisit(state, { ...visit, at: visit.at + 1, path: FAR }, L);
    expect(hintsFor(state.entries, PAGE, L).preconnects.map((p) => host(p.href))).toEqual(['img', 'cdn1', 'ads', 'static', 'analytics', 'cdn2']);
  });

  test('on a bandwidth-bound path only the origins of the render-blocking bytes, still by bytes, still without the held ones', () => {
    const bound: PathSample = { criticalBytes: 744_000, deliveryBytesPerMs: 625, rttMs: 43, method: PATH_SAMPLE_METHOD };
    const state = learn([COLD, WARM], bound);
    // tags, ads, analytics served scripts asked for before DOMContentLoaded (critical), but were held.
    const warm = state.entries.get(PAGE)!.visits[1]!;
    for (const h of ['tags', 'ads', 'analytics']) expect(warm.origins.find((o) => host(o.origin) === h)?.critical).toBe(true);
    expect(hintsFor(state.entries, PAGE, L).preconnects.map((p) => host(p.href))).toEqual(['static', 'social', 'fonts']);
    // Firefox: none on such a path (its first paint came later with them); off it, the same ranking.
    expect(hintsFor(state.entries, PAGE, FIREFOX_HINT_LIMITS).preconnects).toEqual([]);
    expect(hintsFor(learn([COLD, WARM], FAR).entries, PAGE, FIREFOX_HINT_LIMITS).preconnects).toEqual(hintsFor(learn([COLD, WARM], FAR).entries, PAGE, L).preconnects);
  });

  test('an origin whose sizes and phases are not exposed (no Timing-Allow-Origin) ranks by its responses counted as UNKNOWN_SIZE_BYTES each, and is not judged held', () => {
    const restricted = (shape: typeof COLD): typeof COLD => ({ ...shape, rows: shape.rows.map((r) => (r[0].startsWith('img ') ? ([...r.slice(0, 5), -1] as Row) : r)) });
    // img's 2 responses here (the folded rows) read 2 × 32 768 = 65 536 B: just below social's
    // 66 085, above fonts' 6 008 — counted as nothing it would rank last.
    const entry = learn([restricted(COLD), restricted(WARM)], FAR).entries.get(PAGE)!;
    expect(entry.visits[0]!.origins.find((o) => host(o.origin) === 'img')?.bytes).toBe(2 * UNKNOWN_SIZE_BYTES);
    expect(entry.visits[1]!.origins.find((o) => host(o.origin) === 'img')?.heldMs).toBeUndefined();
    expect(rankedOrigins(entry, L.minRecurrence).map((o) => host(o.origin))).toEqual(['cdn1', 'static', 'cdn2', 'social', 'img', 'fonts']);
  });
});
