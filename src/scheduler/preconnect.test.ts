import { preconnectPlan } from './preconnect';
import { listedLoads } from './list-windows';
import { strategy } from './strategies';
import { InMemoryOriginMemory } from '../origins/origin-memory';
import type { OriginFacts } from '../origins/origin-facts';

const WWW = 'https://www.test';
const IMG = 'https://img.test';
const STATIC = 'https://static.test';

/** A far h2 origin whose last load received up to 1 Gbit/s, seen to queue. */
const far = (origin: string): OriginFacts => ({ origin, lastSeen: 0, protocol: 'h2', rttMs: 100, peakBytesPerMs: 125_000, peakHeld: true });

describe('a learned plan\'s order', () => {
  function memory(): InMemoryOriginMemory {
    const m = new InMemoryOriginMemory();
    m.putPageOrigins(`${WWW}/`, [{ origin: IMG, requests: 12 }, { origin: STATIC, requests: 2 }, { origin: WWW, requests: 2 }]);
    return m;
  }
  const list = listedLoads(`${WWW}/`, [
    { url: `${WWW}/s.css`, bytes: 20_000, priority: 'blocking', resourceType: 'stylesheet' },
    ...Array.from({ length: 12 }, (_, i) => ({ url: `${IMG}/i${i}.jpg`, bytes: 5_000, priority: 'image' as const, resourceType: 'image' })),
    { url: `${STATIC}/app.js`, bytes: 90_000, priority: 'script' as const, resourceType: 'script' },
    { url: `${STATIC}/vendor.js`, bytes: 60_000, priority: 'script' as const, resourceType: 'script' },
  ]);

  test('without a list the page\'s own origin goes first, then the memory\'s order', () => {
    expect(preconnectPlan(`${WWW}/`, memory(), strategy('getlist')).map((t) => t.origin)).toEqual([WWW, IMG, STATIC]);
  });

  test('with a list and no link remembered, the queue\'s order; with a fast link remembered, the longest share first, its windows with it', () => {
    // The queue ranks the script's class above the images'.
    expect(preconnectPlan(`${WWW}/`, memory(), strategy('getlist'), list).map((t) => t.origin)).toEqual([WWW, STATIC, IMG]);
    const m = memory();
    for (const o of [WWW, IMG, STATIC]) m.put(far(o));
    const plan = preconnectPlan(`${WWW}/`, m, strategy('getlist'), list);
    expect(plan[0]).toMatchObject({ origin: STATIC, listWindows: true });
    expect(plan.map((t) => t.origin)).toEqual([STATIC, WWW, IMG]);
  });
});
