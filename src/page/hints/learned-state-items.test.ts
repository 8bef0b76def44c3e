import type { Visit } from './hint-types';
import { DEFAULT_HINT_LIMITS as L } from './hint-types';
import { createLearnedState, recordVisit } from './learned-state';
import { learnedItemKey, learnedKeyOfItem, learnedStateFromItems, LEGACY_LEARNED_KEY } from './learned-state-items';
import { learnedStateToJson } from './learned-state-json';

const visit = (url: string, at: number): Visit => ({
  at,
  url,
  hinted: false,
  resources: [{ url: 'https://cdn.example/late.png', as: 'image', late: true, atMs: 300, inViewport: true, size: 2000 }],
  origins: [{ origin: 'https://cdn.example', atMs: 250 }],
});

/** A state of three pages of two sites, visited in the order given. */
function learned(order: Array<[string, number]>) {
  const state = createLearnedState();
  for (const [url, at] of order) recordVisit(state, visit(url, at), L);
  return state;
}

/** The state as per-key items, the way the learned store writes them. */
const itemsOf = (state: ReturnType<typeof learned>) => Object.fromEntries([...state.entries].map(([k, e]) => [learnedItemKey(k), JSON.parse(JSON.stringify(e))]));

describe('the learned state stored an item per key', () => {
  test('read back equal, in recency order: the least recently visited key first, whatever order the items come in', () => {
    const state = learned([['https://a.example/x', 1000], ['https://b.example/y', 2000], ['https://a.example/x', 3000]]);
    const items = itemsOf(state);
    const shuffled = Object.fromEntries(Object.entries(items).reverse());
    const back = learnedStateFromItems({ ...shuffled, 'getlist.settings.v1': { hints: true } });
    expect([...back.entries.keys()]).toEqual([...state.entries.keys()]);
    expect(back.entries).toEqual(state.entries);
  });

  test('an item whose entry is malformed or names another key is dropped; other items are not the learned state', () => {
    const state = learned([['https://a.example/x', 1000], ['https://b.example/y', 2000]]);
    const items = itemsOf(state);
    const [first, second] = Object.keys(items) as [string, string];
    const back = learnedStateFromItems({ [first]: { key: 'https://a.example/x', kind: 'page' }, [second]: { ...(items[second] as object), key: 'https://evil.example/' }, other: items[first] });
    expect(back.entries.size).toBe(0);
    expect(learnedKeyOfItem('getlist.speculation.v1')).toBeUndefined();
    expect(learnedKeyOfItem(learnedItemKey('https://a.example/x'))).toBe('https://a.example/x');
  });

  test('the legacy whole-state item is read too; an item of its own wins over the legacy copy of the same key', () => {
    const old = learned([['https://a.example/x', 1000], ['https://b.example/y', 2000]]);
    const newer = learned([['https://a.example/x', 1000], ['https://a.example/x', 5000]]);
    const back = learnedStateFromItems({ [LEGACY_LEARNED_KEY]: learnedStateToJson(old), ...itemsOf(newer) });
    expect(back.entries.get('https://b.example/y')).toEqual(old.entries.get('https://b.example/y'));
    expect(back.entries.get('https://a.example/x')?.visits.map((v) => v.at)).toEqual([1000, 5000]);
    expect([...back.entries.keys()].pop()).toBe('https://a.example/x');
  });
});
