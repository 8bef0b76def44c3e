import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { H2_WARM_UP_GIVE_UP_MS } from './h2-warm-up';
import { handedClient } from './undici-transport';

// Each case needs a process whose warm-up has not run yet: the module keeps it once per process.
function freshWarmUp(): typeof import('./h2-warm-up').warmUpH2 {
  let fn: typeof import('./h2-warm-up').warmUpH2 | undefined;
  jest.isolateModules(() => {
    fn = (jest.requireActual('./h2-warm-up') as typeof import('./h2-warm-up')).warmUpH2;
  });
  return fn as typeof import('./h2-warm-up').warmUpH2;
}

test("the warm-up's request is answered over HTTP/2, by undici's HTTP/2 client and Node's http2 server in memory, once per process", async () => {
  const warmUpH2 = freshWarmUp();
  const made: Array<{ origin: string; h2: unknown }> = [];
  const factory = (origin: string, socket: Duplex) => {
    made.push({ origin, h2: (socket as Duplex & { alpnProtocol?: string }).alpnProtocol });
    return handedClient(origin, socket, () => false, origin, { allowH2: true });
  };
  const first = warmUpH2(factory);
  expect(warmUpH2(factory)).toBe(first);
  await expect(first).resolves.toBe(true);
  expect(made).toEqual([{ origin: 'https://warm-up.invalid', h2: 'h2' }]);
});

test('a warm-up that cannot build its client resolves false and throws nothing', async () => {
  const warmUpH2 = freshWarmUp();
  await expect(warmUpH2(() => { throw new Error('no client'); })).resolves.toBe(false);
});

test('an exchange that never ends is dropped once its time is up: it resolves false and its client is destroyed', async () => {
  const warmUpH2 = freshWarmUp();
  const destroyed: boolean[] = [];
  const silent = { dispatch: () => true, destroy: () => { destroyed.push(true); return Promise.resolve(); } } as unknown as Dispatcher;
  const started = performance.now();
  await expect(warmUpH2(() => silent)).resolves.toBe(false);
  expect(performance.now() - started).toBeGreaterThanOrEqual(H2_WARM_UP_GIVE_UP_MS - 50);
  expect(destroyed).toEqual([true]);
});
