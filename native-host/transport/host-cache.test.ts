import type { LookupAddress } from 'node:dns';
import { HostCache, type LookupAllFn } from './host-cache';

/** A resolver that answers when told, counting what it was asked. */
function resolver() {
  const asked: Array<{ hostname: string; options: object; answer: (err: NodeJS.ErrnoException | null, a?: LookupAddress[]) => void }> = [];
  const fn: LookupAllFn = (hostname, options, callback) => {
    asked.push({ hostname, options, answer: (err, a) => callback(err, a ?? []) });
  };
  return { fn, asked };
}

const A: LookupAddress[] = [{ address: '198.18.0.7', family: 4 }, { address: '2001:db8::7', family: 6 }];

describe('the host cache', () => {
  test('lookups of one name while one is in flight share it, and get every address in the resolver\'s order', async () => {
    const r = resolver();
    const cache = new HostCache(r.fn, () => 0);
    const answers = Promise.all([cache.lookupAll('a.test', { hints: 32 }), cache.lookupAll('a.test', { hints: 32 }), cache.lookupAll('a.test', { hints: 32 })]);
    expect(r.asked.map((a) => [a.hostname, a.options])).toEqual([['a.test', { all: true, hints: 32 }]]);
    r.asked[0]?.answer(null, A);
    expect(await answers).toEqual([A, A, A]);
  });

  test('an answer is kept for a minute, then asked again', async () => {
    const r = resolver();
    let now = 0;
    const cache = new HostCache(r.fn, () => now);
    const first = cache.lookupAll('a.test');
    r.asked[0]?.answer(null, A);
    await first;
    now = 59_999;
    await expect(cache.lookupAll('a.test')).resolves.toEqual(A);
    expect(r.asked).toHaveLength(1);
    now = 60_000;
    const again = cache.lookupAll('a.test');
    expect(r.asked).toHaveLength(2);
    r.asked[1]?.answer(null, [{ address: '198.18.0.8', family: 4 }]);
    await expect(again).resolves.toEqual([{ address: '198.18.0.8', family: 4 }]);
  });

  test('a failed lookup is not kept: its waiters get the error, the next asks again', async () => {
    const r = resolver();
    const cache = new HostCache(r.fn, () => 0);
    const failed = cache.lookupAll('gone.test');
    r.asked[0]?.answer(Object.assign(new Error('getaddrinfo ENOTFOUND gone.test'), { code: 'ENOTFOUND' }));
    await expect(failed).rejects.toMatchObject({ code: 'ENOTFOUND' });
    void cache.lookupAll('gone.test');
    expect(r.asked).toHaveLength(2);
  });

  test('the family and hints asked for are part of the question', () => {
    const r = resolver();
    const cache = new HostCache(r.fn, () => 0);
    void cache.lookupAll('a.test', { hints: 32 });
    void cache.lookupAll('a.test', { family: 4, hints: 32 });
    void cache.lookupAll('a.test');
    void cache.lookupAll('b.test', { hints: 32 });
    expect(r.asked.map((a) => [a.hostname, a.options])).toEqual([
      ['a.test', { all: true, hints: 32 }],
      ['a.test', { all: true, family: 4, hints: 32 }],
      ['a.test', { all: true }],
      ['b.test', { all: true, hints: 32 }],
    ]);
  });

  test('at its bound the oldest name is forgotten first', () => {
    const r = resolver();
    const cache = new HostCache(r.fn, () => 0, 60_000, 2);
    void cache.lookupAll('a.test');
    void cache.lookupAll('b.test');
    void cache.lookupAll('c.test');
    void cache.lookupAll('b.test');
    void cache.lookupAll('a.test');
    expect(r.asked.map((a) => a.hostname)).toEqual(['a.test', 'b.test', 'c.test', 'a.test']);
  });
});
