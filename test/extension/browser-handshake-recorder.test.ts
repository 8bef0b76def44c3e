// The browser's own connections reach the host once per ordinary page load, never from a private
// window, an excluded site or a tab whose privacy is not known.
import { BrowserHandshakeRecorder } from '../../extension/background/browser-handshake-recorder';
import type { PageRecord } from '../../src/page/model/page-record';
import type { Settings } from '../../src/page/messages/messages';
import { settingsFromStorage } from '../../src/page/messages/settings';

const T0 = 1_800_000_000_000;

function loadedPage(url: string): PageRecord {
  return {
    pageId: `1:${T0}`, tabId: 1, url, startedAt: T0, requests: [], discoveries: [], timings: [],
    navigation: { timeOrigin: T0, responseStart: 60, domContentLoadedEventEnd: 80, loadEventEnd: 90, nextHopProtocol: 'http/1.1', fetchStart: 1, domainLookupStart: 1, domainLookupEnd: 1, connectStart: 2, secureConnectionStart: 0, connectEnd: 52, requestStart: 52 },
  };
}

function setup(page: PageRecord, incognito: boolean | undefined, settings: Partial<Settings> = {}) {
  const sent: unknown[] = [];
  const timers: Array<() => void> = [];
  const recorder = new BrowserHandshakeRecorder({
    store: { current: async (tabId, pageId) => (tabId === page.tabId && pageId === page.pageId ? page : undefined) },
    port: { request: (async (body: unknown) => (sent.push(body), { type: 'recorded', id: 1, recorded: 1 })) as never },
    settings: { get: async () => ({ ...settingsFromStorage({}), ...settings }) },
    isIncognito: async () => incognito,
    setTimeout: (fn) => timers.push(fn),
  });
  const settle = async () => {
    for (const t of timers.splice(0)) t();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { recorder, sent, settle };
}

test('an ordinary page sends its connections once, the document named without its fragment', async () => {
  const page = loadedPage('http://a.test/p#top');
  const { recorder, sent, settle } = setup(page, false);
  recorder.pageLoaded(page);
  recorder.pageLoaded(page);
  await settle();
  expect(sent).toEqual([{ type: 'handshakes', pageUrl: 'http://a.test/p', handshakes: [{ origin: 'http://a.test', startedAt: T0 + 1, dnsMs: 0, tcpMs: 50, tlsMs: 0, totalMs: 51, protocol: 'http/1.1' }] }]);
});

test.each([
  ['a private window', true, {}],
  ['a tab whose privacy is not known (closed)', undefined, {}],
  ['an excluded site', false, { excludedSites: ['a.test'] }],
])('%s sends nothing', async (_name, incognito, settings) => {
  const page = loadedPage('http://a.test/p');
  const { recorder, sent, settle } = setup(page, incognito, settings);
  recorder.pageLoaded(page);
  await settle();
  expect(sent).toEqual([]);
});

test('a tab closed before the delay is recorded as it closes, and once', async () => {
  const page = loadedPage('http://a.test/p');
  const { recorder, sent, settle } = setup(page, false);
  recorder.pageLoaded(page);
  await recorder.tabClosed(page.tabId);
  expect(sent).toHaveLength(1);
  await settle();
  await recorder.tabClosed(page.tabId);
  expect(sent).toHaveLength(1);
});
