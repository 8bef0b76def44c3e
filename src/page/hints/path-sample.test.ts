import type { PageRecord, TimingEntry } from '../model/page-record';
import { hintsFor, linkHeaderValue } from './hint-list';
import { CHROMIUM_HINT_LIMITS, DEFAULT_HINT_LIMITS as L, headerHintLimits, type LearnedState } from './hint-types';
import { createLearnedState, recordVisit } from './learned-state';
import { learnedStateFromJson, learnedStateToJson } from './learned-state-json';
import { observeVisit, type ObserveOptions } from './observe-visit';
import { BANDWIDTH_BOUND_RTTS, PATH_SAMPLE_METHOD, pathSampleOf, pathVerdict } from './path-sample';
import { readBack, URL_ } from '../../../test/support/stored-path-verdict';

const CDN = 'https://cdn.example';
const FONTS = 'https://fonts.example';

interface Link {
  /** Bytes per ms the link delivers. */
  rate: number;
  rttMs: number;
}

/**
 * A load over a link of `rate` and `rttMs`: every response's timing is what that link gives it
 * (the responses share the link: each one's bytes follow the previous one's). Before DOMContentLoaded (+900):
 * the 30 kB document, a 60 kB sheet, a 90 kB script, an 8 kB `@import`ed sheet = 188 000 critical
 * bytes. Late: the import, a font, two CSS backgrounds in the first viewport (50 kB, 3 kB), a
 * script-inserted image below it. An async script after DOMContentLoaded is not critical.
 */
function load(link: Link, startedAt: number, firstContentfulPaint?: number): PageRecord {
  const { rate, rttMs: rtt } = link;
  const items: Array<[string, string, string, number, number, boolean?]> = [
    // url, webRequest type, initiator, start, bytes, in the first viewport
    [`${CDN}/site.css`, 'stylesheet', 'link', 200, 60_000],
    [`${CDN}/app.js`, 'script', 'script', 210, 90_000],
    [`${CDN}/imported.css`, 'stylesheet', 'css', 500, 8_000],
    [`${FONTS}/face.woff2`, 'font', 'css', 700, 20_000],
    [`${CDN}/bg/hero.jpg`, 'image', 'css', 710, 50_000, true],
    [`${CDN}/bg/small.png`, 'image', 'css', 720, 3_000, true],
    [`${CDN}/late/promo.gif`, 'image', 'img', 950, 40_000],
    [`${CDN}/tag.js`, 'script', 'script', 960, 40_000],
  ];
  const docStart = 5 + 3 * rtt;
  // One link: the responses' bytes cross it one after another at its rate, the document's first.
  let linkFreeAt = docStart + 30_000 / rate;
  const timing = ([name, , initiatorType, start, bytes]: (typeof items)[number]): TimingEntry => {
    const responseStart = Math.max(start + rtt + 5, linkFreeAt);
    linkFreeAt = responseStart + bytes / rate;
    // Only the font's origin is a new connection here: TCP one round trip, TLS another.
    const connect = name.startsWith(FONTS) ? { connectStart: start, secureConnectionStart: start + rtt, connectEnd: start + 2 * rtt } : { connectStart: 0, secureConnectionStart: 0, connectEnd: 0 };
    return { name, initiatorType, startTime: start, domainLookupStart: 0, domainLookupEnd: 0, ...connect, requestStart: start + 1, responseStart, responseEnd: linkFreeAt, transferSize: bytes + 300, encodedBodySize: bytes, nextHopProtocol: 'h2', restricted: false };
  };
  return {
    pageId: `1:${startedAt}`,
    tabId: 1,
    url: URL_,
    startedAt,
    domContentLoadedAt: startedAt + 900,
    requests: [{ requestId: '0', url: URL_, method: 'GET', type: 'main_frame', frameId: 0, startedAt, statusCode: 200 }, ...items.map(([url, type, , start], i) => ({ requestId: `${i + 1}`, url, method: 'GET', type, frameId: 0, startedAt: startedAt + start, statusCode: 200 }))],
    discoveries: [{ url: `${CDN}/late/promo.gif`, kind: 'image', priority: 'image', atMs: 940, inViewport: false, tag: 'img', late: true }, ...items.filter((x) => x[5]).map(([url, , , start]) => ({ url, kind: 'image' as const, priority: 'visible-image' as const, atMs: start, inViewport: true, tag: 'css', late: true }))],
    timings: items.map(timing),
    // The document's own connection: TCP and TLS with no TLS mark (two round trips), then its request.
    navigation: { responseStart: docStart, responseEnd: docStart + 30_000 / rate, connectStart: 5, connectEnd: 5 + 2 * rtt, requestStart: 5 + 2 * rtt, encodedBodySize: 30_000, domContentLoadedEventEnd: 900, loadEventEnd: 1500, nextHopProtocol: 'h2', ...(firstContentfulPaint ? { firstContentfulPaint } : {}) },
  };
}

