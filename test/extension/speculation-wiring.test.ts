// The speculation script goes only into a loaded top-level http(s) document the service allows, by
// document where the browser names one; each top-frame commit reaches the service with its transition.
import { createNavigationHub, type NavigationDetails } from '../../extension/background/navigation-hub';
import { SPECULATION_FILE, wireSpeculation } from '../../extension/background/speculation-wiring';

function setup(allowed: (url: string) => boolean) {
  const listeners: Record<'onCommitted' | 'onCompleted', ((d: NavigationDetails) => void)[]> = { onCommitted: [], onCompleted: [] };
  const event = (name: 'onCommitted' | 'onCompleted') => ({ addListener: (l: (d: NavigationDetails) => void) => listeners[name].push(l) });
  const committed: string[] = [];
  const injected: unknown[] = [];
  wireSpeculation({
    navigation: createNavigationHub({ onCommitted: event('onCommitted'), onCompleted: event('onCompleted') }),
    service: {
      committed: async (tabId, url, transition) => void committed.push(`${tabId} ${url} ${transition ?? '-'}`),
      mayInject: async (_tabId, url) => allowed(url),
    },
    executeScript: async (injection) => void injected.push(injection),
  });
  const fire = (name: 'onCommitted' | 'onCompleted', d: Partial<NavigationDetails>) => {
    for (const l of listeners[name]) l({ tabId: 4, frameId: 0, url: 'https://a.test/', timeStamp: 1, ...d });
  };
  return { fire, committed, injected };
}

test('commits of the top frame reach the service with their transition; sub-frames do not', () => {
  const { fire, committed } = setup(() => true);
  fire('onCommitted', { url: 'https://a.test/next', transitionType: 'link' });
  fire('onCommitted', { url: 'https://a.test/frame', frameId: 1, transitionType: 'auto_subframe' });
  expect(committed).toEqual(['4 https://a.test/next link']);
});

test('the script goes into allowed top-level http(s) documents only, addressed by document id', async () => {
  const { fire, injected } = setup((url) => !url.includes('refused'));
  fire('onCompleted', { url: 'https://a.test/ok', documentId: 'D1' });
  fire('onCompleted', { url: 'https://a.test/refused', documentId: 'D2' });
  fire('onCompleted', { url: 'https://a.test/frame', frameId: 2 });
  fire('onCompleted', { url: 'chrome://newtab/' });
  fire('onCompleted', { url: 'http://b.test/firefox' });
  await new Promise((r) => setTimeout(r, 0));
  expect(injected).toEqual([
    { target: { tabId: 4, documentIds: ['D1'] }, files: [SPECULATION_FILE] },
    { target: { tabId: 4, frameIds: [0] }, files: [SPECULATION_FILE] },
  ]);
});
