// The background's speculation service with storage in memory and hand-fired timers: what it learns
// from commits, what it hands a page, what it counts when the tab moves on, and what a private
// window leaves behind (nothing).
import { SpeculationService } from '../../extension/background/speculation-service';
import type { ServedReport } from '../../src/page/speculation/speculation-types';
import type { Settings } from '../../src/page/messages/messages';
import { FakeTimers, firedAndSettled, MemoryStorage, settingsStore } from './background-fakes';
import { SPECULATION_WRITE_DELAY_MS } from '../../extension/background/speculation-store';
import { speculationItemKey, speculationStateFromItems } from '../../src/page/speculation/speculation-state-items';

const START = 'https://shop.test/start.html';
const NEXT = 'https://shop.test/next.html';
const OTHER = 'https://shop.test/other.html';
const PLAIN: ServedReport = { deliveryType: '', prerendered: false, navigationType: 'navigate', responseStartMs: 40, encodedBodySize: 700 };
const PAGE = { saveData: false, ownRules: false };

function service(settings: Partial<Settings> = {}, capture: 'lean' | 'detailed' = 'lean', incognito = false) {
  const local = new MemoryStorage();
  const timers = new FakeTimers();
  const s = new SpeculationService({ local, settings: settingsStore(settings), isIncognito: async () => incognito, capture, setTimeout: timers.setTimeout });
  return { s, local, timers };
}

async function visit(s: SpeculationService, url: string, transition: string, served: ServedReport = PLAIN, kept?: boolean) {
  await s.committed(1, url, transition);
  const context = await s.pageReady(1, url, served, PAGE);
  if (kept !== undefined) await s.pageKept(1, url, kept);
  return context;
}

describe('SpeculationService', () => {
  test('learns follows, hands eager pages their habit, and settles hits and waste when the tab moves on', async () => {
    const { s, local, timers } = service({ eagerness: 'eager' });
    for (let i = 0; i < 3; i++) {
      await visit(s, START, 'typed');
      await visit(s, NEXT, 'link');
    }
    await visit(s, OTHER, 'typed');
    const context = await visit(s, START, 'typed');
    expect(context).toMatchObject({ action: 'prefetch', eagerness: 'eager', frequent: [NEXT] });
    s.speculated(1, START, NEXT);
    s.speculated(1, START, `${OTHER}#part`);
    await visit(s, NEXT, 'link', { ...PLAIN, deliveryType: 'navigational-prefetch', responseStartMs: 5 });
    const view = await s.view(1, NEXT);
    expect(view.served?.via).toBe('prefetch');
    expect(view.baseline).toEqual({ visits: 3, responseStartMs: 40 });
    expect(view.saved).toEqual({ responseStartMs: 35 });
    expect(view.site).toEqual({ speculated: 2, followed: 1, wastedBytes: 700, wastedUnsized: 0, hitRate: 0.5 });
    await firedAndSettled(timers, SPECULATION_WRITE_DELAY_MS);
    // Stored an item per entry; read back, the state the service holds.
    const stored = speculationStateFromItems(local.items).state;
    expect(stored.pages.get(START)).toEqual({ visits: 4, follows: { [NEXT]: 4 } });
    expect(stored.sites.get('shop.test')).toEqual({ speculated: 2, followed: 1, wastedBytes: 700, wastedUnsized: 0 });
    expect(local.items[speculationItemKey('baselines', NEXT)]).toMatchObject({ value: [{ responseStartMs: 40 }, { responseStartMs: 40 }, { responseStartMs: 40 }] });
  });

  test('a private window learns nothing, gets no context and no script', async () => {
    const { s, local, timers } = service({}, 'lean', true);
    expect(await visit(s, START, 'typed')).toBeNull();
    expect(await s.mayInject(1, START)).toBe(false);
    expect((await s.view(1, START)).refusal).toBe('private');
    await firedAndSettled(timers, SPECULATION_WRITE_DELAY_MS);
    expect(local.items).toEqual({});
  });

  test('Save-Data and a page with its own rules get no context; speculation off gets no script', async () => {
    const { s } = service();
    await s.committed(1, START, 'typed');
    expect(await s.pageReady(1, START, PLAIN, { saveData: true, ownRules: false })).toBeNull();
    expect((await s.view(1, START)).refusal).toBe('save-data');
    expect(await s.pageReady(1, START, PLAIN, { saveData: false, ownRules: true })).toBeNull();
    expect(await service({ speculation: false }).s.mayInject(1, START)).toBe(false);
    expect(await service({ speculationDisabledSites: ['shop.test'] }).s.mayInject(1, START)).toBe(false);
    expect(await service({ excludedSites: ['shop.test'] }).s.mayInject(1, START)).toBe(false);
  });

  test('a no-store document seen in Detailed capture is handed to the site’s pages as refused', async () => {
    const { s } = service();
    s.documentHeaders(OTHER, [{ name: 'Cache-Control', value: 'no-store' }]);
    const context = await visit(s, START, 'typed');
    expect(context?.site.noStore).toEqual([OTHER]);
  });

  test('lean capture: a document the cache did not keep is refused until a visit finds it kept', async () => {
    const { s } = service();
    expect(s.readsCache).toBe(true);
    await visit(s, START, 'typed', PLAIN, true);
    expect((await visit(s, START, 'link'))?.site.noStore).toEqual([]);
    await visit(s, OTHER, 'link', PLAIN, false);
    expect((await visit(s, START, 'link'))?.site.noStore).toEqual([OTHER]);
    await visit(s, OTHER, 'link', PLAIN, true);
    expect((await visit(s, START, 'link'))?.site.noStore).toEqual([]);
  });

  test('with the cache off (nothing kept), every visited page is refused and the rest may still be fetched ahead', async () => {
    const { s } = service();
    await visit(s, START, 'typed', PLAIN, false);
    await visit(s, OTHER, 'link', PLAIN, false);
    const context = await visit(s, START, 'link');
    expect([...(context?.site.noStore ?? [])].sort()).toEqual([OTHER, START].sort());
  });

  test('Detailed capture reads no cache: its pages are not asked, and a report of one changes nothing', async () => {
    const { s } = service({}, 'detailed');
    expect(s.readsCache).toBe(false);
    await visit(s, START, 'typed', PLAIN, true);
    await visit(s, OTHER, 'link', PLAIN, false);
    expect((await visit(s, START, 'link'))?.site.noStore).toEqual([]);
  });
});
