import { reloadOnCaptureChange } from '../../extension/background/capture-reload';
import { detailedPermissions, touchesDetailedCapture } from '../../extension/platform/detailed-capture';

type Listener = (p: { permissions?: string[] }) => void;

function harness(mode: 'lean' | 'detailed', granted: { now: boolean }) {
  const added: Listener[] = [];
  const removed: Listener[] = [];
  const calls: string[] = [];
  reloadOnCaptureChange({
    mode,
    needed: ['webRequest'],
    permissions: {
      contains: () => Promise.resolve(granted.now),
      onAdded: { addListener: (fn) => added.push(fn) },
      onRemoved: { addListener: (fn) => removed.push(fn) },
    },
    beforeReload: () => {
      calls.push('mark');
      return Promise.resolve();
    },
    reload: () => calls.push('reload'),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { added, removed, calls, settle };
}

describe('reloadOnCaptureChange (Firefox): the listeners always match the grant', () => {
  it('reloads once the grant differs from the mode the background started in, marking the options page for reopening first', async () => {
    const granted = { now: true };
    const h = harness('lean', granted);
    h.added.forEach((fn) => fn({ permissions: ['webRequest'] }));
    await h.settle();
    expect(h.calls).toEqual(['mark', 'reload']);
  });

  it('does nothing for other permissions, nor when the state is the one it started in', async () => {
    const granted = { now: false };
    const h = harness('lean', granted);
    h.added.forEach((fn) => fn({ permissions: ['bookmarks'] }));
    h.removed.forEach((fn) => fn({ permissions: ['webRequest'] }));
    await h.settle();
    expect(h.calls).toEqual([]);
  });

  it('reloads a detailed background when the permission is given back', async () => {
    const h = harness('detailed', { now: false });
    h.removed.forEach((fn) => fn({ permissions: ['webRequest'] }));
    await h.settle();
    expect(h.calls).toEqual(['mark', 'reload']);
  });
});

describe('detailedPermissions', () => {
  it('asks Firefox for webRequest alone (it rejects DNR as optional), Chromium for both', () => {
    expect(detailedPermissions('moz-extension://u/')).toEqual(['webRequest']);
    expect(detailedPermissions('chrome-extension://id/')).toEqual(['webRequest', 'declarativeNetRequestWithHostAccess']);
  });

  it('tells which permission changes concern it', () => {
    expect(touchesDetailedCapture({ permissions: ['declarativeNetRequestWithHostAccess'] })).toBe(true);
    expect(touchesDetailedCapture({ permissions: ['tabs'] })).toBe(false);
    expect(touchesDetailedCapture(undefined)).toBe(false);
  });
});
