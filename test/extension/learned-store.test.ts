// The learned state in storage.local, an item per learned key: a visit writes the entries it changed,
// gathered and later than the change; keys the state dropped lose their items; a full area gives up
// its least recently visited keys rather than every write; the legacy whole-state item is replaced.
import { FULL_AREA_DROP_SHARE, LEARNED_WRITE_DELAY_MS, LearnedStore } from '../../extension/background/learned-store';
import type { LearnedState, Visit } from '../../src/page/hints/hint-types';
import { DEFAULT_HINT_LIMITS } from '../../src/page/hints/hint-types';
import { createLearnedState, forgetHost, recordVisit } from '../../src/page/hints/learned-state';
import { learnedItemKey, learnedStateFromItems, LEGACY_LEARNED_KEY } from '../../src/page/hints/learned-state-items';
import { learnedStateToJson } from '../../src/page/hints/learned-state-json';
import { FakeTimers, learnedWritten, MemoryStorage } from './background-fakes';

const L = { ...DEFAULT_HINT_LIMITS, keysPerSite: 100, keysTotal: 40 };

const visit = (url: string, at: number): Visit => ({
  at,
  url,
  hinted: false,
  resources: Array.from({ length: 20 }, (_, i) => ({ url: `https://cdn.example/img/${i}.png`, as: 'image' as const, late: true, atMs: 300 + i, inViewport: i < 3, size: 2000 + i })),
  origins: [{ origin: 'https://cdn.example', atMs: 250 }],
});

/** A store over `local`, holding `state` (a box the test may replace, as forgetting everything does). */
function setup(local = new MemoryStorage()) {
  const timers = new FakeTimers();
  const warnings: string[] = [];
  const box: { state: LearnedState } = { state: createLearnedState() };
  const store = new LearnedStore(local, () => box.state, (m) => warnings.push(m), timers.setTimeout);
  const written = () => learnedWritten(timers);
  return { local, timers, warnings, box, store, written };
}

/** A store that has read `local`, and then learned a visit of `site<i>.example/page` for each i < `sites`, in order. */
async function loaded(local = new MemoryStorage(), sites = 0) {
  const s = setup(local);
  s.box.state = await s.store.load();
  for (let i = 0; i < sites; i++) learn(s, `https://site${i}.example/page`, 1000 + i);
  return s;
}

/** Learns a visit of `url` and tells the store what it touched. */
function learn(s: ReturnType<typeof setup>, url: string, at: number): void {
  s.store.changed(recordVisit(s.box.state, visit(url, at), L));
}

const bytes = (items: Record<string, unknown>) => JSON.stringify(items).length;

