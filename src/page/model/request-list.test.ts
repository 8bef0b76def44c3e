import type { Discovery, ObservedRequest, PageRecord } from './page-record';
import { buildRequestList, priorityForResourceType } from './request-list';

const T0 = 1_700_000_000_000;

function page(over: Partial<PageRecord> = {}): PageRecord {
  return { pageId: '1:1', tabId: 1, url: 'https://a.test/page#top', startedAt: T0, requests: [], discoveries: [], timings: [], ...over };
}
function disc(url: string, priority: Discovery['priority'], atMs: number, over: Partial<Discovery> = {}): Discovery {
  return { url, kind: 'other', priority, atMs, inViewport: false, tag: 'x', late: false, ...over };
}
function req(url: string, type: string, at: number, over: Partial<ObservedRequest> = {}): ObservedRequest {
  return { requestId: url, url, method: 'GET', type, frameId: 0, startedAt: T0 + at, ...over };
}

describe('buildRequestList', () => {
  test('the document comes first (fragment removed), then by class, then by discovery time', () => {
    const list = buildRequestList(
      page({
        discoveries: [disc('https://a.test/img.png', 'image', 5), disc('https://a.test/a.css', 'blocking', 20), disc('https://a.test/app.js', 'script', 1), disc('https://b.test/early.css', 'blocking', 10)],
      }),
    );
    expect(list.map((i) => [i.url, i.priority])).toEqual([
      ['https://a.test/page', 'document'],
      ['https://b.test/early.css', 'blocking'],
      ['https://a.test/a.css', 'blocking'],
      ['https://a.test/app.js', 'script'],
      ['https://a.test/img.png', 'image'],
    ]);
    expect(list.every((i) => i.method === 'GET')).toBe(true);
  });

  test('de-duplicates by URL without fragment across discoveries and webRequest; the most urgent class and earliest time win', () => {
    const list = buildRequestList(
      page({
        discoveries: [disc('https://a.test/x.png#a', 'image', 30), disc('https://a.test/x.png#b', 'visible-image', 40), disc('https://a.test/page', 'other', 1)],
        requests: [req('https://a.test/page', 'main_frame', 0), req('https://a.test/x.png', 'image', 2), req('https://a.test/only-wr.js', 'script', 3)],
      }),
    );
    expect(list.map((i) => i.url)).toEqual(['https://a.test/page', 'https://a.test/x.png', 'https://a.test/only-wr.js']);
    expect(list[1]).toMatchObject({ priority: 'visible-image', discoveredAt: 30 });
  });

  test('an image discovery in the viewport is a visible image', () => {
    const list = buildRequestList(page({ discoveries: [disc('https://a.test/hero.jpg', 'image', 3, { inViewport: true })] }));
    expect(list[1]).toMatchObject({ priority: 'visible-image', inViewport: true });
  });

  test('webRequest-only URLs: type → class; sub-frame requests, non-GET and non-http URLs are left out', () => {
    const list = buildRequestList(
      page({
        requests: [
          req('https://a.test/s.css', 'stylesheet', 1),
          req('https://a.test/f.woff2', 'font', 2),
          req('https://a.test/frame', 'sub_frame', 3),
          req('https://a.test/api', 'xmlhttprequest', 4),
          req('https://a.test/post', 'xmlhttprequest', 5, { method: 'POST' }),
          req('https://a.test/in-frame.js', 'script', 6, { frameId: 4 }),
          req('https://user:pw@a.test/secret', 'image', 7),
        ],
      }),
    );
    expect(list.slice(1).map((i) => [i.url, i.priority, i.resourceType])).toEqual([
      ['https://a.test/s.css', 'blocking', 'stylesheet'],
      ['https://a.test/f.woff2', 'font', 'font'],
      ['https://a.test/frame', 'other', 'sub_frame'],
      ['https://a.test/api', 'other', 'xmlhttprequest'],
    ]);
    expect(list[1]?.discoveredAt).toBe(1);
  });

  test('caps the list at maxRequests, the document included, keeping the most urgent', () => {
    const discoveries = Array.from({ length: 3000 }, (_, i) => disc(`https://a.test/${i}.png`, i === 2999 ? 'blocking' : 'image', i));
    const list = buildRequestList(page({ discoveries }));
    expect(list).toHaveLength(2000);
    expect(list[1]?.url).toBe('https://a.test/2999.png');
    expect(buildRequestList(page({ discoveries }), { maxRequests: 3 })).toHaveLength(3);
  });

  test('priorityForResourceType', () => {
    expect(priorityForResourceType('stylesheet')).toBe('blocking');
    expect(priorityForResourceType('image', true)).toBe('visible-image');
    expect(priorityForResourceType('media')).toBe('other');
  });
});