/** 40 ms, 5 Mbit/s and 100 ms, 20 Mbit/s: the benchmark's two link shapes. */
const SLOW: Link = { rate: 625, rttMs: 40 };
const FAR: Link = { rate: 2500, rttMs: 100 };
const MID: Link = { rate: 1250, rttMs: 50 };

function learned(...links: Link[]): LearnedState {
  return learnedPainted(undefined, links);
}

/** The same visits, each first painting at `fcp` ms (Paint Timing), hinted as `hints` says. */
function learnedPainted(fcp: number | undefined, links: Link[], hints: Pick<ObserveOptions, 'hinted' | 'fontHinted'> = {}): LearnedState {
  const state = createLearnedState();
  links.forEach((link, i) => recordVisit(state, observeVisit(load(link, 1000 * (i + 1), fcp), { ...L, ...hints }), L));
  return state;
}

describe('the path a page is loaded over', () => {
  test('a load measures its critical bytes, the link’s rate and one round trip as the link gives them', () => {
    // 30 000 + 60 000 + 90 000 + 8 000; the async script after DOMContentLoaded is not counted.
    expect(pathSampleOf(load(SLOW, 0))).toEqual({ criticalBytes: 188_000, deliveryBytesPerMs: 625, rttMs: 40, method: PATH_SAMPLE_METHOD });
    expect(pathSampleOf(load(FAR, 0))).toEqual({ criticalBytes: 188_000, deliveryBytesPerMs: 2500, rttMs: 100, method: PATH_SAMPLE_METHOD });
    // Nothing of 16 KiB or more: no rate, no sample (and a page with no sample is hinted as before).
    const small = load(SLOW, 0);
    small.timings = small.timings.map((t) => ({ ...t, encodedBodySize: 1000, transferSize: 1000 }));
    small.navigation = { ...small.navigation!, encodedBodySize: 1000 };
    expect(pathSampleOf(small)).toBeUndefined();
    // Cross-origin without Timing-Allow-Origin: zeros, never a rate of them.
    const hidden = load(SLOW, 0);
    hidden.timings = hidden.timings.map((t) => ({ ...t, restricted: true }));
    hidden.navigation = { ...hidden.navigation!, encodedBodySize: 10_000 };
    expect(pathSampleOf(hidden)).toBeUndefined();
  });

  test('a document whose reported end is its first byte gives no rate (Firefox ESR 153’s navigation entry)', () => {
    // real-news' 32,000-byte document at 100 ms in Firefox: requestStart 112, responseStart 213,
    // responseEnd 213 — while another response's round trip was 99–100 ms. Here: the document's
    // own round trip 105 ms, a style sheet's 100; the document's span would be 5 ms (6,000 B/ms).
    const firefox = load(FAR, 0);
    firefox.navigation = { ...firefox.navigation!, requestStart: 200, responseStart: 305, responseEnd: 305 };
    const sheet = firefox.timings[0]!;
    firefox.timings[0] = { ...sheet, responseStart: sheet.requestStart + 100 };
    // The rate stays a lower bound on the link's 2,500 B/ms: from the other responses' spans alone.
    const sample = pathSampleOf(firefox);
    expect(sample?.rttMs).toBe(100);
    expect(sample?.deliveryBytesPerMs).toBeGreaterThan(0);
    expect(sample?.deliveryBytesPerMs).toBeLessThanOrEqual(2500);
    // A document with its real end still counts (the first test: the link's rate, 2,500 B/ms).
  });

  test('the least bound visit judges the path: every sample is a lower bound on the link’s rate', () => {
    const slow = observeVisit(load(SLOW, 0), L);
    const far = observeVisit(load(FAR, 0), L);
    // 188 000 / 625 / 40 = 7.52 round trips; 188 000 / 2500 / 100 = 0.75.
    // Idle bytes: 4 round trips of the link, less the critical bytes — 4 × 100 × 2500 − 188 000.
    expect(pathVerdict([slow])).toEqual({ criticalRtts: 7.52, bandwidthBound: true, budgetBytes: 0, samples: 1 });
    expect(pathVerdict([far])).toEqual({ criticalRtts: 0.75, bandwidthBound: false, budgetBytes: 812_000, samples: 1 });
    // A visit that read the far link at a tenth of its rate (a cold visit, all in slow start):
    // of two visits the less bound judges, and its budget is that visit's.
    const cold = { ...far, path: { ...far.path!, deliveryBytesPerMs: 250 } };
    expect(pathVerdict([cold])?.bandwidthBound).toBe(true);
    expect(pathVerdict([cold, far])).toEqual({ criticalRtts: 0.75, bandwidthBound: false, budgetBytes: 812_000, samples: 2 });
    // From three visits on, "not bound" needs two visits that say so: one fast visit of three does not clear a path.
    expect(pathVerdict([far, slow, slow])).toEqual({ criticalRtts: 7.52, bandwidthBound: true, budgetBytes: 0, samples: 3 });
    expect(pathVerdict([slow, far, slow, far, slow])).toEqual({ criticalRtts: 0.75, bandwidthBound: false, budgetBytes: 812_000, samples: 5 });
    expect(pathVerdict([far, far])?.bandwidthBound).toBe(false);
    expect(pathVerdict([{ ...slow, path: undefined }])).toBeUndefined();
    // The threshold sits between the two shapes.
    expect(0.75).toBeLessThan(BANDWIDTH_BOUND_RTTS);
    expect(7.52).toBeGreaterThanOrEqual(BANDWIDTH_BOUND_RTTS);
  });

  test('a squeezed visit never clears a bound path: a rate above the link was method 2’s, and its samples are dropped when read back', () => {
    const slow = observeVisit(load(SLOW, 0), L);
    // A visit whose timestamps were squeezed (rate read 10× the link's, from `responseStart`):
    // method 3 cannot read it (path-sample-lean.test.ts: no first-byte time moves the rate above
    // the link), so only a stored method-2 sample can hold it — and that is expired on reading.
    const squeezed = { ...slow, path: { ...slow.path!, deliveryBytesPerMs: 6250, method: 2 } };
    expect(readBack([squeezed, slow])).toEqual({ criticalRtts: 7.52, bandwidthBound: true, budgetBytes: 0, samples: 1 });
    expect(readBack([squeezed, slow, slow])).toEqual({ criticalRtts: 7.52, bandwidthBound: true, budgetBytes: 0, samples: 2 });
    expect(readBack([slow, squeezed, squeezed, slow, squeezed])).toEqual({ criticalRtts: 7.52, bandwidthBound: true, budgetBytes: 0, samples: 2 });
  });
});

