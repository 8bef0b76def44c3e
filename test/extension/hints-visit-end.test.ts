// A visit is learned from once, at the first of its ends: the tab closed, a new document committed in
// the tab, or LEARN_DELAY_MS after `load` — and a restarted service worker neither learns it twice nor
// forgets the ones still pending.
import { CLOSE_GRACE_MS, HintsService } from '../../extension/background/hints-service';
import { LEARN_DELAY_MS, NAVIGATED_LEARN_DELAY_MS } from '../../src/page/hints/visit-end';
import * as reducer from '../../src/page/model/page-reducer';
import type { PageStore } from '../../extension/background/page-store';
import { learnedItemKey } from '../../src/page/hints/learned-state-items';
import { FakeTimers, firedAndSettled, learnedWritten, MemoryStorage, pageStore, settingsStore } from './background-fakes';

const URL_A = 'https://site.test/news/a';
const NO_RULES = { getSessionRules: async () => [], updateSessionRules: async () => undefined };

/** Tab 1 commits URL_A at `t`; `loaded`: it reaches `load` with a script-inserted image reported. */
async function visit(store: PageStore, t: number, loaded = true): Promise<string> {
  const page = await store.update((s) => {
    const p = reducer.documentCommitted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t });
    if (!loaded) return p;
    const zero = { domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, transferSize: 0, encodedBodySize: 0, nextHopProtocol: 'h2', restricted: true };
    reducer.timingsReported(s, 1, URL_A, [{ ...zero, name: 'https://site.test/late.png', initiatorType: 'img', startTime: 300, responseEnd: 400 }], { responseStart: 50, domContentLoadedEventEnd: 200, domContentLoadedEventStart: 190, loadEventEnd: 450, timeOrigin: t - 10, nextHopProtocol: 'h2' });
    reducer.discoveriesReported(s, 1, URL_A, [{ url: 'https://site.test/late.png', kind: 'image', priority: 'image', atMs: 290, inViewport: false, tag: 'img', late: true }]);
    return reducer.navigationCompleted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t + 500 });
  });
  return page?.pageId ?? '';
}

