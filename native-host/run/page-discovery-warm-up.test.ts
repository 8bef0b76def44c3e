import type { Dispatch, Scheduler } from '../../src/scheduler';
import { warmUpStepsLeft } from './discovery-warm-up';
import { PageDiscovery } from './page-discovery';
import { drainImmediates } from '../../test/support/immediates';

const url = 'https://page.invalid/';

function discovery(warmUp: boolean): PageDiscovery {
  const d = new PageDiscovery({ url, maxRedirects: 5, maxCssBytes: 1 << 20, warmUp });
  let id = 0;
  d.start({ enqueue: () => ++id, preconnect: () => undefined } as unknown as Scheduler);
  return d;
}

/** The document is the first request a discovery enqueues (id 1). */
const dispatch = (requestId: number, target = url): Dispatch =>
  ({ id: requestId, connectionId: 1, pipelined: false, keepAlive: true, fingerprint: false, request: { id: requestId, url: target } }) as unknown as Dispatch;

// A fresh process (this file's own module registry): nothing has warmed yet.
describe('a page load warms its discovery between the document\'s request and answer', () => {
  it('not when asked not to, and not on another request\'s send', async () => {
    discovery(false).hooks.onSent?.(dispatch(1), 100);
    const d = discovery(true);
    d.hooks.onSent?.(dispatch(2, `${url}a.css`), 100);
    await drainImmediates();
    expect(warmUpStepsLeft()).toBeUndefined();
    d.stopWarmUp();
  });

  it('on the document\'s send, until its answer\'s head', async () => {
    const d = discovery(true);
    d.hooks.onSent?.(dispatch(1), 100);
    await new Promise((r) => setImmediate(r));
    const left = warmUpStepsLeft();
    expect(left).toBeDefined();
    d.hooks.onResponseHead?.(dispatch(1), 200, { 'content-type': 'text/html' });
    await drainImmediates();
    expect(warmUpStepsLeft()).toBe(left);
    d.stopWarmUp();
  });
});
