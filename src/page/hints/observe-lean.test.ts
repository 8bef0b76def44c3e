import { parseContentMessage } from '../messages/parse-content-message';
import { leanRequests } from '../model/lean-requests';
import type { Discovery, ObservedRequest, PageRecord, TimingEntry } from '../model/page-record';
import { hintsFor } from './hint-list';
import { CHROMIUM_HINT_LIMITS as L, FIREFOX_HINT_LIMITS, type HintLimits, type PathSample } from './hint-types';
import { createLearnedState, recordVisit } from './learned-state';
import { observeVisit } from './observe-visit';
import { PATH_SAMPLE_METHOD, UNKNOWN_SIZE_BYTES } from './path-sample';

/**
 * Lean capture learns from records rebuilt from Resource Timing (lean-requests.ts). These records
 * are shaped as Chromium 156 gives almanac-median (bench/corpus/page-almanac.ts): a same-origin
 * sheet whose background has an entry (initiator `css`), a cross-origin sheet whose background has
 * none (Chromium does not expose what a cross-origin sheet fetches), a script-inserted image; the
 * style scan found both backgrounds on the elements' computed style after load. The independent
 * observer is the Detailed record of the same load: webRequest saw every fetch.
 */
const WWW = 'https://www.example.test';
const STATIC = 'https://static.example.test';
const CDN = 'https://cdn1.example.test';
const IMG = 'https://img.example.test';
const PAGE = `${WWW}/almanac-median/index.html`;

const timing = (name: string, initiatorType: string, startTime: number, responseEnd: number, over: Partial<TimingEntry> = {}): TimingEntry => ({
  name, initiatorType, startTime, fetchStart: startTime, domainLookupStart: startTime, domainLookupEnd: startTime, connectStart: startTime, secureConnectionStart: 0, connectEnd: startTime,
  requestStart: startTime + 1, responseStart: startTime + 100, responseEnd, transferSize: 2300, encodedBodySize: 2000, nextHopProtocol: 'h2', responseStatus: 200, restricted: false, ...over,
});
const css = (url: string, atMs: number, inViewport = false): Discovery => ({ url, kind: 'image', priority: inViewport ? 'visible-image' : 'image', atMs, inViewport, tag: 'css', late: true });

interface Shape {
  /** The sheet that names bg-1 (cross-origin by default). */
  sheet?: string;
  /** bg-1 was fetched (false: its element is not rendered — nothing fetched, no entry either way). */
  fetched?: boolean;
  /** URLs preloaded by hints: Resource Timing lists them with initiator `link`. */
  hinted?: readonly string[];
}

/** The timings and discoveries of one load; `fetched` lists what the browser requested (webRequest's view). */
function load(startedAt: number, s: Shape = {}) {
  const sheet = s.sheet ?? `${STATIC}/almanac-median/css/site-1.css`;
  const hidden = sheet.startsWith(STATIC) && !(s.hinted ?? []).includes(`${CDN}/bg/bg-1.gif`);
  const timings: TimingEntry[] = [
    timing(`${WWW}/css/main.css`, 'link', 110, 320),
    timing(sheet, 'link', 112, 330),
    timing(`${CDN}/bg/bg-0.gif`, 'css', 340, 560),
    timing(`${IMG}/late/promo-0.gif`, 'img', 720, 900),
  ];
  for (const url of s.hinted ?? []) timings.push(timing(url, 'link', 30, 250));
  if (s.fetched !== false && !hidden && !(s.hinted ?? []).includes(`${CDN}/bg/bg-1.gif`)) timings.push(timing(`${CDN}/bg/bg-1.gif`, 'css', 345, 600));
  const discoveries: Discovery[] = [
    { url: `${IMG}/late/promo-0.gif`, kind: 'image', priority: 'image', atMs: 715, inViewport: false, tag: 'img', late: true },
    css(`${CDN}/bg/bg-0.gif`, 1500),
    css(`${CDN}/bg/bg-1.gif`, 1510, true),
  ];
  const fetched = [`${WWW}/css/main.css`, sheet, `${CDN}/bg/bg-0.gif`, ...(s.fetched === false ? [] : [`${CDN}/bg/bg-1.gif`]), `${IMG}/late/promo-0.gif`];
  const starts = new Map([...timings.map((t) => [t.name, t.startTime] as const), [`${CDN}/bg/bg-1.gif`, 345]]);
  return { timings, discoveries, fetched, starts, startedAt };
}

const base = (startedAt: number) => ({
  pageId: `1:${startedAt}`, tabId: 1, url: PAGE, startedAt, domContentLoadedAt: startedAt + 700,
  navigation: { timeOrigin: startedAt, fetchStart: 0, responseStart: 100, responseEnd: 105, domContentLoadedEventEnd: 700, loadEventEnd: 950, nextHopProtocol: 'h2', responseStatus: 200 },
});

function leanRecord(startedAt: number, s: Shape = {}): PageRecord {
  const l = load(startedAt, s);
  const page: PageRecord = { ...base(startedAt), capture: 'lean', requests: [], timings: l.timings, discoveries: l.discoveries };
  page.requests = leanRequests(page);
  return page;
}

