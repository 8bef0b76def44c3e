import { createMessageRouter } from '../../extension/background/message-router';
import { PageStore } from '../../extension/background/page-store';
import type { UiHandlers } from '../../extension/background/ui-handlers';
import { navigationStarted } from '../../src/page/model/page-reducer';

const BASE = 'chrome-extension://abc/';

function setup() {
  const saved: Record<string, unknown> = {};
  const store = new PageStore({ get: async () => ({}), set: async (items) => void Object.assign(saved, items) }, { setTimeout: (fn) => fn() });
  const handlers = { 'get-settings': async () => ({ type: 'get-settings', settings: { autoReplay: false, replayStrategies: [], excludedSites: [], retentionDays: 9 } }) } as unknown as UiHandlers;
  const route = createMessageRouter({ extensionId: 'abc', extensionBaseUrl: BASE, store, handlers, warn: () => undefined });
  return { route, store, saved };
}

const discovery = { url: 'https://a.test/x.css', kind: 'stylesheet', priority: 'blocking', atMs: 3, inViewport: false, tag: 'link', late: false };

describe('message router trust levels', () => {
  test('UI requests are served only to extension pages (an options page in a tab included)', async () => {
    const { route } = setup();
    const ask = { channel: 'ui', type: 'get-settings' };
    await expect(route(ask, { id: 'abc', url: `${BASE}popup.html` })).resolves.toMatchObject({ type: 'get-settings' });
    await expect(route(ask, { id: 'abc', url: `${BASE}options.html`, tab: { id: 3 } })).resolves.toMatchObject({ type: 'get-settings' });
    await expect(route(ask, { id: 'abc', url: 'https://evil.test/', tab: { id: 3 }, frameId: 0 })).resolves.toMatchObject({ type: 'error', code: 'E_FORBIDDEN' });
    await expect(route(ask, { id: 'other', url: `${BASE}popup.html` })).resolves.toMatchObject({ code: 'E_FORBIDDEN' });
    await expect(route({ channel: 'ui', type: 'get-page', tabId: 'x' }, { id: 'abc', url: `${BASE}popup.html` })).resolves.toMatchObject({ code: 'E_INVALID_FIELD' });
    await expect(route({ hello: 1 }, { id: 'abc', url: `${BASE}popup.html` })).resolves.toMatchObject({ code: 'E_UNKNOWN_CHANNEL' });
  });

  test('content reports land in the sender tab’s record, only from its top-frame content script, and are validated', async () => {
    const { route, store, saved } = setup();
    await store.update((s) => navigationStarted(s, { tabId: 3, frameId: 0, url: 'https://a.test/', timeStamp: 1 }));
    const sender = { id: 'abc', url: 'https://a.test/', tab: { id: 3 }, frameId: 0 };
    await route({ channel: 'content', type: 'discoveries', items: [discovery] }, sender);
    await route({ channel: 'content', type: 'discoveries', items: [discovery] }, { ...sender, frameId: 2 });
    await route({ channel: 'content', type: 'discoveries', items: [discovery] }, { ...sender, url: `${BASE}popup.html` });
    await expect(route({ channel: 'content', type: 'discoveries', items: [{ ...discovery, priority: 'urgent' }] }, sender)).resolves.toMatchObject({ code: 'E_INVALID_MESSAGE', message: expect.stringContaining('items[0].priority') });
    expect((await store.get(3))?.discoveries).toHaveLength(1);
    expect(JSON.stringify(saved)).toContain('x.css');
  });

  test('a hints request (content scripts before hints were pushed at commit) gets a coded error, and nothing changes', async () => {
    const { route, store } = setup();
    const sender = { id: 'abc', url: 'https://a.test/', tab: { id: 3 }, frameId: 0 };
    const before = JSON.stringify([...(await store.ready).pages]);
    await expect(route({ channel: 'content', type: 'hints' }, sender)).resolves.toMatchObject({ type: 'error', code: 'E_INVALID_MESSAGE', message: expect.stringContaining('"discoveries" or "timings"') });
    await expect(route({ channel: 'content', type: 'hints' }, { ...sender, frameId: 2 })).resolves.toMatchObject({ code: 'E_FORBIDDEN' });
    expect(JSON.stringify([...(await store.ready).pages])).toBe(before);
  });
});
