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

// A fresh process (this file's own module registry): nothing has warmed yet. The cases that must
// not warm run first: the first step that runs leaves the process's count defined.
describe('a page load warms its discovery between the document\'s request and answer', () => {
  it('not when asked not to, and not on another request\'s send', async () => {
    discovery(false).hooks.onSent?.(dispatch(1), 100);
    const d = discovery(true);
    d.hooks.onSent?.(dispatch(2, `${url}a.css`), 100);
    await drainImmediates();
    expect(warmUpStepsLeft()).toBeUndefined();
    d.stopWarmUp();
  });

  it('on a TLS handshake: not when asked not to, not for another origin, not on a short round trip, not once the document answered', async () => {
    discovery(false).onTlsStart('https://page.invalid', 100);
    const d = discovery(true);
    d.onTlsStart('https://cdn.page.invalid', 100);
    d.onTlsStart('https://page.invalid', 5);
    await drainImmediates();
    expect(warmUpStepsLeft()).toBeUndefined();
    d.hooks.onResponseHead?.(dispatch(1), 200, { 'content-type': 'text/html' });
    d.onTlsStart('https://page.invalid', 100);
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

  it('on the document origin\'s TLS handshake, until the document\'s head', async () => {
    const d = discovery(true);
    const before = warmUpStepsLeft() as number;
    d.onTlsStart('https://page.invalid', 100);
    await new Promise((r) => setImmediate(r));
    const left = warmUpStepsLeft() as number;
    expect(left).toBeLessThan(before);
    d.hooks.onResponseHead?.(dispatch(1), 200, { 'content-type': 'text/html' });
    await drainImmediates();
    expect(warmUpStepsLeft()).toBe(left);
    d.stopWarmUp();
  });
});