/** The same load as webRequest records it (Detailed capture): every fetch, the hidden one included. */
function detailedRecord(startedAt: number, s: Shape = {}): PageRecord {
  const l = load(startedAt, s);
  const type = (u: string) => (u.endsWith('.css') ? 'stylesheet' : 'image');
  const requests: ObservedRequest[] = [
    { requestId: '0', url: PAGE, method: 'GET', type: 'main_frame', frameId: 0, startedAt, statusCode: 200 },
    ...l.fetched.map((u, i) => ({ requestId: `${i + 1}`, url: u, method: 'GET', type: type(u), frameId: 0, startedAt: startedAt + (l.starts.get(u) ?? 0), statusCode: 200 })),
  ];
  return { ...base(startedAt), capture: 'detailed', requests, timings: l.timings, discoveries: l.discoveries };
}

function hintsAfter(records: readonly PageRecord[], paths: ReadonlyArray<PathSample | undefined> = [], limits: HintLimits = L) {
  const state = createLearnedState();
  records.forEach((page, i) => {
    const visit = observeVisit(page, limits);
    const path = paths[i];
    recordVisit(state, path ? { ...visit, path } : visit, limits);
  });
  return hintsFor(state.entries, PAGE, limits);
}

const preloads = (list: ReturnType<typeof hintsFor>) => list.preloads.map((p) => p.href).sort();

describe('lean learning: what Resource Timing does not show', () => {
  test('a background a cross-origin sheet fetched (no entry) is learned late from the style scan, so lean hints what Detailed hints', () => {
    const lean = observeVisit(leanRecord(1000), L);
    expect(lean.resources.find((r) => r.url === `${CDN}/bg/bg-1.gif`)).toEqual({ url: `${CDN}/bg/bg-1.gif`, as: 'image', late: true, atMs: 1510, inViewport: true, size: 0 });
    const leanList = hintsAfter([leanRecord(1000), leanRecord(2000)]);
    const detailedList = hintsAfter([detailedRecord(1000), detailedRecord(2000)]);
    expect(preloads(leanList)).toEqual([`${CDN}/bg/bg-0.gif`, `${CDN}/bg/bg-1.gif`, `${IMG}/late/promo-0.gif`]);
    expect(preloads(leanList)).toEqual(preloads(detailedList));
    // The same form: no crossorigin (a no-cors CSS fetch), the first-viewport one at normal priority.
    expect(leanList.preloads.find((p) => p.href === `${CDN}/bg/bg-1.gif`)).toEqual({ rel: 'preload', href: `${CDN}/bg/bg-1.gif`, as: 'image' });
    expect(leanList.preconnects.map((p) => p.href).sort()).toEqual(detailedList.preconnects.map((p) => p.href).sort());
  });

  test('its origin is learned even when nothing else of the page came from it', () => {
    const page = leanRecord(0);
    page.timings = page.timings.filter((t) => !t.name.startsWith(CDN));
    page.requests = leanRequests(page);
    const v = observeVisit(page, L);
    expect(v.resources.filter((r) => r.url.startsWith(CDN)).map((r) => r.url)).toEqual([`${CDN}/bg/bg-0.gif`, `${CDN}/bg/bg-1.gif`]);
    // Its two backgrounds' sizes are not exposed: each counted as a preload of it is (UNKNOWN_SIZE_BYTES).
    expect(v.origins.find((o) => o.origin === CDN)).toEqual({ origin: CDN, atMs: 1500, bytes: 2 * UNKNOWN_SIZE_BYTES });
  });

  test('with same-origin sheets only, a scanned background without an entry was never fetched: not learned', () => {
    const sameOrigin = { sheet: `${WWW}/css/site-1.css`, fetched: false };
    expect(observeVisit(leanRecord(0, sameOrigin), L).resources.map((r) => r.url)).not.toContain(`${CDN}/bg/bg-1.gif`);
    // And the Detailed record of that load agrees: nothing to hint.
    expect(preloads(hintsAfter([leanRecord(1000, sameOrigin), leanRecord(2000, sameOrigin)]))).toEqual(preloads(hintsAfter([detailedRecord(1000, sameOrigin), detailedRecord(2000, sameOrigin)])));
    expect(preloads(hintsAfter([leanRecord(1000, sameOrigin), leanRecord(2000, sameOrigin)]))).not.toContain(`${CDN}/bg/bg-1.gif`);
  });

  test('a Detailed record is never completed from discoveries: webRequest saw every fetch', () => {
    const notFetched = detailedRecord(0, { fetched: false });
    expect(observeVisit(notFetched, L).resources.map((r) => r.url)).not.toContain(`${CDN}/bg/bg-1.gif`);
  });

  test('only the style scan’s CSS backgrounds: an element’s image without an entry (never fetched, e.g. lazy) is not learned', () => {
    const page = leanRecord(0);
    page.discoveries.push({ url: `${IMG}/lazy/below.gif`, kind: 'image', priority: 'image', atMs: 800, inViewport: false, tag: 'img', late: true });
    expect(observeVisit(page, L).resources.map((r) => r.url)).not.toContain(`${IMG}/lazy/below.gif`);
  });

  test('a hinted load lists the preload (initiator link): learned once, late, never twice', () => {
    const hinted = [`${CDN}/bg/bg-1.gif`];
    const page = leanRecord(0, { hinted });
    const v = observeVisit(page, { ...L, hinted: new Set(hinted) });
    expect(v.resources.filter((r) => r.url === `${CDN}/bg/bg-1.gif`)).toEqual([expect.objectContaining({ late: true, size: 2000 })]);
    // A fragment in the scanned URL does not make a second resource.
    page.discoveries.push(css(`${CDN}/bg/bg-1.gif#x`, 1600));
    expect(observeVisit(page, { ...L, hinted: new Set(hinted) }).resources.filter((r) => r.url.startsWith(`${CDN}/bg/bg-1.gif`))).toHaveLength(1);
  });

  test('the slow-link rule still holds: on a bandwidth-bound path only the LCP candidate of the unrecorded ones is preloaded', () => {
    // 3 visits, all bound: 60 kB critical at 1 byte/ms over 100 ms round trips = 600 round trips.
    const bound: PathSample = { criticalBytes: 60_000, deliveryBytesPerMs: 1, rttMs: 100, method: PATH_SAMPLE_METHOD };
    const list = hintsAfter([leanRecord(1000), leanRecord(2000), leanRecord(3000)], [bound, bound, bound]);
    expect(list.path?.bandwidthBound).toBe(true);
    expect(preloads(list)).toEqual([`${CDN}/bg/bg-1.gif`]);
    // Firefox: no hint at all on such a path (FIREFOX_HINT_LIMITS); off it, the same preloads as Chromium.
    const firefox = hintsAfter([leanRecord(1000), leanRecord(2000), leanRecord(3000)], [bound, bound, bound], FIREFOX_HINT_LIMITS);
    expect(firefox.path?.bandwidthBound).toBe(true);
    expect([firefox.preloads, firefox.preconnects]).toEqual([[], []]);
    const records = () => [leanRecord(1000), leanRecord(2000), leanRecord(3000)];
    expect(preloads(hintsAfter(records(), [], FIREFOX_HINT_LIMITS))).toEqual(preloads(hintsAfter(records())));
    expect(preloads(hintsAfter(records()))).not.toEqual([]);
  });

  test('the preload cap holds with many unrecorded backgrounds', () => {
    const many = (at: number) => {
      const p = leanRecord(at);
      for (let i = 2; i < 20; i++) p.discoveries.push(css(`${CDN}/bg/bg-${i}.gif`, 1500 + i));
      return p;
    };
    const list = hintsAfter([many(1000), many(2000)]);
    expect(list.preloads).toHaveLength(L.maxPreloads);
    expect(new Set(list.preloads.map((p) => p.href)).size).toBe(L.maxPreloads);
  });
});

