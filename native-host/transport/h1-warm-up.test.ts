import type { Duplex } from 'node:stream';
import { Client } from 'undici';

// Each case needs a process whose warm-up has not run yet: the module keeps it once per process.
function freshWarmUp(): typeof import('./h1-warm-up').warmUpH1 {
  let fn: typeof import('./h1-warm-up').warmUpH1 | undefined;
  jest.isolateModules(() => {
    fn = (jest.requireActual('./h1-warm-up') as typeof import('./h1-warm-up')).warmUpH1;
  });
  return fn as typeof import('./h1-warm-up').warmUpH1;
}

const handed = (origin: string, socket: Duplex) => new Client(origin, { connect: (_o, cb) => process.nextTick(() => cb(null, socket as never)) });

test("the warm-up's request is answered through undici's HTTP/1.1 parser, once per process", async () => {
  const warmUpH1 = freshWarmUp();
  const made: string[] = [];
  const factory = (origin: string, socket: Duplex) => {
    made.push(origin);
    return handed(origin, socket);
  };
  const first = warmUpH1(factory);
  expect(warmUpH1(factory)).toBe(first);
  await expect(first).resolves.toBe(true);
  expect(made).toEqual(['http://warm-up.invalid']);
});

test('a warm-up that cannot build its client resolves false and throws nothing', async () => {
  const warmUpH1 = freshWarmUp();
  await expect(warmUpH1(() => { throw new Error('no client'); })).resolves.toBe(false);
});
