import { PRIORITY_CLASSES, type PriorityClass } from '../core/priority';
import { checkPageOrigins } from './origin-facts';
import { InMemoryOriginMemory } from './origin-memory';
import { checkPageList, LIST_WINDOW, MAX_LIST_RESOURCES, MAX_LIST_URL_CHARS, mergePageList, seenCount, speculativeList, type ListedResource, type VisitResource } from './page-list';

const v = (path: string, order: number, priority: PriorityClass = 'image', bytes = 100, resourceType = 'image'): VisitResource => ({ url: `https://p.test${path}`, resourceType, priority, bytes, order });

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('mergePageList', () => {
  test('a URL on both loads has bits 0 and 1; one dropped from the page keeps only bit 1; a new one only bit 0', () => {
    const first = mergePageList(undefined, [v('/a', 0), v('/b', 1)]);
    const second = mergePageList(first, [v('/a', 0), v('/c', 1)]);
    const seen = Object.fromEntries(second.map((r) => [r.url.slice('https://p.test'.length), r.seen]));
    expect(seen).toEqual({ '/a': 0b11, '/c': 0b01, '/b': 0b10 });
    // This load's entries first, in its order; the one it did not fetch last.
    expect(second.map((r) => r.url.slice(-2))).toEqual(['/a', '/c', '/b']);
  });

  test(`an entry no load of the last ${LIST_WINDOW} fetched is dropped`, () => {
    let list = mergePageList(undefined, [v('/gone', 0), v('/stays', 1)]);
    for (let i = 1; i < LIST_WINDOW; i++) list = mergePageList(list, [v('/stays', 0)]);
    expect(list.find((r) => r.url.endsWith('/gone'))?.seen).toBe(1 << (LIST_WINDOW - 1));
    list = mergePageList(list, [v('/stays', 0)]);
    expect(list.map((r) => r.url)).toEqual(['https://p.test/stays']);
  });

  test('a load takes its own type, class, size and place for a URL it fetched', () => {
    const first = mergePageList(undefined, [v('/a', 3, 'image', 10)]);
    const [a] = mergePageList(first, [v('/a', 0, 'visible-image', 99, 'img')]);
    expect(a).toEqual({ url: 'https://p.test/a', resourceType: 'img', priority: 'visible-image', bytes: 99, order: 0, seen: 0b11 });
  });

  test('property: caps hold, this load comes first, every URL once, seen within the window (60 random load sequences)', () => {
    const rand = prng(14);
    for (let run = 0; run < 60; run++) {
      let list: ListedResource[] | undefined;
      const loads = 1 + Math.floor(rand() * 12);
      for (let l = 0; l < loads; l++) {
        const n = Math.floor(rand() * 400);
        const long = rand() < 0.2;
        const visit = Array.from({ length: n }, (_, i) => v(`/${Math.floor(rand() * 500)}${long ? 'x'.repeat(400) : ''}`, i));
        list = mergePageList(list, visit);
        expect(list.length).toBeLessThanOrEqual(MAX_LIST_RESOURCES);
        expect(list.reduce((s, r) => s + r.url.length, 0)).toBeLessThanOrEqual(MAX_LIST_URL_CHARS);
        expect(new Set(list.map((r) => r.url)).size).toBe(list.length);
        expect(list.every((r) => r.seen >= 1 && r.seen < 1 << LIST_WINDOW)).toBe(true);
        // Every entry of this load precedes every older one, and what this load fetched is on it
        // unless a cap cut it (then nothing older is kept).
        const firstOld = list.findIndex((r) => (r.seen & 1) === 0);
        expect(firstOld < 0 || list.slice(firstOld).every((r) => (r.seen & 1) === 0)).toBe(true);
        const fetched = new Set(visit.map((x) => x.url));
        const kept = list.filter((r) => (r.seen & 1) === 1).length;
        if (kept < fetched.size) expect(firstOld).toBe(-1);
        expect(list.filter((r) => (r.seen & 1) === 1).every((r) => fetched.has(r.url))).toBe(true);
      }
      // A stored list reads back as it was written.
      expect(checkPageList(JSON.parse(JSON.stringify(list)))).toEqual({ value: list });
    }
  });
});

