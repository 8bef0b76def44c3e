import { PageStore } from '../../extension/background/page-store';
import type { PageRecord } from '../../src/page/model/page-record';
import { navigationStarted, tabRemoved } from '../../src/page/model/page-reducer';
import { FakeTimers, loadPage, MemoryStorage } from './background-fakes';

const KEY = 'getlist.pages.v1';

function record(tabId: number, over: Partial<PageRecord> = {}): PageRecord {
  return { pageId: `${tabId}:1`, tabId, url: `https://t${tabId}.test/`, startedAt: tabId, requests: [], discoveries: [], timings: [], ...over };
}

function setup(initial: Record<string, unknown> = {}) {
  const storage = new MemoryStorage(initial);
  const timers = new FakeTimers();
  const warnings: string[] = [];
  const store = new PageStore(storage, { debounceMs: 250, setTimeout: timers.setTimeout, warn: (m) => warnings.push(m) });
  const stored = () => storage.items[KEY] as PageRecord[] | undefined;
  return { storage, timers, warnings, store, stored };
}

describe('PageStore', () => {
  test('changes are written once per debounce window, as the snapshot in recency order', async () => {
    const { store, storage, timers, stored } = setup();
    await loadPage(store, 1, 'https://a.test/');
    await loadPage(store, 2, 'https://b.test/');
    expect(storage.sets).toBe(0);
    expect(timers.due.map((t) => t.ms)).toEqual([250]);
    timers.fire(250);
    await new Promise((r) => setImmediate(r));
    expect(storage.sets).toBe(1);
    expect(stored()?.map((p) => p.tabId)).toEqual([1, 2]);
    expect(stored()?.[0]?.requests).toHaveLength(2);
  });

  test('an update that changes nothing schedules no write', async () => {
    const { store, timers } = setup();
    await expect(store.update((s) => tabRemoved(s, 99))).resolves.toBeUndefined();
    expect(timers.due).toEqual([]);
  });

  test('a new store restores what the last one wrote', async () => {
    const first = setup();
    await loadPage(first.store, 4, 'https://a.test/');
    first.timers.fire();
    await new Promise((r) => setImmediate(r));
    const second = new PageStore(new MemoryStorage(first.storage.items), { warn: () => undefined });
    expect(await second.get(4)).toEqual(await first.store.get(4));
    const page = await second.get(4);
    expect(await second.current(4, page?.pageId ?? '')).toBe(page);
    expect(await second.current(4, 'another-page')).toBeUndefined();
  });

  test('a replay running when the state was saved comes back as E_INTERRUPTED; finished ones are kept', async () => {
    const running = record(1, { replay: { status: 'running', startedAt: 5, strategies: ['browser', 'getlist'], results: [] } });
    const done = record(2, { replay: { status: 'done', startedAt: 5, strategies: ['browser'], results: [] } });
    const { store } = setup({ [KEY]: [running, done] });
    expect((await store.get(1))?.replay).toMatchObject({ status: 'error', strategies: ['browser', 'getlist'], error: { code: 'E_INTERRUPTED', message: expect.stringContaining('run it again') } });
    expect((await store.get(2))?.replay?.status).toBe('done');
  });

  test('updates wait for the restore, in the order they were made', async () => {
    let release: (items: Record<string, unknown>) => void = () => undefined;
    const storage = { get: () => new Promise<Record<string, unknown>>((r) => (release = r)), set: async () => undefined };
    const store = new PageStore(storage, { setTimeout: () => undefined });
    const seen: string[] = [];
    const a = store.update((s) => void seen.push(`a:${s.pages.size}`));
    const b = store.update((s) => navigationStarted(s, { tabId: 3, frameId: 0, url: 'https://c.test/', timeStamp: 9 }));
    const c = store.update((s) => void seen.push(`c:${s.pages.size}`));
    release({ [KEY]: [record(1)] });
    await Promise.all([a, b, c]);
    expect(seen).toEqual(['a:1', 'c:2']);
  });

  test('the tab cap holds: 50 tabs at most, the least recently started dropped, on restore and on update', async () => {
    const { store, timers, stored } = setup({ [KEY]: Array.from({ length: 60 }, (_, i) => record(i + 1)) });
    const restored = [...(await store.ready).pages.keys()];
    expect(restored).toHaveLength(50);
    expect(restored[0]).toBe(11);
    await loadPage(store, 100, 'https://new.test/');
    timers.fire();
    await new Promise((r) => setImmediate(r));
    const tabs = stored()?.map((p) => p.tabId) ?? [];
    expect(tabs).toHaveLength(50);
    expect(tabs[0]).toBe(12);
    expect(tabs[49]).toBe(100);
  });

  test('unreadable or malformed storage starts empty, with a warning when reading failed', async () => {
    const warnings: string[] = [];
    const failing = new PageStore({ get: () => Promise.reject(new Error('storage gone')), set: async () => undefined }, { warn: (m) => warnings.push(m) });
    expect((await failing.ready).pages.size).toBe(0);
    expect(warnings.join()).toContain('storage gone');
    const { store } = setup({ [KEY]: { not: 'an array' } });
    expect((await store.ready).pages.size).toBe(0);
  });

  test('over the quota, the most recent half of the tabs is saved', async () => {
    const { store, storage, timers, warnings, stored } = setup();
    for (let tab = 1; tab <= 4; tab++) await loadPage(store, tab, 'https://a.test/', tab * 1000);
    storage.failSets = 1;
    timers.fire();
    await new Promise((r) => setImmediate(r));
    expect(storage.sets).toBe(2);
    expect(stored()?.map((p) => p.tabId)).toEqual([3, 4]);
    expect(warnings.join()).toContain('could not save 4 pages');
  });
});