describe('hints that never cost on a bandwidth-bound path', () => {
  const preconnects = [
    { rel: 'preconnect', href: CDN },
    { rel: 'preconnect', href: FONTS, crossorigin: 'anonymous' },
  ];

  test('a far, fast path gets every late resource', () => {
    const list = hintsFor(learned(FAR, FAR).entries, URL_, L);
    expect(list.path).toEqual({ criticalRtts: 0.75, bandwidthBound: false, budgetBytes: 812_000, samples: 2 });
    expect(list.preloads.map((p) => p.href)).toEqual([`${FONTS}/face.woff2`, `${CDN}/imported.css`, `${CDN}/bg/hero.jpg`, `${CDN}/bg/small.png`, `${CDN}/late/promo.gif`]);
    expect(list.preconnects).toEqual(preconnects);
  });

  test('a bandwidth-bound path gets only what the first paint needs: the late sheet, the LCP image candidate, a connection to the origin of the render-blocking bytes', () => {
    const list = hintsFor(learned(SLOW, SLOW).entries, URL_, L);
    expect(list.path?.bandwidthBound).toBe(true);
    expect(list.preloads).toEqual([
      { rel: 'preload', href: `${CDN}/imported.css`, as: 'style', type: 'text/css' },
      { rel: 'preload', href: `${CDN}/bg/hero.jpg`, as: 'image' },
    ]);
    // The font origin served nothing before DOMContentLoaded but the (dropped) font.
    expect(list.preconnects).toEqual([{ rel: 'preconnect', href: CDN }]);
  });

  test('a path with some idle time before first paint: the other preloads fill it in rank order and no further', () => {
    // 10 Mbit/s, 50 ms: 188 000 / 1250 / 50 = 3 round trips; idle 4 × 50 × 1250 − 188 000 = 62 000 bytes.
    const list = hintsFor(learned(MID, MID).entries, URL_, L);
    expect(list.path).toEqual({ criticalRtts: 3.01, bandwidthBound: false, budgetBytes: 62_000, samples: 2 });
    // Font 20 000 and small.png 3 000 fit; promo.gif's 40 000 no longer does. The sheet and the LCP candidate are free.
    expect(list.preloads.map((p) => p.href)).toEqual([`${FONTS}/face.woff2`, `${CDN}/imported.css`, `${CDN}/bg/hero.jpg`, `${CDN}/bg/small.png`]);
    expect(list.preconnects).toEqual(preconnects);
  });

  test('the page’s own visits judge before its template’s; a visit without a sample leaves the verdict to those with one', () => {
    const state = learned(SLOW, SLOW);
    const noSample = observeVisit(load(FAR, 9000), L);
    delete noSample.path;
    recordVisit(state, noSample, L);
    expect(hintsFor(state.entries, URL_, L).path).toEqual({ criticalRtts: 7.52, bandwidthBound: true, budgetBytes: 0, samples: 2 });
  });

  test('the stored path round-trips; a malformed one is dropped and its visit kept', () => {
    const state = learned(SLOW, SLOW);
    const json = JSON.parse(JSON.stringify(learnedStateToJson(state))) as { entries: Array<{ visits: Array<{ path?: unknown }> }> };
    expect(learnedStateFromJson(json).entries).toEqual(state.entries);
    const visit = json.entries[0]!.visits[0]!;
    visit.path = { criticalBytes: 188_000, deliveryBytesPerMs: 0, rttMs: 40, method: PATH_SAMPLE_METHOD };
    const back = learnedStateFromJson(json).entries.get(URL_)!;
    expect(back.visits).toHaveLength(2);
    expect(back.visits[0]!.path).toBeUndefined();
  });

  test('a connect phase Chromium clamped (a request joining a handshake near its end) is not a round trip; a stored sample of the old method is expired', () => {
    // real-news at 100 ms / 20 Mbit/s (c100-realnews): 356 400 critical bytes at 2391 B/ms, and one
    // request that joined a connection 98.7 ms into its handshake showed connectStart→connectEnd of
    // 1.3 ms — read as the round trip, 356 400 / 2391 / 1.3 = 114.65 RTTs, bandwidth-bound.
    const page = load(FAR, 0);
    page.timings = page.timings.map((t) => (t.name.endsWith('/app.js') ? { ...t, connectStart: 208.7, secureConnectionStart: 0, connectEnd: 210 } : t));
    const sample = pathSampleOf(page)!;
    expect(sample.rttMs).toBe(100);
    expect(pathVerdict([{ ...observeVisit(page, L), path: sample }])?.bandwidthBound).toBe(false);
    // A response from the browser's cache (transferSize 0) took no round trip and no link time.
    const cached = load(FAR, 0);
    cached.timings = cached.timings.map((t) => (t.name.endsWith('/app.js') ? { ...t, transferSize: 0, requestStart: 300, responseStart: 300.5, responseEnd: 301 } : t));
    expect(pathSampleOf(cached)).toMatchObject({ deliveryBytesPerMs: 2500, rttMs: 100 });
    // A learned state of that method holds the 1.3 ms sample: it is dropped, its visit kept,
    // and the page judged by the samples measured since (here none: hinted as unmeasured).
    const state = learned(FAR, FAR);
    const json = JSON.parse(JSON.stringify(learnedStateToJson(state))) as { entries: Array<{ visits: Array<{ path?: Record<string, unknown> }> }> };
    for (const v of json.entries[0]!.visits) v.path = { criticalBytes: 356_400, deliveryBytesPerMs: 2391.304, rttMs: 1.3 };
    const back = learnedStateFromJson(json);
    expect(back.entries.get(URL_)!.visits).toHaveLength(2);
    expect(hintsFor(back.entries, URL_, L).path).toBeUndefined();
  });
});

