import { injectMainContentAfterLoad, type InjectionTarget, type LoadCompleted } from '../../extension/background/content-injection';
import { HINT_SCRIPT_FILE, HINT_SCRIPT_ID, syncHintScript, type ScriptingLike } from '../../extension/background/hint-script';
import { HintsService, type DnrLike } from '../../extension/background/hints-service';
import type { PageStore } from '../../extension/background/page-store';
import * as reducer from '../../src/page/model/page-reducer';
import { MemoryStorage, pageStore, settingsStore } from './background-fakes';

type Registered = Parameters<ScriptingLike['registerContentScripts']>[0][number];

/**
 * `scripting`'s dynamic content scripts as Chromium 156 checks them: registering an id twice,
 * updating or unregistering an unknown id, and an empty `matches` are errors. `calls` counts writes.
 */
class FakeScripting implements ScriptingLike {
  scripts = new Map<string, Registered>();
  calls: string[] = [];
  getRegisteredContentScripts = async (filter?: { ids?: string[] }) => [...this.scripts.values()].filter((s) => !filter?.ids || filter.ids.includes(s.id)).map((s) => ({ ...s }));
  registerContentScripts = async (scripts: Registered[]) => {
    this.calls.push('register');
    for (const s of scripts) {
      if (this.scripts.has(s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
      if (!s.matches || s.matches.length === 0) throw new Error('Script with ID must specify at least one match.');
      this.scripts.set(s.id, { ...s });
    }
  };
  updateContentScripts = async (scripts: Array<Pick<Registered, 'id' | 'matches'>>) => {
    this.calls.push('update');
    for (const s of scripts) {
      const old = this.scripts.get(s.id);
      if (!old) throw new Error(`Script with ID '${s.id}' does not exist or is not fully registered`);
      this.scripts.set(s.id, { ...old, ...s });
    }
  };
  unregisterContentScripts = async (filter?: { ids?: string[] }) => {
    this.calls.push('unregister');
    for (const id of filter?.ids ?? [...this.scripts.keys()]) {
      if (!this.scripts.delete(id)) throw new Error(`Nonexistent script ID '${id}'`);
    }
  };
}

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

describe('hint script registration', () => {
  test('registers once, updates only on a change, unregisters when no host has hints', async () => {
    const s = new FakeScripting();
    await syncHintScript(s, []);
    expect(s.calls).toEqual([]);
    await syncHintScript(s, ['*://a.test/*']);
    expect([...s.scripts.values()]).toEqual([{ id: HINT_SCRIPT_ID, js: [HINT_SCRIPT_FILE], matches: ['*://a.test/*'], runAt: 'document_start', allFrames: false, persistAcrossSessions: true }]);
    await syncHintScript(s, ['*://a.test/*']);
    await syncHintScript(s, ['*://a.test/*', '*://b.test/*']);
    expect(s.scripts.get(HINT_SCRIPT_ID)?.matches).toEqual(['*://a.test/*', '*://b.test/*']);
    await syncHintScript(s, []);
    expect(s.scripts.size).toBe(0);
    expect(s.calls).toEqual(['register', 'update', 'unregister']);
  });

  test('HintsService: a host gets the script once it has a list, loses it when forgotten or when hints are off', async () => {
    const scripting = new FakeScripting();
    const local = new MemoryStorage();
    const store = pageStore();
    const make = (settings: Parameters<typeof settingsStore>[0] = {}) =>
      new HintsService({ local, dnr: NO_RULES, store, settings: settingsStore(settings), isIncognito: async () => false, warn: () => undefined, mechanism: 'content-script', scripting });
    const hints = make();
    await hints.ready;
    await hints.syncRules();
    expect(scripting.scripts.size).toBe(0);
    await hints.learn(1, await load(store, 1000));
    // One visit: no list yet, so no script anywhere.
    expect(scripting.scripts.size).toBe(0);
    await hints.learn(1, await load(store, 2000));
    expect(scripting.scripts.get(HINT_SCRIPT_ID)?.matches).toEqual(['*://site.test/*']);
    // What the script will ask for on that host: the list for its own URL.
    expect((await hints.forDocument(1, URL_A)).list?.preloads.map((p) => p.href)).toEqual(['https://site.test/late.png']);
    // A background whose settings turn hints off (the user switched them off; options call syncRules) removes it.
    const off = make({ hints: false });
    await off.ready;
    await off.syncRules();
    expect(scripting.scripts.size).toBe(0);
    await hints.syncRules();
    expect(scripting.scripts.size).toBe(1);
    await hints.forget('https://site.test');
    expect(scripting.scripts.size).toBe(0);
  });

  test('a scripting failure is warned about and does not stop the DNR rules', async () => {
    const warned: string[] = [];
    let updated = 0;
    const dnr: DnrLike = { getSessionRules: async () => [], updateSessionRules: async () => void updated++ };
    const failing: ScriptingLike = { ...new FakeScripting(), getRegisteredContentScripts: () => Promise.reject(new Error('no scripting')) };
    const hints = new HintsService({ local: new MemoryStorage(), dnr, store: pageStore(), settings: settingsStore(), isIncognito: async () => false, warn: (m) => warned.push(m), scripting: failing });
    await hints.ready;
    // The start-up sync (the constructor's) and this one: each warns, each still updates the rules.
    await hints.syncRules();
    expect(warned).toEqual(['could not register the hint script: Error: no scripting', 'could not register the hint script: Error: no scripting']);
    expect(updated).toBe(2);
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
