import { HintsService, type DnrLike } from '../../extension/background/hints-service';
import type { DnrRule } from '../../src/page/hints/dnr-rules';
import * as reducer from '../../src/page/model/page-reducer';
import type { PageStore } from '../../extension/background/page-store';
import { learnedItemKey, learnedStateFromItems } from '../../src/page/hints/learned-state-items';
import { FakeTimers, learnedWritten, MemoryStorage, pageStore, settingsStore } from './background-fakes';

const URL_A = 'https://site.test/news/2024/a';

/** The DNR session rules, in memory, as the browser keeps them; counts the reads and updates. */
class FakeDnr implements DnrLike {
  rules: DnrRule[] = [];
  reads = 0;
  updates = 0;
  failUpdates = 0;
  getSessionRules = async () => {
    this.reads++;
    return this.rules;
  };
  updateSessionRules = async (o: { removeRuleIds?: number[]; addRules?: DnrRule[] }) => {
    this.updates++;
    if (this.failUpdates > 0) {
      this.failUpdates--;
      throw new Error('rule limit exceeded');
    }
    this.rules = [...this.rules.filter((r) => !(o.removeRuleIds ?? []).includes(r.id)), ...(o.addRules ?? [])];
  };
}

/** A load of URL_A in tab 1 at `t`: a font named by CSS and a script-inserted image, both late. */
async function load(store: PageStore, t: number): Promise<string> {
  const page = await store.update((s) => {
    reducer.navigationStarted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t });
    reducer.requestStarted(s, { tabId: 1, frameId: 0, requestId: `d${t}`, url: URL_A, method: 'GET', type: 'main_frame', timeStamp: t + 1 });
    reducer.navigationCommitted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t + 20 });
    reducer.domContentLoaded(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t + 200 });
    reducer.requestStarted(s, { tabId: 1, frameId: 0, requestId: `f${t}`, url: 'https://fonts.test/a.woff2', method: 'GET', type: 'font', timeStamp: t + 300 });
    reducer.requestCompleted(s, { tabId: 1, requestId: `f${t}`, timeStamp: t + 400, statusCode: 200 });
    reducer.requestStarted(s, { tabId: 1, frameId: 0, requestId: `i${t}`, url: 'https://site.test/late.png', method: 'GET', type: 'image', timeStamp: t + 310 });
    // The font's Resource Timing initiator is `css`; the image was inserted by script: both late.
    reducer.discoveriesReported(s, 1, URL_A, [{ url: 'https://site.test/late.png', kind: 'image', priority: 'image', atMs: 310, inViewport: false, tag: 'img', late: true }]);
    const zero = { domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, transferSize: 0, encodedBodySize: 0, nextHopProtocol: 'h2', restricted: true };
    reducer.timingsReported(s, 1, URL_A, [{ ...zero, name: 'https://fonts.test/a.woff2', initiatorType: 'css', startTime: 300, responseEnd: 400 }]);
    return reducer.navigationCompleted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t + 500 });
  });
  return page?.pageId ?? '';
}

function service(o: { incognito?: boolean; settings?: Parameters<typeof settingsStore>[0]; mechanism?: 'link-header' | 'content-script' } = {}) {
  const local = new MemoryStorage();
  const dnr = new FakeDnr();
  const store = pageStore();
  const timers = new FakeTimers();
  const hints = new HintsService({ local, dnr, store, settings: settingsStore(o.settings), isIncognito: async () => o.incognito ?? false, warn: () => undefined, setTimeout: timers.setTimeout, ...(o.mechanism ? { mechanism: o.mechanism } : {}) });
  const written = () => learnedWritten(timers);
  return { local, dnr, store, hints, written };
}

/** The learned entries storage holds, as the service would read them back. */
const storedKeys = (local: MemoryStorage) => [...learnedStateFromItems(local.items).entries.keys()];

