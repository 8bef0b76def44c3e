import type { PageRecord } from '../model/page-record';
import { hintRules } from './dnr-rules';
import { hintsFor, linkHeaderValue } from './hint-list';
import { hintOutcome } from './hint-outcome';
import { DEFAULT_HINT_LIMITS as L, type LearnedState, type Visit } from './hint-types';
import { blockUrls, createLearnedState, forgetHost, recordVisit } from './learned-state';
import { learnedStateFromJson, learnedStateToJson } from './learned-state-json';
import { observeVisit } from './observe-visit';
import { pageKey, templateKey, templateRegex } from './site-template';

const SITE = 'https://news.example';
const CDN = 'https://cdn.example';
const FONTS = 'https://fonts.example';

/** A load of an article: a render-blocking sheet, a font and a CSS background named in it, a script-inserted image. */
function article(path: string, startedAt: number, extra: Partial<PageRecord> = {}): PageRecord {
  const url = `${SITE}${path}`;
  const req = (id: string, u: string, type: string, at: number) => ({ requestId: id, url: u, method: 'GET', type, frameId: 0, startedAt: startedAt + at, statusCode: 200 });
  const timing = (name: string, initiatorType: string, startTime: number, responseEnd: number) => ({ name, initiatorType, startTime, responseEnd, domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, transferSize: 5300, encodedBodySize: 5000, nextHopProtocol: 'h2', restricted: false });
  return {
    pageId: `1:${startedAt}`, tabId: 1, url, startedAt, domContentLoadedAt: startedAt + 400,
    requests: [
      req('0', url, 'main_frame', 0),
      req('1', `${CDN}/site.css`, 'stylesheet', 120),
      req('2', `${FONTS}/face.woff2`, 'font', 450),
      req('3', `${CDN}/bg/hero.jpg`, 'image', 460),
      req('4', `${CDN}/late/promo.gif`, 'image', 500),
      req('5', `${CDN}/app.js`, 'script', 130),
    ],
    discoveries: [
      { url: `${CDN}/bg/hero.jpg`, kind: 'image', priority: 'visible-image', atMs: 460, inViewport: true, tag: 'css', late: true },
      { url: `${CDN}/late/promo.gif`, kind: 'image', priority: 'image', atMs: 500, inViewport: false, tag: 'img', late: true },
    ],
    timings: [timing(`${CDN}/site.css`, 'link', 120, 300), timing(`${FONTS}/face.woff2`, 'css', 450, 700), timing(`${CDN}/bg/hero.jpg`, 'css', 460, 900), timing(`${CDN}/late/promo.gif`, 'img', 500, 800)],
    navigation: { responseStart: 100, domContentLoadedEventEnd: 400, loadEventEnd: 950, nextHopProtocol: 'h2' },
    ...extra,
  };
}

function learn(state: LearnedState, page: PageRecord, hinted?: Set<string>): Visit {
  const visit = observeVisit(page, { ...L, ...(hinted ? { hinted } : {}) });
  recordVisit(state, visit, L);
  return visit;
}

describe('site templates', () => {
  test('articles of one section share a template; the query and fragment never count', () => {
    expect(templateKey(`${SITE}/news/2024/05/a-new-article?utm=x#top`)).toBe(`${SITE}/news/{n}/{n}/{s}`);
    expect(templateKey(`${SITE}/news/2023/11/older.html`)).toBe(`${SITE}/news/{n}/{n}/{s}.html`);
    expect(pageKey(`${SITE}/a?q=1#frag`)).toBe(`${SITE}/a?q=1`);
    expect(templateKey('ftp://x/a')).toBeUndefined();
  });

  test('the template regex matches its template’s URLs and no other', () => {
    const re = new RegExp(templateRegex(`${SITE}/news/{n}/{n}/{s}`));
    expect(re.test(`${SITE}/news/2024/05/a-new-article`)).toBe(true);
    expect(re.test(`${SITE}/news/2024/05/a-new-article?x=1`)).toBe(true);
    expect(re.test(`${SITE}/news/2024/may/a`)).toBe(false);
    expect(re.test(`${SITE}/news/2024/05/a/b`)).toBe(false);
    expect(re.test(`https://news.example.evil/news/2024/05/a`)).toBe(false);
  });
});