function service(o: { store?: PageStore; local?: MemoryStorage; session?: MemoryStorage; incognito?: boolean | undefined; now?: number } = {}) {
  const local = o.local ?? new MemoryStorage();
  const session = o.session ?? new MemoryStorage();
  const store = o.store ?? pageStore();
  const timers = new FakeTimers();
  const incognito = 'incognito' in o ? o.incognito : false;
  const learned: string[] = [];
  const hints = new HintsService({
    local, session, store, dnr: NO_RULES, settings: settingsStore(), mechanism: 'content-script', warn: () => undefined,
    isIncognito: async () => incognito, setTimeout: timers.setTimeout, now: () => o.now ?? 0,
    onLearned: (page, why) => learned.push(`${page.pageId} ${why}`),
  });
  return { local, session, store, timers, hints, learned };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
/** URL_A's learned visits as storage holds them once the gathered write was made. */
async function visits(s: Pick<ReturnType<typeof service>, 'local' | 'timers'>): Promise<number> {
  await learnedWritten(s.timers);
  return (s.local.items[learnedItemKey(URL_A)] as { visits?: unknown[] } | undefined)?.visits?.length ?? 0;
}

/** A visit ended by a commit is learned NAVIGATED_LEARN_DELAY_MS later: the commit's read of its record finishes, then that timer fires. */
async function endedVisitLearned(timers: FakeTimers): Promise<void> {
  await settle();
  await firedAndSettled(timers, NAVIGATED_LEARN_DELAY_MS);
}

/** A loaded page's `load`: what page-events.ts hands the service. */
async function loaded(s: ReturnType<typeof service>, t: number, isLoaded = true): Promise<string> {
  const pageId = await visit(s.store, t, isLoaded);
  const page = await s.store.get(1);
  if (isLoaded && page) s.hints.pageLoaded(page);
  await settle();
  return pageId;
}

describe('learning a visit at its first end', () => {
  test('a tab closed a second after load: learned after the close grace, then the settled timer finds it learned', async () => {
    const s = service();
    const pageId = await loaded(s, 1000);
    const closing = s.hints.tabClosed(1);
    await settle();
    s.timers.fire(CLOSE_GRACE_MS);
    await closing;
    expect(s.learned).toEqual([`${pageId} closed`]);
    expect(await visits(s)).toBe(1);
    s.timers.fire(LEARN_DELAY_MS);
    await settle();
    expect(s.learned).toEqual([`${pageId} closed`]);
  });

  test('a new document committed in the tab ends the previous visit: learned once, with what it had reported', async () => {
    const s = service();
    const first = await loaded(s, 1000);
    s.hints.navigationCommitted(1, URL_A);
    const second = await loaded(s, 3000);
    await endedVisitLearned(s.timers);
    s.hints.navigationCommitted(1, 'https://site.test/other');
    await visit(s.store, 5000, false);
    await endedVisitLearned(s.timers);
    s.timers.fire(LEARN_DELAY_MS);
    await settle();
    expect(s.learned).toEqual([`${first} navigated`, `${second} navigated`]);
    expect(await visits(s)).toBe(2);
  });

  test("a visit ended by a commit is learned NAVIGATED_LEARN_DELAY_MS later, off the new page's paint, from the record taken at the commit", async () => {
    const s = service();
    const first = await loaded(s, 1000);
    s.hints.navigationCommitted(1, URL_A);
    await loaded(s, 3000);
    // The new page's own settle timer and the tab's close in the meantime neither learn the ended
    // visit early nor lose it.
    const closing = s.hints.tabClosed(1);
    await settle();
    s.timers.fire(CLOSE_GRACE_MS);
    await closing;
    expect(s.learned.filter((l) => l.startsWith(first))).toEqual([]);
    expect((s.session.items['getlist.hints.tabs.v1'] as { claimed?: string[] } | undefined)?.claimed ?? []).not.toContain(first);
    await endedVisitLearned(s.timers);
    expect(s.learned.filter((l) => l.startsWith(first))).toEqual([`${first} navigated`]);
    s.timers.fire(LEARN_DELAY_MS);
    await settle();
    expect(s.learned.filter((l) => l.startsWith(first))).toEqual([`${first} navigated`]);
  });

  test("Detailed capture opens the next record at the navigation's start: the commit still ends the visit that loaded", async () => {
    const s = service();
    const first = await loaded(s, 1000);
    await s.store.update((st) => reducer.navigationStarted(st, { tabId: 1, frameId: 0, url: 'https://site.test/other', timeStamp: 2000 }));
    s.hints.navigationCommitted(1, 'https://site.test/other');
    await endedVisitLearned(s.timers);
    expect(s.learned).toEqual([`${first} navigated`]);
    expect(await visits(s)).toBe(1);
  });

  test('a staying user: learned LEARN_DELAY_MS after load, once; a later close adds nothing', async () => {
    const s = service();
    const pageId = await loaded(s, 1000);
    s.timers.fire(LEARN_DELAY_MS);
    await settle();
    const closing = s.hints.tabClosed(1);
    await settle();
    s.timers.fire(CLOSE_GRACE_MS);
    await closing;
    expect(s.learned).toEqual([`${pageId} settled`]);
  });

  test('a page closed or navigated from before its load teaches nothing', async () => {
    const s = service();
    await loaded(s, 1000, false);
    s.hints.navigationCommitted(1, URL_A);
    await endedVisitLearned(s.timers);
    await loaded(s, 2000, false);
    const closing = s.hints.tabClosed(1);
    await settle();
    s.timers.fire(CLOSE_GRACE_MS);
    await closing;
    expect(s.learned).toEqual([]);
    expect(await visits(s)).toBe(0);
    expect(s.local.items).toEqual({});
  });

  test('a closed tab whose privacy was never known is not learned from', async () => {
    const s = service({ incognito: undefined });
    await loaded(s, 1000);
    const closing = s.hints.tabClosed(1);
    await settle();
    s.timers.fire(CLOSE_GRACE_MS);
    await closing;
    expect(s.learned).toEqual([]);
    const priv = service({ incognito: true });
    await loaded(priv, 1000);
    priv.hints.navigationCommitted(1, URL_A);
    await endedVisitLearned(priv.timers);
    expect(priv.learned).toEqual([]);
  });

  test('a restarted service worker learns a visit it had learned never again, and sets the lost timer of one it had not', async () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    const storage = new MemoryStorage();
    const before = service({ session, local, store: pageStore(storage) });
    const first = await loaded(before, 1000);
    before.hints.navigationCommitted(1, URL_A);
    await settle();
    const second = await loaded(before, 3000);
    await endedVisitLearned(before.timers);
    expect(before.learned).toEqual([`${first} navigated`]);
    // The worker is suspended after 30 s without events, long after its gathered write was made:
    // memory and timers gone; storage.session and storage.local kept.
    await learnedWritten(before.timers);
    const after = service({ session, local, store: pageStore(storage), now: 3500 + 1000 });
    await after.hints.ready;
    await settle();
    expect(after.timers.due.map((t) => t.ms)).toEqual([LEARN_DELAY_MS - 1000]);
    after.timers.fire();
    await settle();
    await after.hints.learn(1, first);
    expect(after.learned).toEqual([`${second} settled`]);
    expect(await visits(after)).toBe(2);
  });
});
