import { PageActions } from '../../extension/background/page-actions';
import { createUiHandlers } from '../../extension/background/ui-handlers';
import type { HostStatus, Settings } from '../../src/page/messages/messages';
import { FakeHost, FakeTimers, loadPage, pageStore, settingsStore } from './background-fakes';

function setup(settings: Partial<Settings> = {}) {
  const store = pageStore();
  const host = new FakeHost();
  const timers = new FakeTimers();
  const settingsStoreFake = settingsStore(settings);
  const actions = new PageActions({ store, port: host, settings: settingsStoreFake, setTimeout: timers.setTimeout });
  const tabUrls = new Map<number, string>();
  const handlers = createUiHandlers({ store, port: host, settings: settingsStoreFake, actions, tabUrl: async (tabId) => tabUrls.get(tabId), setTimeout: timers.setTimeout });
  return { store, host, timers, tabUrls, handlers };
}

describe('UI handlers', () => {
  test('get-page: the tab’s record with the host status', async () => {
    const { store, tabUrls, handlers } = setup();
    await loadPage(store, 1, 'https://a.test/');
    tabUrls.set(1, 'https://a.test/');
    const reply = await handlers['get-page']({ channel: 'ui', type: 'get-page', tabId: 1 });
    expect(reply).toMatchObject({ type: 'get-page', restricted: false, hostStatus: { state: 'ok' }, page: { tabId: 1, url: 'https://a.test/' } });
  });

  test('apply-suggestion rebuilds the hint rules once a suggestion was applied, not when none was', async () => {
    const { store, host, tabUrls } = setup();
    await loadPage(store, 1, 'https://a.test/');
    tabUrls.set(1, 'https://a.test/');
    const calls: string[] = [];
    const applied = { key: 'https://a.test/', suggestion: { kind: 'preconnect' as const, href: 'https://b.test', predictedSavingMs: 10 }, appliedAt: 1, baselineEndMs: 100 };
    let next: typeof applied | undefined = applied;
    const handlers = createUiHandlers({
      store, port: host, settings: settingsStore(), actions: new PageActions({ store, port: host, settings: settingsStore() }), tabUrl: async (t) => tabUrls.get(t),
      hints: { forget: async () => 0, view: async () => { throw new Error('unused'); }, syncRules: async () => void calls.push('sync') },
      suggestions: { apply: async () => { calls.push('apply'); return next; }, forUrl: async () => [], forget: async () => undefined },
    });
    await expect(handlers['apply-suggestion']({ channel: 'ui', type: 'apply-suggestion', tabId: 1, href: 'https://b.test' })).resolves.toEqual({ type: 'apply-suggestion', applied });
    expect(calls).toEqual(['apply', 'sync']);
    next = undefined;
    await expect(handlers['apply-suggestion']({ channel: 'ui', type: 'apply-suggestion', tabId: 1, href: 'https://b.test' })).resolves.toEqual({ type: 'apply-suggestion', applied: null });
    expect(calls).toEqual(['apply', 'sync', 'apply']);
  });

  test('get-page for a restricted URL answers `restricted` and no page, even if an old record is kept', async () => {
    const { store, tabUrls, handlers } = setup();
    await loadPage(store, 1, 'https://a.test/');
    tabUrls.set(1, 'about:addons');
    await expect(handlers['get-page']({ channel: 'ui', type: 'get-page', tabId: 1 })).resolves.toMatchObject({ restricted: true, page: null });
    // A tab that does not exist is not restricted: it simply has no page.
    await expect(handlers['get-page']({ channel: 'ui', type: 'get-page', tabId: 2 })).resolves.toMatchObject({ restricted: false, page: null });
  });

  test('get-page answers with the status as it is when the host does not say hello in time', async () => {
    const { host, timers, handlers } = setup();
    host.status = { state: 'unknown' };
    host.checkStatus = () => new Promise<HostStatus>(() => undefined);
    const reply = handlers['get-page']({ channel: 'ui', type: 'get-page', tabId: 1 });
    expect(timers.due.map((t) => t.ms)).toEqual([2000]);
    timers.fire(2000);
    await expect(reply).resolves.toMatchObject({ hostStatus: { state: 'unknown' } });
  });

  test('run-replay twice: the first starts, the second answers started:false; one schedule is sent', async () => {
    const { store, host, handlers } = setup();
    await loadPage(store, 1, 'https://a.test/');
    await expect(handlers['run-replay']({ channel: 'ui', type: 'run-replay', tabId: 1 })).resolves.toEqual({ type: 'run-replay', started: true });
    await expect(handlers['run-replay']({ channel: 'ui', type: 'run-replay', tabId: 1 })).resolves.toEqual({ type: 'run-replay', started: false });
    expect(host.sent.map((r) => r.body.type)).toEqual(['schedule']);
  });

  test('run-replay of an excluded site is refused and sends no schedule', async () => {
    const { store, host, handlers } = setup({ excludedSites: ['a.test'] });
    await loadPage(store, 1, 'https://a.test/');
    await expect(handlers['run-replay']({ channel: 'ui', type: 'run-replay', tabId: 1 })).rejects.toMatchObject({ code: 'E_EXCLUDED' });
    expect(host.sent).toEqual([]);
  });

  test('stats, export and forget pass the query to the host and unwrap the reply', async () => {
    const { host, handlers } = setup();
    const stats = handlers.stats({ channel: 'ui', type: 'stats', origin: 'https://a.test', since: 5 });
    expect(host.last().body).toEqual({ type: 'stats', origin: 'https://a.test', since: 5, until: undefined });
    expect(host.last().options.timeoutMs).toBe(30_000);
    host.last().reply({ type: 'stats', count: 0, groups: [] });
    await expect(stats).resolves.toEqual({ type: 'stats', stats: { count: 0, groups: [] } });

    const exported = handlers.export({ channel: 'ui', type: 'export', format: 'csv' });
    host.last().reply({ type: 'export', format: 'csv', mimeType: 'text/csv', data: 'a,b\n' });
    await expect(exported).resolves.toEqual({ type: 'export', format: 'csv', mimeType: 'text/csv', data: 'a,b\n' });

    const forgotten = handlers.forget({ channel: 'ui', type: 'forget', all: true });
    expect(host.last().body).toEqual({ type: 'forget', all: true });
    host.last().reply({ type: 'forgotten', removed: 3 });
    await expect(forgotten).resolves.toEqual({ type: 'forget', removed: 3 });

    const one = handlers.forget({ channel: 'ui', type: 'forget', origin: 'https://a.test' });
    expect(host.last().body).toEqual({ type: 'forget', origin: 'https://a.test' });
    host.last().reply({ type: 'forgotten', removed: 1 });
    await expect(one).resolves.toEqual({ type: 'forget', removed: 1 });
  });

  test('settings: get answers the stored settings made whole; set validates and merges', async () => {
    const { handlers } = setup({ retentionDays: 7 });
    await expect(handlers['get-settings']({ channel: 'ui', type: 'get-settings' })).resolves.toMatchObject({ settings: { retentionDays: 7, autoReplay: false } });
    await expect(handlers['set-settings']({ channel: 'ui', type: 'set-settings', settings: { autoReplay: true } })).resolves.toMatchObject({ settings: { retentionDays: 7, autoReplay: true } });
    await expect(handlers['set-settings']({ channel: 'ui', type: 'set-settings', settings: { retentionDays: -1 } })).rejects.toMatchObject({ code: 'E_INVALID_SETTINGS' });
  });
});