describe('learning', () => {
  test('lateness comes from the CSS initiator and the script insertion, never from start time alone; fonts are CORS', () => {
    const v = observeVisit(article('/news/2024/05/a', 1000), L);
    const by = new Map(v.resources.map((r) => [r.url, r]));
    expect(by.get(`${FONTS}/face.woff2`)).toMatchObject({ as: 'font', crossorigin: 'anonymous', type: 'font/woff2', late: true });
    expect(by.get(`${CDN}/bg/hero.jpg`)).toMatchObject({ as: 'image', late: true, inViewport: true });
    expect(by.get(`${CDN}/site.css`)).toMatchObject({ as: 'style', late: false });
    // A font the page preloads itself (initiator `link`) is not late; one fetched with initiator `other` (Firefox's @font-face) is.
    const fontBy = (initiatorType: string) => observeVisit(article('/n/1', 0, { timings: [{ ...article('/n/1', 0).timings[1]!, initiatorType }] }), L).resources.find((r) => r.as === 'font')?.late;
    expect([fontBy('link'), fontBy('other'), fontBy('css')]).toEqual([false, true, true]);
    // Icons are never learned: the browser may not fetch them at all.
    const withIcon = article('/n/1', 0);
    withIcon.requests.push({ requestId: 'ic', url: `${SITE}/favicon.gif`, method: 'GET', type: 'image', frameId: 0, startedAt: 900, statusCode: 200 });
    withIcon.discoveries.push({ url: `${SITE}/favicon.gif`, kind: 'icon', priority: 'other', atMs: 10, inViewport: false, tag: 'link', late: true });
    expect(observeVisit(withIcon, L).resources.map((r) => r.url)).not.toContain(`${SITE}/favicon.gif`);
    // Reported late by a content script that started after parsing, but requested before DOMContentLoaded: not late.
    const early = article('/n/1', 0);
    early.discoveries.push({ url: `${CDN}/site.css`, kind: 'stylesheet', priority: 'blocking', atMs: 120, inViewport: false, tag: 'link', late: true });
    expect(observeVisit(early, L).resources.find((r) => r.url === `${CDN}/site.css`)?.late).toBe(false);
    // Started after DOMContentLoaded (+400) but found by the parser: not late.
    expect(observeVisit(article('/n/1', 0, { discoveries: [] }), L).resources.find((r) => r.url === `${CDN}/late/promo.gif`)?.late).toBe(false);
    expect(by.get(`${CDN}/bg/hero.jpg`)?.crossorigin).toBeUndefined();
    // The CDN served the render-blocking sheet and script before DOMContentLoaded: on the way to first paint.
    // Its bytes and last response end are what preconnects rank by (origin-rank.ts): three timed CDN
    // responses of 5 000 and app.js, which has no entry, counted as UNKNOWN_SIZE_BYTES (32 768).
    expect(v.origins).toEqual([{ origin: CDN, atMs: 120, critical: true, bytes: 47_768, endMs: 900 }, { origin: FONTS, crossorigin: 'anonymous', atMs: 450, bytes: 5000, endMs: 700 }]);
    expect(v.completeMs).toBe(900);
  });

  test('an origin is on the way to first paint for a style sheet or a parser-blocking script, not for an async or deferred one', () => {
    const TAGS = 'https://tags.example';
    const withScript = (d: Partial<PageRecord['discoveries'][number]> | undefined) => {
      const page = article('/n/1', 0);
      page.requests.push({ requestId: 't', url: `${TAGS}/t.js`, method: 'GET', type: 'script', frameId: 0, startedAt: 200, statusCode: 200 });
      if (d) page.discoveries.push({ url: `${TAGS}/t.js`, kind: 'script', priority: 'script', atMs: 200, inViewport: false, tag: 'script', late: false, ...d });
      return observeVisit(page, L).origins.find((o) => o.origin === TAGS)?.critical;
    };
    expect(withScript({ priority: 'blocking' })).toBe(true);
    expect(withScript({ priority: 'script' })).toBeUndefined();
    // Reported late (a content script that started after parsing reports every element so): still blocking.
    expect(withScript({ priority: 'blocking', late: true })).toBe(true);
    // Never seen by the content script: counted blocking, as without the rule.
    expect(withScript(undefined)).toBe(true);
  });

  test('a background named by a cross-origin style sheet (no Resource Timing entry in Chromium) is late by the style scan, even requested before DOMContentLoaded', () => {
    // As Chromium records real-news: the CDN background fetched for an @imported sheet of another
    // origin, at +300 (before DOMContentLoaded at +400), with no timing entry; the style scan found it after load.
    const page = (at: number) => {
      const p = article('/n/cdn-bg', at);
      p.timings = p.timings.filter((t) => t.name !== `${CDN}/bg/hero.jpg`);
      const bg = p.requests.find((r) => r.url === `${CDN}/bg/hero.jpg`);
      if (bg) bg.startedAt = at + 300;
      const d = p.discoveries.find((x) => x.url === `${CDN}/bg/hero.jpg`);
      if (d) Object.assign(d, { atMs: 1200, inViewport: false });
      return p;
    };
    expect(observeVisit(page(0), L).resources.find((r) => r.url === `${CDN}/bg/hero.jpg`)).toMatchObject({ as: 'image', late: true, size: 0 });
    const state = createLearnedState();
    learn(state, page(1000));
    learn(state, page(2000));
    expect(hintsFor(state.entries, `${SITE}/n/cdn-bg`, L).preloads.map((p) => p.href)).toContain(`${CDN}/bg/hero.jpg`);
    // Only the style scan's CSS discoveries: an <img> seen late whose request started before DOMContentLoaded stays early.
    const img = page(0);
    const d = img.discoveries.find((x) => x.url === `${CDN}/bg/hero.jpg`);
    if (d) d.tag = 'img';
    expect(observeVisit(img, L).resources.find((r) => r.url === `${CDN}/bg/hero.jpg`)?.late).toBe(false);
  });

  test('one visit teaches nothing to hint; two do; a third article gets its section’s list before its own first visit', () => {
    const state = createLearnedState();
    learn(state, article('/news/2024/05/a', 1000));
    expect(hintsFor(state.entries, `${SITE}/news/2024/05/a`, L).preloads).toEqual([]);
    learn(state, article('/news/2024/05/a', 2000));
    const list = hintsFor(state.entries, `${SITE}/news/2024/05/a`, L);
    expect(list.preloads.map((p) => p.href)).toEqual([`${FONTS}/face.woff2`, `${CDN}/bg/hero.jpg`, `${CDN}/late/promo.gif`]);
    expect(list.preconnects).toEqual([{ rel: 'preconnect', href: CDN }, { rel: 'preconnect', href: FONTS, crossorigin: 'anonymous' }]);
    const fresh = hintsFor(state.entries, `${SITE}/news/2025/01/brand-new`, L);
    expect(fresh.keys).toEqual([`${SITE}/news/{n}/{n}/{s}`]);
    expect(fresh.preloads.length).toBe(3);
  });

  test('what the latest visit got from the browser’s cache is not hinted, nor an origin only the cache served; once fetched again, it is', () => {
    // The same load with every exposed entry a cache hit (a body, nothing transferred), but the font's
    // entry restricted (a cross-origin response without Timing-Allow-Origin reads 0 either way).
    const cachedLoad = (at: number) => {
      const p = article('/c/1', at);
      return { ...p, timings: p.timings.map((t) => (t.name.endsWith('.woff2') ? { ...t, transferSize: 0, encodedBodySize: 0, restricted: true } : { ...t, transferSize: 0 })) };
    };
    const visit = observeVisit(cachedLoad(1000), L);
    expect(visit.resources.filter((r) => r.cached).map((r) => r.url).sort()).toEqual([`${CDN}/bg/hero.jpg`, `${CDN}/late/promo.gif`, `${CDN}/site.css`].sort());
    // The CDN served app.js too, with no entry: not known to be the cache's, so neither is the origin.
    expect(visit.origins.map((o) => [o.origin, o.cached === true])).toEqual([[CDN, false], [FONTS, false]]);
    const state = createLearnedState();
    learn(state, article('/c/1', 1000));
    learn(state, cachedLoad(2000));
    const list = hintsFor(state.entries, `${SITE}/c/1`, L);
    expect(list.preloads.map((p) => p.href)).toEqual([`${FONTS}/face.woff2`]);
    // Fetched over the network again (evicted, expired): hinted again.
    learn(state, article('/c/1', 3000));
    expect(hintsFor(state.entries, `${SITE}/c/1`, L).preloads.map((p) => p.href)).toEqual([`${FONTS}/face.woff2`, `${CDN}/bg/hero.jpg`, `${CDN}/late/promo.gif`]);
    // An origin every request of which the cache served is not preconnected.
    const allCached = (at: number) => {
      const p = article('/c/2', at);
      return { ...p, requests: p.requests.filter((r) => !r.url.endsWith('app.js')), timings: p.timings.map((t) => ({ ...t, transferSize: 0 })) };
    };
    learn(state, article('/c/2', 4000));
    learn(state, allCached(5000));
    const cachedList = hintsFor(state.entries, `${SITE}/c/2`, L);
    expect(cachedList.preloads).toEqual([]);
    expect(cachedList.preconnects).toEqual([]);
    const stored = learnedStateFromJson(JSON.parse(JSON.stringify(learnedStateToJson(state))));
    expect(hintsFor(stored.entries, `${SITE}/c/2`, L)).toEqual(cachedList);
  });

  test('the Link header carries exactly the as, type and crossorigin of the consuming request', () => {
    const state = createLearnedState();
    learn(state, article('/p/1', 1000));
    learn(state, article('/p/1', 2000));
    expect(linkHeaderValue(hintsFor(state.entries, `${SITE}/p/1`, L))).toBe(
      `<${CDN}>; rel=preconnect, <${FONTS}>; rel=preconnect; crossorigin=anonymous, ` +
        `<${FONTS}/face.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous, ` +
        `<${CDN}/bg/hero.jpg>; rel=preload; as=image, <${CDN}/late/promo.gif>; rel=preload; as=image; fetchpriority=low`,
    );
  });

  test('an item in only 1 of the last 5 visits is not hinted; caps hold at 6 preconnects and 10 preloads', () => {
    const state = createLearnedState();
    const many = (i: number) => {
      const p = article('/big', i * 1000);
      for (let k = 0; k < 14; k++) {
        p.requests.push({ requestId: `x${k}`, url: `https://o${k}.example/i${k}.png`, method: 'GET', type: 'image', frameId: 0, startedAt: i * 1000 + 600 + k, statusCode: 200 });
        p.discoveries.push({ url: `https://o${k}.example/i${k}.png`, kind: 'image', priority: 'image', atMs: 600 + k, inViewport: false, tag: 'img', late: true });
      }
      p.requests.push({ requestId: 'once', url: `${CDN}/only-${i}.png`, method: 'GET', type: 'image', frameId: 0, startedAt: i * 1000 + 700, statusCode: 200 });
      p.discoveries.push({ url: `${CDN}/only-${i}.png`, kind: 'image', priority: 'image', atMs: 700, inViewport: false, tag: 'img', late: true });
      return p;
    };
    for (let i = 1; i <= 5; i++) learn(state, many(i));
    const list = hintsFor(state.entries, `${SITE}/big`, L);
    expect(list.preloads).toHaveLength(10);
    expect(list.preconnects).toHaveLength(6);
    expect(list.preloads.some((p) => p.href.includes('/only-'))).toBe(false);
    expect(state.entries.get(`${SITE}/big`)?.visits).toHaveLength(5);
  });

  test('bounds: keys per site and in total, least recently visited first', () => {
    const state = createLearnedState();
    const limits = { ...L, keysPerSite: 4, keysTotal: 6 };
    for (let i = 0; i < 6; i++) recordVisit(state, observeVisit(article(`/n${i}`, i), L), limits);
    // `/nK` is its own template: one key per page.
    expect([...state.entries.keys()]).toEqual([2, 3, 4, 5].map((i) => `${SITE}/n${i}`));
    for (let i = 0; i < 4; i++) recordVisit(state, observeVisit({ ...article('/x', i), url: `https://other${i}.example/x` }, L), limits);
    expect(state.entries.size).toBe(6);
    expect(state.entries.has('https://other3.example/x')).toBe(true);
  });

  test('a URL fetched twice when hinted is never hinted again; forgetting a site removes its keys', () => {
    const state = createLearnedState();
    learn(state, article('/p/1', 1000));
    learn(state, article('/p/1', 2000));
    blockUrls(state, [`${SITE}/p/1`], [`${CDN}/bg/hero.jpg`], L);
    expect(hintsFor(state.entries, `${SITE}/p/1`, L).preloads.map((p) => p.href)).not.toContain(`${CDN}/bg/hero.jpg`);
    expect(forgetHost(state, '*.example')).toBe(2);
    expect(state.entries.size).toBe(0);
  });

  test('the stored form round-trips, and malformed items are dropped one by one', () => {
    const state = createLearnedState();
    learn(state, article('/p/1', 1000));
    const json = JSON.parse(JSON.stringify(learnedStateToJson(state))) as { entries: Array<{ visits: Array<{ resources: unknown[] }> }> };
    expect(learnedStateFromJson(json).entries).toEqual(state.entries);
    json.entries[0]?.visits[0]?.resources.push({ url: 'javascript:alert(1)', as: 'image' }, { url: `${CDN}/x`, as: 'embed' });
    expect(learnedStateFromJson(json).entries).toEqual(state.entries);
    expect(learnedStateFromJson({ version: 2 }).entries.size).toBe(0);
  });
});

