import type { Discovery, NavigationTiming, PageRecord, TimingEntry } from './page-record';
import { createPageState, navigationStarted, requestStarted, timingsReported } from './page-reducer';
import { leanRequests, resourceType } from './lean-requests';
import { buildReplayList, unrequestedDiscoveries } from './replay-list';

const T0 = 1_700_000_000_000;
const ORIGIN = 'https://a.test';
const timing = (name: string, initiatorType: string, startTime: number, over: Partial<TimingEntry> = {}): TimingEntry => ({
  name,
  initiatorType,
  startTime,
  domainLookupStart: startTime,
  domainLookupEnd: startTime,
  connectStart: startTime,
  secureConnectionStart: 0,
  connectEnd: startTime,
  requestStart: startTime + 1,
  responseStart: startTime + 5,
  responseEnd: startTime + 9,
  transferSize: 1300,
  encodedBodySize: 1000,
  nextHopProtocol: 'http/1.1',
  responseStatus: 200,
  restricted: false,
  ...over,
});
const nav: NavigationTiming = { timeOrigin: T0 + 3, fetchStart: 1, responseStart: 20, responseEnd: 25, domContentLoadedEventEnd: 50, loadEventEnd: 90, nextHopProtocol: 'http/1.1', responseStatus: 404, contentType: 'text/html' };
const disc = (url: string, kind: Discovery['kind'], atMs: number): Discovery => ({ url, kind, priority: kind === 'stylesheet' ? 'blocking' : 'image', atMs, inViewport: false, tag: 'x', late: false });

describe('leanRequests: the page\'s requests as its own Resource and Navigation Timing recorded them', () => {
  const page: Pick<PageRecord, 'url' | 'startedAt' | 'timings' | 'navigation' | 'discoveries'> = {
    url: `${ORIGIN}/page`,
    startedAt: T0,
    navigation: nav,
    discoveries: [disc(`${ORIGIN}/fonts/f`, 'font', 3)],
    timings: [
      timing(`${ORIGIN}/a.css`, 'link', 30),
      timing(`${ORIGIN}/img.png`, 'img', 40),
      timing(`${ORIGIN}/api`, 'fetch', 45),
      timing(`${ORIGIN}/fonts/f`, 'css', 60),
      timing('https://cdn.test/x.png', 'css', 50, { restricted: true, responseStatus: 0, transferSize: 0, encodedBodySize: 0 }),
    ],
  };
  const out = leanRequests(page);

  it('puts the document first, with Navigation Timing\'s status and type, times from its timeOrigin', () => {
    expect(out[0]).toEqual({ requestId: 'rt:document', url: `${ORIGIN}/page`, method: 'GET', type: 'main_frame', frameId: 0, startedAt: T0 + 3 + 1, endedAt: T0 + 3 + 25, statusCode: 404, contentType: 'text/html' });
  });

  it('types each entry from its initiator, else the element that named it, else its extension', () => {
    expect(out.slice(1).map((r) => [r.url.replace(ORIGIN, ''), r.type])).toEqual([
      ['/a.css', 'stylesheet'],
      ['/img.png', 'image'],
      ['/api', 'xmlhttprequest'],
      ['https://cdn.test/x.png', 'image'],
      ['/fonts/f', 'font'],
    ]);
  });

  it('leaves the method unset where the browser does not expose it (fetch may be a POST)', () => {
    expect(out.find((r) => r.url.endsWith('/api'))?.method).toBe('');
    expect(out.filter((r) => r.method === 'GET').length).toBe(5);
  });

  it('never guesses a status, a cache hit or an address it was not given', () => {
    const cdn = out.find((r) => r.url.startsWith('https://cdn.test'));
    expect(cdn).not.toHaveProperty('statusCode');
    expect(cdn).not.toHaveProperty('fromCache');
    expect(out.some((r) => r.ip !== undefined || r.error !== undefined || r.requestHeaders !== undefined)).toBe(false);
  });

  it('leaves the document\'s end unknown where the browser reported it at the first byte (Firefox ESR 153), never the first byte as its end', () => {
    const firefox = leanRequests({ ...page, navigation: { ...nav, responseStart: 213, responseEnd: 213, encodedBodySize: 32_000 } })[0];
    expect(firefox).not.toHaveProperty('endedAt');
    expect(firefox?.startedAt).toBe(T0 + 3 + 1);
    // A body-less document can end at its first byte; its end stands.
    expect(leanRequests({ ...page, navigation: { ...nav, responseStart: 20, responseEnd: 20, encodedBodySize: 0 } })[0]?.endedAt).toBe(T0 + 3 + 20);
  });

  it('falls back to the record start without a timeOrigin', () => {
    const { timeOrigin: _unused, ...old } = nav;
    expect(leanRequests({ ...page, navigation: old })[0]?.startedAt).toBe(T0 + 1);
  });

  it.each([
    [{ name: `${ORIGIN}/x.woff2`, initiatorType: 'other' }, undefined, 'font'],
    [{ name: `${ORIGIN}/x`, initiatorType: 'link' }, 'stylesheet', 'stylesheet'],
    [{ name: `${ORIGIN}/x.js`, initiatorType: 'link' }, undefined, 'script'],
    [{ name: `${ORIGIN}/x`, initiatorType: 'other' }, undefined, 'other'],
    [{ name: `${ORIGIN}/frame.html`, initiatorType: 'iframe' }, undefined, 'sub_frame'],
  ] as const)('resourceType(%o, %s) = %s', (t, kind, type) => {
    expect(resourceType(t, kind)).toBe(type);
  });
});

