import type { PriorityClass } from '../../src/core/priority';
import type { ReplayResultMessage } from '../../src/protocol';
import { priorityRank } from '../../src/core/priority';
import { eachWithHostAndOrigin, SpawnedHost } from './host-harness';
import type { TestOrigin } from './test-origin';

let host: SpawnedHost;
let origin: TestOrigin;
eachWithHostAndOrigin((h, o) => {
  host = h;
  origin = o;
});

const CLASSES: PriorityClass[] = ['image', 'script', 'blocking', 'other', 'font', 'visible-image'];
/** 24 items, sent neither in discovery order nor in class order: item i was discovered at (i × 7) mod 24 × 10 ms. */
const ITEMS = Array.from({ length: 24 }, (_, i) => ({ path: `/o/${i}`, priority: CLASSES[i % CLASSES.length] as PriorityClass, discoveredAt: ((i * 7) % 24) * 10 }));

/**
 * Replays the list with one strategy while the origin holds every response until no request has
 * arrived for 150 ms, then releases that batch: the batches are what the host had sent at each
 * point, so their order is the dispatch order whatever the connections' races within a batch.
 */
async function wireBatches(strategy: 'browser' | 'getlist'): Promise<string[][]> {
  origin.hold();
  host.send({
    type: 'schedule', id: strategy, pageId: 'p', documentUrl: `${origin.origin}/o/doc`, mode: 'replay', strategies: [strategy],
    requests: ITEMS.map((x) => ({ url: `${origin.origin}${x.path}?size=10`, priority: x.priority, discoveredAt: x.discoveredAt })),
  });
  const batches: string[][] = [];
  // The list's GETs: getlist's framing probe (src/scheduler/order-probe.ts) may add one HEAD of
  // the first URL it sends, which is no request of the list.
  const gets = () => origin.requests.filter((r) => r.method !== 'HEAD');
  const start = gets().length;
  let seen = start;
  while (seen < start + ITEMS.length) {
    let count = gets().length;
    for (;;) {
      await new Promise((r) => setTimeout(r, 150));
      if (gets().length === count && count > seen) break;
      count = gets().length;
    }
    batches.push(gets().slice(seen, count).map((r) => new URL(r.url, 'http://x').pathname));
    seen = count;
    origin.release();
    origin.hold();
  }
  origin.release();
  const [result] = await host.reader.waitFor((m) => m.id === strategy && m.type === 'replay-result', `${strategy}'s result`).then(() => host.reader.withId(strategy));
  expect((result as ReplayResultMessage).requests.every((r) => r.status === 200)).toBe(true);
  return batches;
}

/** True when every path of an earlier batch ranks before every path of a later one. */
function rankOrdered(batches: string[][], rank: (path: string) => number): boolean {
  for (let k = 1; k < batches.length; k++) {
    const before = Math.max(...batches.slice(0, k).flat().map(rank));
    if (Math.min(...(batches[k] as string[]).map(rank)) < before) return false;
  }
  return true;
}

const byPath = new Map(ITEMS.map((x) => [x.path, x]));
const discoveryRank = (p: string) => (byPath.get(p)?.discoveredAt ?? NaN);
const classRank = (p: string) => priorityRank(byPath.get(p)?.priority ?? 'other') * 1e6 + discoveryRank(p);

test('a replayed list reaches the origin in discovery order with browser, in priority order with getlist', async () => {
  const browser = await wireBatches('browser');
  expect(browser.flat().sort()).toEqual(ITEMS.map((x) => x.path).sort());
  expect(browser.length).toBeGreaterThan(1); // at most six connections: the batches order something
  expect(rankOrdered(browser, discoveryRank)).toBe(true);
  expect(rankOrdered(browser, classRank)).toBe(false);

  const getlist = await wireBatches('getlist');
  expect(getlist.flat().sort()).toEqual(ITEMS.map((x) => x.path).sort());
  expect(getlist.length).toBeGreaterThan(1);
  expect(rankOrdered(getlist, classRank)).toBe(true);
  expect(rankOrdered(getlist, discoveryRank)).toBe(false);
}, 30_000);
