// The speculation state in storage.local, an item per entry: a commit writes the entries it changed,
// gathered and later than the change; the state's order comes back after a restart; entries the
// state dropped lose their items; the legacy whole-state item is replaced; a failed write is made
// again with the next.
import { movedOrNew, SPECULATION_WRITE_DELAY_MS, SpeculationStore } from '../../extension/background/speculation-store';
import { createSpeculationState, documentCacheControl, forgetSpeculation, linkFollowed, pageCommitted, pageServed, SPECULATION_LIMITS } from '../../src/page/speculation/follow-state';
import { LEGACY_SPECULATION_KEY, speculationItemKey } from '../../src/page/speculation/speculation-state-items';
import { speculationStateToJson } from '../../src/page/speculation/speculation-state-json';
import type { SpeculationState } from '../../src/page/speculation/speculation-types';
import { FakeTimers, firedAndSettled, MemoryStorage } from './background-fakes';

const page = (i: number) => `https://site${i % 7}.example/news/2024/article-${i}.html`;

/** A visit of page i, followed from page i − 7 (the same site), as the service records a commit and its report. */
function browse(state: SpeculationState, i: number): void {
  pageCommitted(state, page(i));
  if (i >= 7) linkFollowed(state, page(i - 7), page(i));
  pageServed(state, page(i), { deliveryType: '', prerendered: false, navigationType: 'navigate', responseStartMs: 40 + i, encodedBodySize: 20_000 + i });
}

/** A store over `local` holding `box.state`, read back from `local` first. */
async function loaded(local = new MemoryStorage()) {
  const timers = new FakeTimers();
  const warnings: string[] = [];
  const box: { state: SpeculationState } = { state: createSpeculationState() };
  const store = new SpeculationStore(local, () => box.state, (m) => warnings.push(m), timers.setTimeout);
  box.state = await store.load();
  const written = () => firedAndSettled(timers, SPECULATION_WRITE_DELAY_MS);
  return { local, timers, warnings, box, store, written };
}

const bytes = (items: Record<string, unknown>) => JSON.stringify(items).length;
const order = (s: SpeculationState) => ({ pages: [...s.pages.keys()], docBytes: [...s.docBytes.keys()], baselines: [...s.baselines.keys()], noStore: [...s.noStore] });