describe('speculativeList', () => {
  const list = mergePageList(mergePageList(undefined, [v('/img', 0), v('/css', 1, 'blocking', 100, 'stylesheet'), v('/once', 2), v('/js', 3, 'blocking', 100, 'script'), v('/lazy', 4, 'prefetch')]), [
    v('/img', 0),
    v('/css', 1, 'blocking', 100, 'stylesheet'),
    v('/js', 2, 'blocking', 100, 'script'),
    v('/new', 3),
    v('/lazy', 4, 'prefetch'),
  ]);
  const paths = (rs: readonly ListedResource[]) => rs.map((r) => r.url.slice('https://p.test'.length));

  test('once two loads exist, only what both fetched; stylesheet, then sync script, then images; never the prefetch class', () => {
    expect(paths(speculativeList(list, { loads: 2, maxBytes: Infinity }))).toEqual(['/css', '/js', '/img']);
  });

  test('with one load recorded, all it fetched', () => {
    expect(paths(speculativeList(list, { loads: 1, maxBytes: Infinity }))).toEqual(['/css', '/js', '/img', '/new']);
  });

  test('the byte cap: what would pass it is left out, later smaller entries still fit', () => {
    const sized = mergePageList(undefined, [v('/big', 0, 'blocking', 900, 'stylesheet'), v('/a', 1, 'image', 60), v('/b', 2, 'image', 40), v('/c', 3, 'image', 1)]);
    const picked = speculativeList(sized, { loads: 1, maxBytes: 100 });
    expect(paths(picked)).toEqual(['/a', '/b']);
    expect(picked.reduce((s, r) => s + r.bytes, 0)).toBeLessThanOrEqual(100);
  });

  test('a refused URL is never listed', () => {
    expect(paths(speculativeList(list, { loads: 1, maxBytes: Infinity, refuse: (u) => u.endsWith('/js') }))).toEqual(['/css', '/img', '/new']);
  });

  test('property: the result is eligible, under the cap, and in rank order (200 random lists)', () => {
    const rand = prng(7);
    for (let run = 0; run < 200; run++) {
      const n = Math.floor(rand() * 60);
      const resources: ListedResource[] = Array.from({ length: n }, (_, i) => ({
        url: `https://p.test/${i}`,
        resourceType: rand() < 0.3 ? 'stylesheet' : 'image',
        priority: PRIORITY_CLASSES[1 + Math.floor(rand() * (PRIORITY_CLASSES.length - 1))] as PriorityClass,
        bytes: Math.floor(rand() * 5000),
        order: i,
        seen: 1 + Math.floor(rand() * 255),
      }));
      const loads = 1 + Math.floor(rand() * 8);
      const maxBytes = Math.floor(rand() * 50_000);
      const out = speculativeList(resources, { loads, maxBytes });
      expect(out.reduce((s, r) => s + r.bytes, 0)).toBeLessThanOrEqual(maxBytes);
      for (const r of out) {
        expect(r.priority).not.toBe('prefetch');
        expect(r.seen & 1).toBe(1);
        if (loads >= 2) expect(r.seen & 2).toBe(2);
      }
      const rank = (r: ListedResource) => PRIORITY_CLASSES.indexOf(r.priority) * 2 + (r.resourceType === 'stylesheet' ? 0 : 1);
      for (let i = 1; i < out.length; i++) expect(rank(out[i - 1] as ListedResource)).toBeLessThanOrEqual(rank(out[i] as ListedResource));
    }
  });
});

describe('stored lists', () => {
  const good = { url: 'https://p.test/', lastSeen: 1, origins: [{ origin: 'https://p.test', requests: 2 }], loads: 1, resources: mergePageList(undefined, [v('/a', 0)]) };

  test('a page record without a list (written before lists) still reads, without one', () => {
    const { loads: _l, resources: _r, ...old } = good;
    expect(checkPageOrigins(old)).toEqual({ value: old });
  });

  test.each([
    ['not an array', { resources: 'x' }, /^resources: expected an array/],
    ['an entry with a javascript: URL', { resources: [{ ...good.resources[0], url: 'javascript:alert(1)' }] }, /^resources\[0\]\.url/],
    ['an unknown class', { resources: [{ ...good.resources[0], priority: 'urgent' }] }, /^resources\[0\]\.priority/],
    ['seen outside the window', { resources: [{ ...good.resources[0], seen: 1 << LIST_WINDOW }] }, /^resources\[0\]\.seen/],
    ['negative bytes', { resources: [{ ...good.resources[0], bytes: -1 }] }, /^resources\[0\]\.bytes/],
    ['too many entries', { resources: Array.from({ length: MAX_LIST_RESOURCES + 1 }, (_, i) => ({ ...good.resources[0], url: `https://p.test/${i}` })) }, /^resources: expected an array of at most/],
    ['no load count', { loads: undefined }, /^loads:/],
  ])('a list with %s makes the whole record one to skip', (_what, patch, problem) => {
    const r = checkPageOrigins({ ...good, ...patch });
    expect('problem' in r && r.problem).toMatch(problem);
  });

  test('a memory file whose page has a corrupt list: the page is skipped and said so, no list is served', () => {
    const json = { version: 1, origins: [], pages: [{ ...good, resources: [{ ...good.resources[0], priority: 'urgent' }] }, { ...good, url: 'https://q.test/' }] };
    const m = InMemoryOriginMemory.fromJSON(json, { now: () => 2 });
    expect(m.skipped).toEqual([expect.stringMatching(/^pages\[0\]: resources\[0\]\.priority/)]);
    expect(m.pageList('https://p.test/')).toBeUndefined();
    expect(m.pageList('https://q.test/')).toEqual({ loads: 1, resources: good.resources });
  });

  test('the memory merges visits, keeps the list through a replay, and expires it with the page', () => {
    let now = 1000;
    const m = new InMemoryOriginMemory({ now: () => now, maxAgeMs: 10_000 });
    m.putPageOrigins('https://p.test/', [], [v('/a', 0), v('/b', 1)]);
    m.putPageOrigins('https://p.test/', [], [v('/a', 0)]);
    m.putPageOrigins('https://p.test/', []); // a replay: the browser fetched, the list stays
    const list = m.pageList('https://p.test/');
    expect(list?.loads).toBe(2);
    expect(list?.resources.map((r) => [r.url.slice(-2), seenCount(r.seen)])).toEqual([['/a', 2], ['/b', 1]]);
    expect(InMemoryOriginMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())), { now: () => now }).pageList('https://p.test/')).toEqual(list);
    now += 10_001;
    expect(m.pageList('https://p.test/')).toBeUndefined();
    // A stale list is not merged into: the next load starts a new one.
    m.putPageOrigins('https://p.test/', [], [v('/c', 0)]);
    expect(m.pageList('https://p.test/')).toEqual({ loads: 1, resources: [expect.objectContaining({ url: 'https://p.test/c', seen: 1 })] });
  });
});
