import { HostRequestError } from '../../extension/background/native-port';
import { PageActions, SETTLE_MS } from '../../extension/background/page-actions';
import type { Settings } from '../../src/page/messages/messages';
import { FakeHost, FakeTimers, loadPage, measuredReply, pageStore, settingsStore } from './background-fakes';

const flush = () => new Promise((r) => setImmediate(r));

function setup(settings: Partial<Settings> = {}) {
  const store = pageStore();
  const host = new FakeHost();
  const timers = new FakeTimers();
  const actions = new PageActions({ store, port: host, settings: settingsStore(settings), now: () => 42, setTimeout: timers.setTimeout });
  return { store, host, timers, actions };
}

describe('PageActions.measure', () => {
  test('a loaded page is measured SETTLE_MS after load: one schedule in measure mode, the reply stored as `measured`', async () => {
    const { store, host, timers, actions } = setup();
    await loadPage(store, 1, 'https://a.test/page#top');
    const page = await store.get(1);
    actions.pageLoaded(page!);
    expect(timers.due.map((t) => t.ms)).toEqual([SETTLE_MS]);
    expect(host.sent).toHaveLength(0);
    timers.fire(SETTLE_MS);
    await flush();
    expect(host.sent).toHaveLength(1);
    expect(host.last().body).toMatchObject({ type: 'schedule', mode: 'measure', pageId: page?.pageId, documentUrl: 'https://a.test/page' });
    expect((host.last().body as { requests: unknown[] }).requests).toHaveLength(2);
    host.last().reply(measuredReply(page!.pageId));
    await flush();
    expect(page?.measured).toMatchObject({ type: 'measured', pageId: page?.pageId, failed: [] });
    expect(page?.hostError).toBeUndefined();
    // Measured once: a second load event sends nothing.
    await actions.measure(1, page!.pageId);
    expect(host.sent).toHaveLength(1);
  });

  test('a host failure is stored as `hostError` with its code; a missing host adds the command that fixes it', async () => {
    const { store, host, actions } = setup();
    await loadPage(store, 1, 'https://a.test/');
    const page = (await store.get(1))!;
    const done = actions.measure(1, page.pageId);
    await flush();
    host.status = { state: 'missing', message: 'The getlist native host is not installed for this browser.', fix: 'npx getlist install' };
    host.last().fail(new HostRequestError('E_HOST_DISCONNECTED', 'Lost the native host: not found'));
    await done;
    expect(page.measured).toBeUndefined();
    expect(page.hostError).toEqual({ code: 'E_HOST_DISCONNECTED', message: 'The getlist native host is not installed for this browser. Fix: npx getlist install' });
  });

  test('a reply of the wrong type is an E_UNEXPECTED_REPLY host error', async () => {
    const { store, host, actions } = setup();
    await loadPage(store, 1, 'https://a.test/');
    const page = (await store.get(1))!;
    const done = actions.measure(1, page.pageId);
    await flush();
    host.last().reply({ type: 'stats' });
    await done;
    expect(page.hostError?.code).toBe('E_UNEXPECTED_REPLY');
  });

  test('an excluded site is marked `excluded` and nothing is sent to the host', async () => {
    const { store, host, actions } = setup({ excludedSites: ['*.bank.test'] });
    await loadPage(store, 1, 'https://www.bank.test/account');
    const page = (await store.get(1))!;
    await actions.measure(1, page.pageId);
    expect(page.excluded).toBe(true);
    expect(host.sent).toEqual([]);
  });

  test('a page the tab navigated away from is not measured', async () => {
    const { store, host, actions } = setup();
    await loadPage(store, 1, 'https://a.test/', 1000);
    const old = (await store.get(1))!.pageId;
    await loadPage(store, 1, 'https://b.test/', 2000);
    await actions.measure(1, old);
    expect(host.sent).toEqual([]);
  });

  test('with automatic replay on, a measured page is replayed with the chosen strategies', async () => {
    const { store, host, actions } = setup({ autoReplay: true, replayStrategies: ['getlist'] });
    await loadPage(store, 1, 'https://a.test/');
    const page = (await store.get(1))!;
    const done = actions.measure(1, page.pageId);
    await flush();
    host.last().reply(measuredReply(page.pageId));
    await done;
    expect(host.sent.map((r) => (r.body as { mode: string }).mode)).toEqual(['measure', 'replay']);
    expect(host.last().body).toMatchObject({ strategies: ['getlist'] });
    expect(page.replay?.status).toBe('running');
  });
});

describe('PageActions.replay', () => {
  test('results stream into page.replay; a second replay while one runs is not started', async () => {
    const { store, host, actions } = setup();
    await loadPage(store, 1, 'https://a.test/');
    const page = (await store.get(1))!;
    await expect(actions.replay(1)).resolves.toBe(true);
    await expect(actions.replay(1)).resolves.toBe(false);
    expect(host.sent).toHaveLength(1);
    expect(host.last().body).toMatchObject({ type: 'schedule', mode: 'replay', strategies: ['browser', 'getlist'] });
    expect(page.replay).toMatchObject({ status: 'running', startedAt: 42, results: [] });
    host.last().reply({ type: 'replay-result', pageId: page.pageId, strategy: 'browser', requests: [] });
    expect(page.replay?.results.map((r) => r.strategy)).toEqual(['browser']);
    host.last().reply({ type: 'replay-summary', pageId: page.pageId, summaries: [] });
    await flush();
    expect(page.replay?.status).toBe('done');
    await expect(actions.replay(1, ['getlist'])).resolves.toBe(true);
  });

  test('a failed replay records the error; no page, an excluded site and unknown strategies are refused', async () => {
    const { store, host, actions } = setup({ excludedSites: ['b.test'] });
    await loadPage(store, 1, 'https://a.test/');
    await actions.replay(1);
    host.last().fail(new HostRequestError('E_TIMEOUT', 'the native host did not answer schedule within 300 s'));
    await flush();
    expect((await store.get(1))?.replay).toMatchObject({ status: 'error', error: { code: 'E_TIMEOUT' } });

    await expect(actions.replay(9)).rejects.toMatchObject({ code: 'E_NO_PAGE' });
    await loadPage(store, 2, 'https://b.test/');
    await expect(actions.replay(2)).rejects.toMatchObject({ code: 'E_EXCLUDED', message: expect.stringContaining('b.test') });
    await expect(actions.replay(1, ['warp-speed'])).rejects.toMatchObject({ code: 'E_INVALID_SETTINGS' });
    expect(host.sent).toHaveLength(1);
  });
});