describe('SpeculationStore', () => {
  test('a commit writes only the entries it changed, after the delay, a small part of the state', async () => {
    const s = await loaded();
    for (let i = 0; i < 200; i++) browse(s.box.state, i);
    s.store.schedule();
    expect(s.local.sets).toBe(0);
    expect(s.timers.due.map((t) => t.ms)).toEqual([SPECULATION_WRITE_DELAY_MS]);
    await s.written();
    expect(s.local.sets).toBe(1);
    const whole = bytes(s.local.items);
    browse(s.box.state, 200);
    s.store.schedule();
    await s.written();
    const wrote = s.local.lastSet ?? {};
    // The new page's follows, size and baseline, and the page it was followed from.
    expect(Object.keys(wrote).sort()).toEqual([speculationItemKey('baselines', page(200)), speculationItemKey('docBytes', page(200)), speculationItemKey('pages', page(193)), speculationItemKey('pages', page(200))].sort());
    expect(bytes(wrote)).toBeLessThan(whole / 50);
    // Nothing changed: nothing written.
    s.store.schedule();
    await s.written();
    expect(s.local.sets).toBe(2);
  });

  test('a restart reads back the state in its order, re-written entries last, and the bounds hold', async () => {
    const first = await loaded();
    const state = first.box.state;
    for (let i = 0; i < SPECULATION_LIMITS.pages + 20; i++) browse(state, i);
    documentCacheControl(state, page(3), 'no-store');
    documentCacheControl(state, page(1), 'no-store');
    first.store.schedule();
    await first.written();
    // Pages visited again move to their maps' ends; the next write keeps that order.
    browse(state, 40);
    browse(state, 30);
    documentCacheControl(state, page(3), 'no-store');
    first.store.schedule();
    await first.written();
    const again = await loaded(new MemoryStorage(first.local.items));
    expect(again.box.state).toEqual(state);
    expect(order(again.box.state)).toEqual(order(state));
    expect(again.box.state.pages.size).toBe(SPECULATION_LIMITS.pages);
  });

  test('entries the state evicted or forgot lose their items; nothing else is removed', async () => {
    const local = new MemoryStorage({ 'getlist.settings': { hints: true } });
    const s = await loaded(local);
    for (let i = 0; i < SPECULATION_LIMITS.pages + 5; i++) browse(s.box.state, i);
    s.store.schedule();
    await s.written();
    expect(local.items[speculationItemKey('pages', page(0))]).toBeUndefined();
    expect(local.items[speculationItemKey('pages', page(5))]).toBeDefined();
    forgetSpeculation(s.box.state, 'site3.example');
    await s.store.flush();
    expect(Object.keys(local.items).filter((k) => k.includes('site3.example'))).toEqual([]);
    expect(Object.keys(local.items).some((k) => k.includes('site4.example'))).toBe(true);
    forgetSpeculation(s.box.state);
    await s.store.flush();
    expect(local.items).toEqual({ 'getlist.settings': { hints: true } });
  });

  test('the legacy whole-state item: read as the state, then replaced by an item per entry', async () => {
    const old = createSpeculationState();
    for (let i = 0; i < 5; i++) browse(old, i);
    documentCacheControl(old, page(2), 'no-store');
    const s = await loaded(new MemoryStorage({ [LEGACY_SPECULATION_KEY]: speculationStateToJson(old) }));
    expect(s.box.state).toEqual(old);
    await s.written();
    expect(s.local.items[LEGACY_SPECULATION_KEY]).toBeUndefined();
    expect((await loaded(new MemoryStorage(s.local.items))).box.state).toEqual(old);
  });

  test('ill-formed items are dropped when read and removed at the next write', async () => {
    const first = await loaded();
    browse(first.box.state, 1);
    first.store.schedule();
    await first.written();
    const items = { ...first.local.items, [speculationItemKey('pages', page(9))]: { at: 3, value: { visits: -1, follows: {} } }, [speculationItemKey('docBytes', page(8))]: { value: 10 }, 'getlist.speculation.v2:other:x': { at: 1, value: 1 } };
    const s = await loaded(new MemoryStorage(items));
    expect(s.box.state).toEqual(first.box.state);
    await s.written();
    expect(Object.keys(s.local.items).sort()).toEqual([...Object.keys(first.local.items), 'getlist.speculation.v2:other:x'].sort());
  });

  test('a failed write warns, and the next write carries what it did not', async () => {
    const s = await loaded();
    browse(s.box.state, 1);
    s.local.failSets = 1;
    s.local.failMessage = 'IO error';
    s.store.schedule();
    await s.written();
    expect(s.warnings).toEqual(['could not save the speculation state: Error: IO error']);
    expect(s.local.items).toEqual({});
    browse(s.box.state, 2);
    s.store.schedule();
    await s.written();
    expect((await loaded(new MemoryStorage(s.local.items))).box.state).toEqual(s.box.state);
  });

  test('storage that cannot be read: an empty state, and a warning', async () => {
    const local = new MemoryStorage();
    local.get = async () => {
      throw new Error('IO error');
    };
    const s = await loaded(local);
    expect(s.box.state).toEqual(createSpeculationState());
    expect(s.warnings).toEqual(['could not read the speculation state: Error: IO error']);
  });
});

describe('movedOrNew', () => {
  test('keeps the longest start of the new order that storage already gives', () => {
    expect(movedOrNew(['a', 'b', 'c'], ['a', 'b', 'c'])).toEqual([]);
    expect(movedOrNew(['a', 'b', 'c'], ['b', 'c', 'a'])).toEqual(['a']);
    expect(movedOrNew(['a', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['a', 'b']);
    expect(movedOrNew(['a', 'b', 'c'], ['a', 'c', 'd'])).toEqual(['d']);
    expect(movedOrNew([], ['a'])).toEqual(['a']);
  });
});
