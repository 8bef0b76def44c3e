import { hintMatchPatterns } from './hint-hosts';
import { DEFAULT_HINT_LIMITS as L, type LearnedEntry, type LearnedState, type Visit } from './hint-types';
import { createLearnedState } from './learned-state';

/** A visit that fetched one late image from the page's own origin. */
function visit(url: string, at: number): Visit {
  return { at, url, hinted: false, resources: [{ url: `${new URL(url).origin}/late.png`, as: 'image', late: true, atMs: 300, inViewport: true, size: 2000 }], origins: [] };
}

function entry(key: string, kind: LearnedEntry['kind'], visits: number, blocked: string[] = []): LearnedEntry {
  const url = kind === 'page' ? key : `${key.replace('{n}', '1')}`;
  return { key, kind, host: new URL(url).hostname, visits: Array.from({ length: visits }, (_, i) => visit(url, 1000 * (i + 1))), blocked };
}

function state(...entries: LearnedEntry[]): LearnedState {
  const s = createLearnedState();
  for (const e of entries) s.entries.set(e.key, e);
  return s;
}

describe('hint script match patterns', () => {
  test('one pattern per host that has a list (page or template), sorted; hosts without a list get none', () => {
    const s = state(
      entry('https://b.example/a', 'page', 2),
      entry('https://a.example/news/{n}', 'template', 3),
      entry('https://a.example/x', 'page', 2),
      // One visit: not enough for a list.
      entry('https://c.example/a', 'page', 1),
      // Its only resource blocked (a preload that was fetched twice): an empty list.
      entry('https://d.example/a', 'page', 2, ['https://d.example/late.png']),
    );
    expect(hintMatchPatterns(s, { limits: L, allowed: () => true })).toEqual(['*://a.example/*', '*://b.example/*']);
  });

  test('a host hints are not allowed on, an IPv6 literal and an empty state get none', () => {
    const s = state(entry('https://a.example/x', 'page', 2), entry('https://[::1]:8080/x', 'page', 2), entry('http://127.0.0.1:9000/p', 'page', 2));
    expect(hintMatchPatterns(s, { limits: L, allowed: (h) => h !== 'a.example' })).toEqual(['*://127.0.0.1/*']);
    expect(hintMatchPatterns(createLearnedState(), { limits: L, allowed: () => true })).toEqual([]);
  });
});
