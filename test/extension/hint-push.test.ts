import { injectMainContentAfterLoad, type InjectionTarget, type LoadCompleted } from '../../extension/background/content-injection';
import { pushHintsOnCommit, type HintPushDeps } from '../../extension/background/hint-push';
import { HintsService, type DnrLike } from '../../extension/background/hints-service';
import type { PageStore } from '../../extension/background/page-store';
import * as reducer from '../../src/page/model/page-reducer';
import { MemoryStorage, pageStore, settingsStore } from './background-fakes';

const NO_RULES: DnrLike = { getSessionRules: async () => [], updateSessionRules: async () => undefined };
const URL_A = 'https://site.test/news/2024/a';

/** A load of `url` in tab 1 at `t` with one script-inserted image (late): what a list is made of. */
async function load(store: PageStore, t: number, url = URL_A): Promise<string> {
  const host = new URL(url).origin;
  const page = await store.update((s) => {
    reducer.navigationStarted(s, { tabId: 1, frameId: 0, url, timeStamp: t });
    reducer.requestStarted(s, { tabId: 1, frameId: 0, requestId: `d${t}`, url, method: 'GET', type: 'main_frame', timeStamp: t + 1 });
    reducer.navigationCommitted(s, { tabId: 1, frameId: 0, url, timeStamp: t + 20 });
    reducer.domContentLoaded(s, { tabId: 1, frameId: 0, url, timeStamp: t + 200 });
    reducer.requestStarted(s, { tabId: 1, frameId: 0, requestId: `i${t}`, url: `${host}/late.png`, method: 'GET', type: 'image', timeStamp: t + 310 });
    reducer.requestCompleted(s, { tabId: 1, requestId: `i${t}`, timeStamp: t + 400, statusCode: 200 });
    reducer.discoveriesReported(s, 1, url, [{ url: `${host}/late.png`, kind: 'image', priority: 'image', atMs: 310, inViewport: false, tag: 'img', late: true }]);
    return reducer.navigationCompleted(s, { tabId: 1, frameId: 0, url, timeStamp: t + 500 });
  });
  return page?.pageId ?? '';
}

/** The pushes a HintsService's learned state gives, per committed document. */
async function pushes(hints: HintsService, commits: LoadCompleted[], world?: 'MAIN'): Promise<Array<Parameters<HintPushDeps['executeScript']>[0]>> {
  let listener: ((e: LoadCompleted) => void) | undefined;
  const injected: Array<Parameters<HintPushDeps['executeScript']>[0]> = [];
  const warned: string[] = [];
  pushHintsOnCommit({ onCommitted: (l) => (listener = l), hintsFor: (tabId, url) => hints.forDocument(tabId, url), executeScript: async (i) => void injected.push(i), warn: (m) => warned.push(m), ...(world ? { world } : {}) });
  for (const c of commits) listener?.(c);
  await new Promise((r) => setTimeout(r, 10));
  expect(warned).toEqual([]);
  return injected;
}