describe('the reducer in lean capture', () => {
  const start = () => {
    const s = createPageState();
    navigationStarted(s, { tabId: 1, frameId: 0, url: `${ORIGIN}/page`, timeStamp: T0 });
    return s;
  };

  it('starts every record lean and rebuilds its requests from each timings report, never twice', () => {
    const s = start();
    expect(s.pages.get(1)?.capture).toBe('lean');
    timingsReported(s, 1, `${ORIGIN}/page`, [timing(`${ORIGIN}/img.png`, 'img', 40)], nav);
    timingsReported(s, 1, `${ORIGIN}/page`, [timing(`${ORIGIN}/img.png`, 'img', 40), timing(`${ORIGIN}/late.png`, 'img', 400)], nav);
    expect(s.pages.get(1)?.requests.map((r) => r.url)).toEqual([`${ORIGIN}/page`, `${ORIGIN}/img.png`, `${ORIGIN}/late.png`]);
  });

  it('turns detailed at the first webRequest event, dropping the rebuilt requests, and stops rebuilding', () => {
    const s = start();
    timingsReported(s, 1, `${ORIGIN}/page`, [timing(`${ORIGIN}/img.png`, 'img', 40)], nav);
    requestStarted(s, { requestId: '7', tabId: 1, frameId: 0, url: `${ORIGIN}/beacon`, method: 'POST', type: 'ping', timeStamp: T0 + 500 });
    timingsReported(s, 1, `${ORIGIN}/page`, [timing(`${ORIGIN}/late.png`, 'img', 400)], nav);
    const page = s.pages.get(1);
    expect(page?.capture).toBe('detailed');
    expect(page?.requests.map((r) => r.requestId)).toEqual(['7']);
  });

  it('replays only what the timings say the browser fetched (only URLs the browser itself requested are replayed), GETs only', () => {
    const s = start();
    const page = s.pages.get(1) as PageRecord;
    page.discoveries.push(disc(`${ORIGIN}/a.css`, 'stylesheet', 10), disc(`${ORIGIN}/never.png`, 'image', 12));
    timingsReported(s, 1, `${ORIGIN}/page`, [timing(`${ORIGIN}/a.css`, 'link', 30), timing(`${ORIGIN}/img.png`, 'img', 40), timing(`${ORIGIN}/api`, 'fetch', 45)], nav);
    expect(buildReplayList(page).map((i) => i.url)).toEqual([`${ORIGIN}/page`, `${ORIGIN}/a.css`, `${ORIGIN}/img.png`]);
    expect(unrequestedDiscoveries(page).map((d) => d.url)).toEqual([`${ORIGIN}/never.png`]);
  });
});
