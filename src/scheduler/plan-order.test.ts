import { inQueueOrder, listFillsLink, longestFirst, planOrder } from './plan-order';
import type { ListedLoad, RememberedLink } from './list-windows';

const WWW = 'https://www.test';
const IMG = 'https://img.test';
const STATIC = 'https://static.test';
const PLAIN = 'http://plain.test';
const OTHER = 'https://other.test';

const load = (...sizes: number[]): ListedLoad => ({ sizes });

// In the queue's order: the document and a sheet; a plain-http origin's one 30 kB response; twelve
// small images over six windows; a script that needs three rounds on each of its two windows.
const listed = new Map<string, ListedLoad>([
  [WWW, load(14_480, 20_000)],
  [PLAIN, load(30_000)],
  [IMG, load(...Array.from({ length: 12 }, () => 5_000))],
  [STATIC, load(60_000, 40_000)],
]);
// In the memory's order (most requests first).
const plan = [
  { origin: IMG, connections: 6 },
  { origin: OTHER, connections: 1 },
  { origin: WWW, connections: 1 },
  { origin: PLAIN, connections: 1 },
  { origin: STATIC, connections: 2 },
];
const origins = (p: ReadonlyArray<{ origin: string }>) => p.map((t) => t.origin);

/** 1 Gbit/s and 10 Mbit/s at 100 ms; the 10 Mbit/s one seen to queue. */
const open: RememberedLink = { rateBytesPerMs: 125_000, rttMs: 100, held: true };
const capped: RememberedLink = { rateBytesPerMs: 1_250, rttMs: 100, held: true };

describe('the order a learned plan starts its handshakes', () => {
  test('longest first: TLS origins before plain-http ones, each group by its busiest connection\'s slow-start rounds', () => {
    // static 3 rounds, www 2, img 1, the origin the list asks nothing of last among TLS; then plain.
    expect(origins(longestFirst(plan, listed))).toEqual([STATIC, WWW, IMG, OTHER, PLAIN]);
    // Equal rounds keep the plan's order.
    const twins = new Map<string, ListedLoad>([[WWW, load(5_000)], [IMG, load(5_000)]]);
    expect(origins(longestFirst(plan, twins))).toEqual([IMG, WWW, OTHER, STATIC, PLAIN]);
  });

  test('in the queue\'s order: as the list first names each origin, the document\'s first; an origin it never names last', () => {
    expect(origins(inQueueOrder(plan, listed))).toEqual([WWW, PLAIN, IMG, STATIC, OTHER]);
  });

  test('the list fills the link when a queue was seen and its bytes take longer than a round trip through it', () => {
    // 184,480 bytes: 148 ms at 10 Mbit/s, 1.5 ms at 1 Gbit/s.
    expect(listFillsLink(capped, listed)).toBe(true);
    expect(listFillsLink(open, listed)).toBe(false);
    expect(listFillsLink({ ...capped, rttMs: 200 }, listed)).toBe(false);
    // A rate no queue confirmed is a floor under the link, not the link.
    expect(listFillsLink({ ...capped, held: false }, listed)).toBe(false);
  });

  test('longest first only where the link is known to have room; the queue\'s order on a bottleneck or an unknown link', () => {
    expect(origins(planOrder(plan, listed, open))).toEqual(origins(longestFirst(plan, listed)));
    expect(origins(planOrder(plan, listed, capped))).toEqual(origins(inQueueOrder(plan, listed)));
    expect(origins(planOrder(plan, listed, undefined))).toEqual(origins(inQueueOrder(plan, listed)));
  });
});