describe('HintsService', () => {
  test('two settled loads install a Link-header rule for the page; a third navigation is noted as hinted', async () => {
    const { dnr, store, hints, local, written } = service();
    await hints.learn(1, await load(store, 1000));
    await written();
    expect(dnr.rules).toEqual([]);
    await hints.learn(1, await load(store, 2000));
    // The rules, like the storage write, follow the visit's end later, gathered: none at that moment.
    expect(dnr.rules).toEqual([]);
    expect(local.sets).toBe(1);
    await written();
    const header = dnr.rules.find((r) => r.action.type === 'modifyHeaders' && r.condition.urlFilter === `|${URL_A}|`);
    expect(header?.action).toEqual({ type: 'modifyHeaders', responseHeaders: [{ header: 'link', operation: 'append', value: expect.stringContaining('<https://fonts.test/a.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous') }] });
    expect(local.sets).toBe(2);
    expect(JSON.stringify(local.items[learnedItemKey(URL_A)])).toContain('https://site.test/late.png');
    hints.navigationCommitted(1, URL_A);
    await new Promise((r) => setTimeout(r, 0));
    const view = await hints.view(1, URL_A);
    expect(view.applied?.preloads.map((p) => p.href)).toEqual(['https://fonts.test/a.woff2', 'https://site.test/late.png']);
    expect(view.learnedVisits).toEqual({ page: 2, template: 2 });
  });

  test('the rules are in place before storage holds the change: a visit seen stored is a visit the next request is hinted from', async () => {
    const { dnr, store, hints, local, written } = service();
    const rulesAtSet: number[] = [];
    const set = local.set;
    local.set = async (items) => {
      rulesAtSet.push(dnr.rules.filter((r) => r.condition.urlFilter === `|${URL_A}|`).length);
      await set(items);
    };
    await hints.learn(1, await load(store, 1000));
    await hints.learn(1, await load(store, 2000));
    await written();
    expect(rulesAtSet).toEqual([2]);
  });

  test('the rules are read from the browser once; a sync that would install the same rules updates nothing; a failed update reads them again', async () => {
    const { dnr, store, hints, written } = service();
    // A rule an earlier service worker of this browser session installed.
    dnr.rules = [{ id: 7, priority: 1, action: { type: 'allow' }, condition: { resourceTypes: ['main_frame'], urlFilter: '|https://gone.test/|' } }];
    await hints.learn(1, await load(store, 1000));
    await written();
    await hints.learn(1, await load(store, 2000));
    await written();
    expect(dnr.rules.some((r) => r.id === 7 && r.condition.urlFilter === '|https://gone.test/|')).toBe(false);
    const [reads, updates] = [dnr.reads, dnr.updates];
    expect(reads).toBe(1);
    // A third visit learns the same list: the same rules, no update.
    await hints.learn(1, await load(store, 3000));
    await written();
    await hints.syncRules();
    expect([dnr.reads, dnr.updates]).toEqual([reads, updates]);
    // The update that would remove them fails; the next sync reads what the browser holds again.
    dnr.failUpdates = 1;
    await hints.forget();
    expect(dnr.updates).toBe(updates + 1);
    expect(dnr.rules.filter((r) => r.condition.urlFilter === `|${URL_A}|`)).toHaveLength(2);
    await hints.syncRules();
    expect([dnr.reads, dnr.updates]).toEqual([reads + 1, updates + 2]);
    expect(dnr.rules).toEqual([]);
  });

  test('nothing is learned in a private window, on an excluded site or a site with hints off', async () => {
    for (const o of [{ incognito: true }, { settings: { excludedSites: ['site.test'] } }, { settings: { hintsDisabledSites: ['site.test'] } }, { settings: { hints: false } }]) {
      const { dnr, store, hints, local, written } = service(o);
      await hints.learn(1, await load(store, 1000));
      await hints.learn(1, await load(store, 2000));
      await written();
      expect({ o, rules: dnr.rules, stored: local.items }).toEqual({ o, rules: [], stored: {} });
    }
  });

  test('a suggestion applied to a page with one visit goes out in a Link-header rule of its own; lean capture keeps no rule', async () => {
    for (const mechanism of ['link-header', 'content-script'] as const) {
      const local = new MemoryStorage();
      const dnr = new FakeDnr();
      const store = pageStore();
      const font = { rel: 'preload' as const, href: 'https://site.test/f.woff2', as: 'font' as const, crossorigin: 'anonymous' as const, type: 'font/woff2' };
      let applied: ReadonlyMap<string, readonly typeof font[]> = new Map();
      const hints = new HintsService({ local, dnr, store, settings: settingsStore(), isIncognito: async () => false, warn: () => undefined, mechanism, appliedPages: async () => applied });
      await hints.learn(1, await load(store, 1000));
      expect(dnr.rules).toEqual([]);
      applied = new Map([[URL_A, [font]]]);
      await hints.syncRules();
      const header = dnr.rules.find((r) => r.action.type === 'modifyHeaders' && r.condition.urlFilter === `|${URL_A}|`);
      if (mechanism === 'content-script') expect(dnr.rules).toEqual([]);
      else expect(header?.action).toEqual({ type: 'modifyHeaders', responseHeaders: [{ header: 'link', operation: 'append', value: '<https://site.test/f.woff2>; rel=preload; as=font; type="font/woff2"; crossorigin=anonymous' }] });
    }
  });

  test('forgetting everything empties the stored state and removes every rule', async () => {
    const { dnr, store, hints, local, written } = service();
    await hints.learn(1, await load(store, 1000));
    await hints.learn(1, await load(store, 2000));
    await written();
    expect(storedKeys(local)).toHaveLength(2);
    expect(dnr.rules.length).toBeGreaterThan(0);
    expect(await hints.forget()).toBe(2);
    expect(dnr.rules).toEqual([]);
    // Written at once, not gathered: storage holds nothing of it when forget resolves.
    expect(local.items).toEqual({});
  });

  test('lean capture (content-script mechanism): no DNR rule; content-start gets the learned list for its document, from memory', async () => {
    const { dnr, store, hints } = service({ mechanism: 'content-script' });
    await hints.learn(1, await load(store, 1000));
    await hints.learn(1, await load(store, 2000));
    expect(dnr.rules).toEqual([]);
    const reply = await hints.forDocument(1, URL_A);
    expect(reply.list?.preloads.map((p) => p.href)).toEqual(['https://fonts.test/a.woff2', 'https://site.test/late.png']);
    expect(await hints.forDocument(1, 'https://site.test/never-visited')).toEqual({ type: 'hints', list: null });
    expect(await hints.forDocument(1, undefined)).toEqual({ type: 'hints', list: null });
  });

  test('lean capture: the list pushed at commit is the list the popup reports as applied, worked out once; a forget in between is honoured', async () => {
    const { store, hints } = service({ mechanism: 'content-script' });
    await hints.learn(1, await load(store, 1000));
    await hints.learn(1, await load(store, 2000));
    // The navigation hub calls the page record's subscriber (navigationCommitted) before the push's.
    hints.navigationCommitted(1, URL_A);
    const pushed = (await hints.forDocument(1, URL_A)).list;
    expect(pushed?.preloads.map((p) => p.href)).toEqual(['https://fonts.test/a.woff2', 'https://site.test/late.png']);
    expect((await hints.view(1, URL_A)).applied).toBe(pushed);
    // A document the commit was not for (another URL) gets its own list, not the commit's.
    hints.navigationCommitted(1, URL_A);
    expect(await hints.forDocument(1, 'https://site.test/never-visited')).toEqual({ type: 'hints', list: null });
    // Forgotten between the commit and the push: nothing is pushed.
    hints.navigationCommitted(1, URL_A);
    await hints.forget();
    expect(await hints.forDocument(1, URL_A)).toEqual({ type: 'hints', list: null });
  });

  test('with the DNR header mechanism, content-start gets the list only until a webRequest event shows headers reach pages', async () => {
    const { store, hints } = service();
    await hints.learn(1, await load(store, 1000));
    await hints.learn(1, await load(store, 2000));
    // Chromium granted and not restarted: the rules exist, no request reaches them.
    expect((await hints.forDocument(1, URL_A)).list?.preloads.length).toBe(2);
    hints.webRequestSeen();
    expect(await hints.forDocument(1, URL_A)).toEqual({ type: 'hints', list: null });
  });

  test('an excluded site or hints off: content-start gets nothing either', async () => {
    const { store, hints, local, written } = service({ mechanism: 'content-script' });
    await hints.learn(1, await load(store, 1000));
    await hints.learn(1, await load(store, 2000));
    await written();
    // The same learned state (storage.local), read by a background whose settings say no.
    const over = (settings: Parameters<typeof settingsStore>[0]) => new HintsService({ local, dnr: new FakeDnr(), store, settings: settingsStore(settings), isIncognito: async () => false, warn: () => undefined, setTimeout: new FakeTimers().setTimeout, mechanism: 'content-script' });
    expect((await over({}).forDocument(1, URL_A)).list).not.toBeNull();
    for (const settings of [{ hints: false }, { excludedSites: ['site.test'] }, { hintsDisabledSites: ['site.test'] }]) {
      expect({ settings, reply: await over(settings).forDocument(1, URL_A) }).toEqual({ settings, reply: { type: 'hints', list: null } });
    }
  });
});