describe('lean learning: script-inserted images', () => {
  /** webNavigation's DOMContentLoaded arrives after the handlers ran: +760, while the page's own DOMContentLoaded began at +700. */
  const withDcl = (page: PageRecord): PageRecord => ({ ...page, domContentLoadedAt: page.startedAt + 760, navigation: { ...page.navigation!, domContentLoadedEventStart: 700, domContentLoadedEventEnd: 740 } });

  test('an image a DOMContentLoaded handler inserted is late by the page’s own clock, though its request precedes webNavigation’s DOMContentLoaded', () => {
    const page = withDcl(leanRecord(0));
    expect(observeVisit(page, L).resources.find((r) => r.url === `${IMG}/late/promo-0.gif`)).toMatchObject({ as: 'image', late: true });
    expect(preloads(hintsAfter([withDcl(leanRecord(1000)), withDcl(leanRecord(2000))]))).toContain(`${IMG}/late/promo-0.gif`);
  });

  test('the page’s DOMContentLoaded start survives the content script’s timings message', () => {
    const navigation = { responseStart: 100, domContentLoadedEventStart: 700, domContentLoadedEventEnd: 740, loadEventEnd: 950, nextHopProtocol: 'h2' };
    const m = parseContentMessage({ channel: 'content', type: 'timings', entries: [], navigation });
    expect(m.type === 'timings' ? m.navigation?.domContentLoadedEventStart : undefined).toBe(700);
  });

  test('an element reported late whose request began before DOMContentLoaded (a content script started after parsing) stays early', () => {
    const page = withDcl(leanRecord(0));
    page.timings.push(timing(`${IMG}/i/thumb-0.gif`, 'img', 450, 800));
    page.discoveries.push({ url: `${IMG}/i/thumb-0.gif`, kind: 'image', priority: 'image', atMs: 1500, inViewport: true, tag: 'img', late: true });
    page.requests = leanRequests(page);
    expect(observeVisit(page, L).resources.find((r) => r.url === `${IMG}/i/thumb-0.gif`)?.late).toBe(false);
  });
});