describe('hints that never hold Chromium’s first paint', () => {
  // A `Link` header acts before the document has a body: its fonts go by the font rule.
  const HEADER = headerHintLimits(CHROMIUM_HINT_LIMITS);
  const font = { rel: 'preload', href: `${FONTS}/face.woff2`, as: 'font', crossorigin: 'anonymous', type: 'font/woff2' };
  const withoutFont = [`${CDN}/imported.css`, `${CDN}/bg/hero.jpg`, `${CDN}/bg/small.png`, `${CDN}/late/promo.gif`];

  test('pushed <link> elements: every late font, inserted once the body exists; a Link header carries none of them', () => {
    const list = hintsFor(learnedPainted(809, [FAR, FAR]).entries, URL_, CHROMIUM_HINT_LIMITS);
    expect(list.preloads[0]).toEqual({ ...font, afterBody: true });
    expect(list.preloads.filter((p) => p.afterBody).map((p) => p.href)).toEqual([font.href]);
    expect(linkHeaderValue(list)).not.toContain('face.woff2');
    // Still none on a bandwidth-bound path.
    expect(hintsFor(learnedPainted(5000, [SLOW, SLOW]).entries, URL_, CHROMIUM_HINT_LIMITS).preloads.filter((p) => p.as === 'font')).toEqual([]);
  });

  test('a Link header: Chromium preloads a late font only where the visits say it arrives a round trip before the page paints anyway', () => {
    // FAR: the document's first byte at 305 ms (TCP, TLS, its request). The font's origin takes as
    // long to reach (305 ms more), and its 20 000 bytes two rounds of slow start on the new
    // connection (100 ms; 8 ms at the link's rate): 710 ms — after the 188 000 critical bytes
    // (305 + 83 ms). So a paint at 810 ms or later leaves it a round trip; one at 809 does not.
    const late = hintsFor(learnedPainted(810, [FAR, FAR]).entries, URL_, HEADER);
    expect(late.preloads[0]).toEqual(font);
    expect(late.preloads.map((p) => p.href).filter((h) => h !== font.href)).toEqual(withoutFont);
    expect(hintsFor(learnedPainted(809, [FAR, FAR]).entries, URL_, HEADER).preloads.map((p) => p.href)).toEqual(withoutFont);
    // Either way the font's origin is preconnected for CORS: the part of its wait that holds no paint.
    for (const fcp of [809, 810]) expect(hintsFor(learnedPainted(fcp, [FAR, FAR]).entries, URL_, HEADER).preconnects).toEqual(expect.arrayContaining([{ rel: 'preconnect', href: FONTS, crossorigin: 'anonymous' }]));
    // Visits that measured no paint (older builds, a page that never painted): no font preload.
    expect(hintsFor(learned(FAR, FAR).entries, URL_, HEADER).preloads.map((p) => p.href)).toEqual(withoutFont);
    // Firefox has no hold: the font whatever the paint.
    expect(hintsFor(learned(FAR, FAR).entries, URL_, L).preloads.filter((p) => p.as === 'font')).toEqual([font]);
  });

  test('no font on a bandwidth-bound path, and every visit must agree', () => {
    // SLOW (40 ms, 625 B/ms): the path is bound, so no preload the paint does not need is sent at
    // all, however late the paint.
    expect(hintsFor(learnedPainted(5000, [SLOW, SLOW]).entries, URL_, HEADER).preloads.filter((p) => p.as === 'font')).toEqual([]);
    // MID (50 ms, 1 250 B/ms): 155 + 155 + 50 = 360 ms; a paint at 410 ms leaves a round trip, 409 not.
    expect(hintsFor(learnedPainted(410, [MID, MID]).entries, URL_, HEADER).preloads[0]).toEqual(font);
    expect(hintsFor(learnedPainted(409, [MID, MID]).entries, URL_, HEADER).preloads.filter((p) => p.as === 'font')).toEqual([]);
    // One visit over MID and one over FAR, both painting at 420 ms: FAR's estimate (710) says no.
    expect(hintsFor(learnedPainted(420, [MID, MID]).entries, URL_, HEADER).preloads[0]).toEqual(font);
    const state = createLearnedState();
    for (const [i, link] of [MID, FAR].entries()) recordVisit(state, observeVisit(load(link, 1000 * (i + 1), 420), L), L);
    expect(hintsFor(state.entries, URL_, HEADER).preloads.filter((p) => p.as === 'font')).toEqual([]);
  });

  test('a load that had the font preloaded is no baseline: its paint may have been held for it', () => {
    const hinted = learnedPainted(900, [FAR, FAR], { hinted: new Set([`${FONTS}/face.woff2`]), fontHinted: true });
    expect(hinted.entries.get(URL_)!.visits.map((v) => v.paintMs)).toEqual([undefined, undefined]);
    expect(hintsFor(hinted.entries, URL_, HEADER).preloads.filter((p) => p.as === 'font')).toEqual([]);
    // Other preloads do not hold the paint: the load is a baseline.
    expect(learnedPainted(900, [FAR], { hinted: new Set([`${CDN}/bg/hero.jpg`]) }).entries.get(URL_)!.visits[0]).toMatchObject({ paintMs: 900, documentMs: 305 });
    // The fields survive storage; a wrong value in storage is dropped, not read as a paint.
    const json = JSON.parse(JSON.stringify(learnedStateToJson(learnedPainted(900, [FAR, FAR])))) as { entries: Array<{ visits: Array<Record<string, unknown>> }> };
    expect(learnedStateFromJson(json).entries.get(URL_)!.visits[0]).toMatchObject({ paintMs: 900, documentMs: 305 });
    json.entries[0]!.visits[0]!.paintMs = 'soon';
    json.entries[0]!.visits[1]!.documentMs = -3;
    const back = learnedStateFromJson(json).entries.get(URL_)!.visits;
    expect(back[0]!.paintMs).toBeUndefined();
    expect(back[1]!.documentMs).toBeUndefined();
  });

  test('a font the paint does not wait for still takes the idle bytes it uses', () => {
    // MID's 62 000 idle bytes: the font's 20 000 first (fonts rank first), then small.png's 3 000;
    // promo.gif's 40 000 no longer fit.
    expect(hintsFor(learnedPainted(5000, [MID, MID]).entries, URL_, headerHintLimits(CHROMIUM_HINT_LIMITS)).preloads.map((p) => p.href)).toEqual([font.href, `${CDN}/imported.css`, `${CDN}/bg/hero.jpg`, `${CDN}/bg/small.png`]);
  });
});