describe('LearnedStore', () => {
  test('a visit writes only the items of the keys it touched, after the delay, and several changes share one write', async () => {
    const s = await loaded(undefined, 30);
    expect(s.local.sets).toBe(0);
    expect(s.timers.due.map((t) => t.ms)).toEqual([LEARNED_WRITE_DELAY_MS]);
    await s.written();
    expect(s.local.sets).toBe(1);
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
    const whole = bytes(s.local.items);
    // One more visit: its own item is written, a small part of the whole.
    learn(s, 'https://site3.example/page', 5000);
    await s.written();
    const wrote = s.local.lastSet ?? {};
    expect(Object.keys(wrote)).toEqual([learnedItemKey('https://site3.example/page')]);
    expect(bytes(wrote)).toBeLessThan(whole / 10);
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
  });

  test('keys the state evicted (its bounds) or forgot lose their items; nothing else is removed', async () => {
    const s = await loaded(new MemoryStorage({ 'getlist.settings.v1': { hints: true } }), L.keysTotal + 5);
    await s.written();
    expect(s.box.state.entries.size).toBe(L.keysTotal);
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
    expect(forgetHost(s.box.state, 'site10.example')).toBe(1);
    await s.store.flush();
    expect(s.local.items[learnedItemKey('https://site10.example/page')]).toBeUndefined();
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
    s.box.state = createLearnedState();
    await s.store.flush();
    expect(s.local.items).toEqual({ 'getlist.settings.v1': { hints: true } });
  });

  test('a full storage area: the least recently visited quarter is forgotten and the write made again, keeping the latest visit', async () => {
    const s = await loaded(undefined, 20);
    s.local.failSets = 1;
    await s.written();
    expect(s.box.state.entries.size).toBe(20 - Math.ceil(20 * FULL_AREA_DROP_SHARE));
    expect(s.box.state.entries.has('https://site0.example/page')).toBe(false);
    expect(s.box.state.entries.has('https://site19.example/page')).toBe(true);
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
    expect(s.warnings).toEqual([expect.stringContaining('forgetting the 5 least recently visited')]);
  });

  test('a failure other than a full area forgets nothing: the write stays pending and the next one carries it', async () => {
    const s = await loaded(undefined, 1);
    s.local.failMessage = 'IO error: the database is locked';
    s.local.failSets = 1;
    await s.written();
    expect(s.box.state.entries.size).toBe(1);
    expect(s.local.items).toEqual({});
    learn(s, 'https://b.example/page', 2000);
    await s.written();
    expect(s.box.state.entries.size).toBe(2);
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
    expect(s.warnings).toEqual(['could not save the learned hints: Error: IO error: the database is locked']);
  });

  test('a full area that stays full after the quarter is forgotten: the rest stays pending and the next write carries it', async () => {
    const s = await loaded(undefined, 8);
    s.local.failSets = 2;
    await s.written();
    expect(s.local.items).toEqual({});
    expect(s.box.state.entries.size).toBe(6);
    learn(s, 'https://late.example/page', 5000);
    await s.written();
    expect(s.box.state.entries.size).toBe(7);
    expect(learnedStateFromItems(s.local.items).entries).toEqual(s.box.state.entries);
    expect(s.warnings).toEqual([expect.stringContaining('forgetting the 2 least recently visited'), expect.stringContaining('could not save the learned hints: Error: QUOTA_BYTES')]);
  });

  test('the legacy whole-state item: read as the state, then replaced by an item per key at the first write', async () => {
    const old = createLearnedState();
    for (let i = 0; i < 3; i++) recordVisit(old, visit(`https://site${i}.example/page`, 1000 + i), L);
    const s = await loaded(new MemoryStorage({ [LEGACY_LEARNED_KEY]: learnedStateToJson(old) }));
    expect(s.box.state.entries).toEqual(old.entries);
    await s.written();
    expect(s.local.items[LEGACY_LEARNED_KEY]).toBeUndefined();
    expect(learnedStateFromItems(s.local.items).entries).toEqual(old.entries);
  });

  test('where the area lists its keys only the learned items are read; without getKeys, every item', async () => {
    const first = await loaded(undefined, 3);
    await first.written();
    const items = { ...first.local.items, 'getlist.speculation.v1': { pages: [['https://other.example/', { visits: 1, follows: {} }]] }, 'getlist.settings': { hints: true } };
    const listed = await loaded(new MemoryStorage(items));
    expect(listed.box.state.entries).toEqual(first.box.state.entries);
    expect(listed.local.gets).toEqual([Object.keys(first.local.items)]);
    const unlisted = new MemoryStorage(items);
    const { getKeys: _, ...withoutKeys } = unlisted;
    const s = setup(unlisted);
    const store = new LearnedStore(withoutKeys, () => s.box.state, () => undefined, s.timers.setTimeout);
    expect((await store.load()).entries).toEqual(first.box.state.entries);
    expect(unlisted.gets).toEqual([null]);
  });

  test('beforeWrite runs at the start of every write, a flush included, and before the items are set', async () => {
    const local = new MemoryStorage();
    const order: string[] = [];
    const set = local.set;
    local.set = async (items) => {
      order.push('set');
      await set(items);
    };
    const s = setup(local);
    const store = new LearnedStore(local, () => s.box.state, () => undefined, s.timers.setTimeout, { beforeWrite: async () => void order.push('before') });
    s.box.state = await store.load();
    store.changed(recordVisit(s.box.state, visit('https://site.example/page', 1000), L));
    await learnedWritten(s.timers);
    await store.flush();
    expect(order).toEqual(['before', 'set', 'before']);
  });

  test('storage that cannot be read: an empty state, and a warning', async () => {
    const local = new MemoryStorage();
    local.get = async () => {
      throw new Error('IO error');
    };
    const s = setup(local);
    expect((await s.store.load()).entries.size).toBe(0);
    expect(s.warnings).toEqual(['could not read the learned hints: Error: IO error']);
  });
});