describe('hints pushed at commit', () => {
  const make = (settings: Parameters<typeof settingsStore>[0] = {}, local = new MemoryStorage(), store = pageStore()) =>
    new HintsService({ local, dnr: NO_RULES, store, settings: settingsStore(settings), isIncognito: async () => false, warn: () => undefined, mechanism: 'content-script' });

  test('only a top-frame http(s) document with a learned list gets a push: its list, its URL, addressed by document', async () => {
    const local = new MemoryStorage();
    const store = pageStore();
    const hints = make({}, local, store);
    await hints.learn(1, await load(store, 1000));
    // One visit: no list yet, nothing pushed.
    expect(await pushes(hints, [{ tabId: 1, frameId: 0, url: URL_A, documentId: 'D0' }])).toEqual([]);
    await hints.learn(1, await load(store, 2000));
    const list = (await hints.forDocument(1, URL_A)).list;
    expect(list?.preloads.map((p) => p.href)).toEqual(['https://site.test/late.png']);
    const sent = await pushes(hints, [
      { tabId: 1, frameId: 0, url: URL_A, documentId: 'D1' },
      { tabId: 2, frameId: 0, url: URL_A },
      { tabId: 1, frameId: 3, url: URL_A },
      { tabId: 1, frameId: 0, url: 'https://site.test/never-visited' },
      { tabId: 1, frameId: 0, url: 'https://other.test/' },
    ]);
    expect(sent.map((i) => ({ target: i.target, args: i.args, injectImmediately: i.injectImmediately, func: i.func.name }))).toEqual([
      { target: { tabId: 1, documentIds: ['D1'] }, args: [list, URL_A], injectImmediately: true, func: 'insertHintLinks' },
      { target: { tabId: 2, frameIds: [0] }, args: [list, URL_A], injectImmediately: true, func: 'insertHintLinks' },
    ]);
    // Firefox: the extension's own world (no `world` asked). Chromium: the page's main world, or the
    // page's Resource Timing would have no entry for what the links fetch (test/e2e/hints-paint.test.ts).
    expect(sent.every((i) => i.world === undefined)).toBe(true);
    const fromMain = await pushes(hints, [{ tabId: 1, frameId: 0, url: URL_A, documentId: 'D2' }], 'MAIN');
    expect(fromMain.map((i) => ({ world: i.world, args: i.args }))).toEqual([{ world: 'MAIN', args: [list, URL_A] }]);
    // The same learned state, read by a background whose settings say no: nothing pushed.
    for (const settings of [{ hints: false }, { hintsDisabledSites: ['site.test'] }, { excludedSites: ['site.test'] }]) {
      expect({ settings, sent: await pushes(make(settings, local, store), [{ tabId: 1, frameId: 0, url: URL_A }]) }).toEqual({ settings, sent: [] });
    }
  });

  test('a failed injection (tab gone) is reported to warn, not thrown', async () => {
    let listener: ((e: LoadCompleted) => void) | undefined;
    const warned: string[] = [];
    const list = { url: 'https://a.test/', keys: ['https://a.test/'], preconnects: [], preloads: [{ rel: 'preload' as const, href: 'https://a.test/x.png', as: 'image' as const }] };
    pushHintsOnCommit({ onCommitted: (l) => (listener = l), hintsFor: async () => ({ type: 'hints', list }), executeScript: () => Promise.reject(new Error('No tab with id: 9')), warn: (m) => warned.push(m) });
    listener?.({ tabId: 9, frameId: 0, url: 'https://a.test/' });
    await new Promise((r) => setTimeout(r, 10));
    expect(warned).toEqual(['hints not pushed: Error: No tab with id: 9']);
  });
});

describe('content.js injection after load', () => {
  test('top-frame http(s) loads only, addressed by document where the browser gives one', async () => {
    let listener: ((e: LoadCompleted) => void) | undefined;
    const injected: Array<{ target: InjectionTarget; files: string[] }> = [];
    injectMainContentAfterLoad({
      onCompleted: (l) => (listener = l),
      executeScript: async (i) => {
        injected.push(i);
        if (i.target.tabId === 9) throw new Error('No tab with id: 9');
      },
    });
    listener?.({ tabId: 1, frameId: 0, url: 'https://a.test/', documentId: 'D1' });
    listener?.({ tabId: 2, frameId: 0, url: 'http://b.test/p' });
    listener?.({ tabId: 3, frameId: 5, url: 'https://a.test/frame' });
    listener?.({ tabId: 4, frameId: 0, url: 'about:blank' });
    // A tab gone meanwhile: the rejection is swallowed (no unhandled rejection fails the run).
    listener?.({ tabId: 9, frameId: 0, url: 'https://a.test/' });
    await new Promise((r) => setTimeout(r, 0));
    expect(injected).toEqual([
      { target: { tabId: 1, documentIds: ['D1'] }, files: ['content.js'] },
      { target: { tabId: 2, frameIds: [0] }, files: ['content.js'] },
      { target: { tabId: 9, frameIds: [0] }, files: ['content.js'] },
    ]);
  });
});