describe('applying and judging', () => {
  test('session rules: a page rule with its allow rule, its template rule; a disallowed host gets none', () => {
    const state = createLearnedState();
    learn(state, article('/news/2024/05/a', 1000));
    learn(state, article('/news/2024/05/b', 2000));
    const rules = hintRules(state, { limits: L, allowed: () => true });
    // The pages have one visit each (no list of their own); the template has two.
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ priority: 1, condition: { regexFilter: templateRegex(`${SITE}/news/{n}/{n}/{s}`), resourceTypes: ['main_frame'] } });
    learn(state, article('/news/2024/05/a', 3000));
    const again = hintRules(state, { limits: L, allowed: () => true });
    expect(again.map((r) => [r.priority, r.action.type, r.condition.urlFilter ?? 'regex'])).toEqual([
      [3, 'modifyHeaders', `|${SITE}/news/2024/05/a|`],
      [2, 'allow', `|${SITE}/news/2024/05/a|`],
      [1, 'modifyHeaders', 'regex'],
    ]);
    expect(new Set(again.map((r) => r.id)).size).toBe(3);
    expect(hintRules(state, { limits: L, allowed: (h) => h !== 'news.example' })).toEqual([]);
  });

  test('session rules: a page with applied hints gets a rule of its own carrying them, with no learned list of its own yet', () => {
    const state = createLearnedState();
    learn(state, article('/news/2024/05/a', 1000));
    learn(state, article('/news/2024/05/b', 2000));
    const page = `${SITE}/news/2024/05/a`;
    const font = { rel: 'preload' as const, href: `${SITE}/f.woff2`, as: 'font' as const, crossorigin: 'anonymous' as const, type: 'font/woff2' };
    const fresh = `${SITE}/other`;
    const rules = hintRules(state, { limits: L, allowed: () => true, applied: new Map([[page, [font]], [fresh, [font]]]) });
    const pageRule = rules.find((r) => r.condition.urlFilter === `|${page}|` && r.action.type === 'modifyHeaders');
    const value = pageRule?.action.type === 'modifyHeaders' ? (pageRule.action.responseHeaders[0]?.value ?? '') : '';
    // Its template's list, then the applied font.
    expect(value).toContain(`<${SITE}/f.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous`);
    expect(value.split(', ').length).toBeGreaterThan(1);
    expect(rules.filter((r) => r.condition.urlFilter === `|${page}|`).map((r) => r.priority)).toEqual([3, 2]);
    // A page nothing was learned for: its own rule with the applied hint alone.
    const freshRule = rules.find((r) => r.condition.urlFilter === `|${fresh}|` && r.action.type === 'modifyHeaders');
    expect(freshRule?.action.type === 'modifyHeaders' && freshRule.action.responseHeaders[0]?.value).toBe(`<${SITE}/f.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous`);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(hintRules(state, { limits: L, allowed: (h) => h !== 'news.example', applied: new Map([[page, [font]]]) })).toEqual([]);
  });

  test('outcome: referenced preloads are used, a twice-fetched one is wasted, time saved is against unhinted visits', () => {
    const state = createLearnedState();
    learn(state, article('/p/1', 1000));
    learn(state, article('/p/1', 2000, { timings: article('/p/1', 0).timings.map((t) => ({ ...t, responseEnd: t.responseEnd + 200 })) }));
    const applied = hintsFor(state.entries, `${SITE}/p/1`, L);
    const hintedLoad = article('/p/1', 3000);
    hintedLoad.requests.push({ requestId: 'dup', url: `${CDN}/late/promo.gif`, method: 'GET', type: 'image', frameId: 0, startedAt: 3600, statusCode: 200 });
    const out = hintOutcome(applied, hintedLoad, [...state.entries.values()]);
    const verdict = (href: string) => out.verdicts.find((v) => v.hint.href === href)?.verdict;
    expect(verdict(`${FONTS}/face.woff2`)).toBe('used');
    expect(verdict(`${CDN}/bg/hero.jpg`)).toBe('used');
    expect(verdict(`${CDN}/late/promo.gif`)).toBe('wasted');
    expect(out.duplicates).toEqual([`${CDN}/late/promo.gif`]);
    expect(verdict(CDN)).toBe('used');
    expect(out).toMatchObject({ completeMs: 900, unhintedMedianMs: 1000, unhintedVisits: 2, savedMs: 100 });
  });
  test('outcome: a preloaded font whose request the background missed (it went out before the page record) is still fetched once, per Resource Timing', () => {
    const state = createLearnedState();
    learn(state, article('/p/1', 1000));
    learn(state, article('/p/1', 2000));
    const applied = hintsFor(state.entries, `${SITE}/p/1`, L);
    expect(applied.preloads.some((p) => p.href === `${FONTS}/face.woff2`)).toBe(true);
    const hintedLoad = article('/p/1', 3000);
    hintedLoad.requests = hintedLoad.requests.filter((r) => r.url !== `${FONTS}/face.woff2`);
    const out = hintOutcome(applied, hintedLoad, [...state.entries.values()]);
    expect(out.verdicts.find((v) => v.hint.href === `${FONTS}/face.woff2`)).toMatchObject({ verdict: 'used', why: 'fetched once, and needed on earlier visits' });
  });
});
