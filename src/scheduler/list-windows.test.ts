import { dealt, FILL_SHARE, listedLoads, linkWindows, rememberedLink, RESPONSE_OVERHEAD_BYTES, slowStartRounds, TLS_FIRST_FLIGHT_BYTES, windowsForList, withListWindows, type ListedLoad } from './list-windows';
import { INITIAL_WINDOW_BYTES } from './path-estimate';
import { preconnectPlan, Scheduler, strategy, type Strategy } from './index';
import { InMemoryOriginMemory } from '../origins/origin-memory';
import type { OriginFacts } from '../origins/origin-facts';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const W = INITIAL_WINDOW_BYTES;
const S = 'https://s.test';
const F = 'https://f.test';
const H = 'http://h.test';

/** A far h2 origin whose last load received up to 1 Gbit/s. */
const far = (origin: string, extra: Partial<OriginFacts> = {}): OriginFacts => ({ origin, lastSeen: 0, protocol: 'h2', rttMs: 100, peakBytesPerMs: 125_000, ...extra });

describe('slow-start rounds and the windows they ask for', () => {
  test('a window doubles every round trip from the initial window', () => {
    expect(slowStartRounds(1)).toBe(1);
    expect(slowStartRounds(W)).toBe(1);
    expect(slowStartRounds(W + 1)).toBe(2);
    expect(slowStartRounds(3 * W)).toBe(2);
    expect(slowStartRounds(3 * W + 1)).toBe(3);
    expect(slowStartRounds(7 * W + 1)).toBe(4);
  });

  test("the server's own first flight goes first", () => {
    expect(slowStartRounds(W, W, TLS_FIRST_FLIGHT_BYTES)).toBe(2);
    expect(slowStartRounds(W - TLS_FIRST_FLIGHT_BYTES, W, TLS_FIRST_FLIGHT_BYTES)).toBe(1);
  });

  test('the fewest connections that give the fewest rounds as the scheduler deals the responses, within the limit and the responses', () => {
    const even = (windows: number, responses = 100): ListedLoad => ({ sizes: new Array<number>(responses).fill((windows * W) / responses) });
    expect(windowsForList({ sizes: [] }, 6)).toBe(1);
    expect(windowsForList(even(0.5), 6)).toBe(1);
    // Two session tickets take a fifth of the first window: one window's worth needs two connections to end in one round.
    expect(windowsForList(even(1), 6)).toBe(2);
    // 7 windows' worth: four rounds on one connection, three on two, two on three, and two still on six.
    expect(windowsForList(even(7), 6)).toBe(3);
    expect(windowsForList(even(7), 2)).toBe(2);
    expect(windowsForList(even(6), 6)).toBe(3);
    // 100 windows' worth: five rounds on four connections, and no fewer on six.
    expect(windowsForList(even(100), 6)).toBe(4);
    // No more connections than responses.
    expect(windowsForList(even(7, 2), 6)).toBe(2);
    // Two sheets first, then a large script: on two connections it lands behind a sheet, a round more than alone.
    const sheetsThenScript = { sizes: [0.7 * W, 0.8 * W, 6.5 * W, 4 * W] };
    expect(dealt(sheetsThenScript.sizes, 2).rounds).toBe(4);
    expect(dealt(sheetsThenScript.sizes, 3).rounds).toBe(3);
    expect(windowsForList(sheetsThenScript, 6)).toBe(3);
    // Three rounds deliver 6.8 windows: a connection filled nearly to that, when another would spare it, is not planned.
    const near = { sizes: [1.8 * W, 0.6 * W, 6 * W, 4.2 * W] };
    expect(dealt(near.sizes, 2)).toEqual({ bytes: 6.6 * W, rounds: 3 });
    expect(6.6 / 6.8).toBeGreaterThan(FILL_SHARE);
    expect(windowsForList(near, 6)).toBe(3);
  });

  test('a later round trip allowed (the link needs that long anyway) needs fewer connections', () => {
    const even7 = { sizes: new Array<number>(70).fill(W / 10) };
    expect(windowsForList(even7, 6, 1)).toBe(3);
    expect(windowsForList(even7, 6, 3)).toBe(2);
    expect(windowsForList(even7, 6, 4)).toBe(1);
  });

  test('the link: the highest remembered peak, over the shortest round trip; none remembered, none', () => {
    expect(rememberedLink([undefined, { origin: S, lastSeen: 0, rttMs: 100 }])).toBeUndefined();
    expect(rememberedLink([far(S, { peakBytesPerMs: 400, rttMs: 80 }), far(F, { peakBytesPerMs: 1250 }), { origin: H, lastSeen: 0 }])).toEqual({ rateBytesPerMs: 1250, rttMs: 80, held: true });
    // Held or not is the highest peak's: facts written before it was kept read as held.
    expect(rememberedLink([far(S, { peakBytesPerMs: 400, peakHeld: true }), far(F, { peakBytesPerMs: 1250, peakHeld: false })])).toEqual({ rateBytesPerMs: 1250, rttMs: 100, held: false });
    expect(rememberedLink([far(S, { peakBytesPerMs: 400, peakHeld: false }), far(F, { peakBytesPerMs: 1250, peakHeld: true })])?.held).toBe(true);
    // 10 Mbit/s = 1,250 bytes/ms at 100 ms: 2 × BDP over the initial window.
    expect(linkWindows({ rateBytesPerMs: 1250, rttMs: 100, held: true })).toBe(Math.round((2 * 1250 * 100) / W));
  });
});

describe('a learned list sizes its h2 origins at t = 0', () => {
  const g = strategy('getlist');
  const facts = (list: OriginFacts[]) => (o: string) => list.find((f) => f.origin === o);
  const plan = [{ origin: S, connections: 1 }, { origin: F, connections: 1 }, { origin: H, connections: 4 }];
  const load = (windows: number): ListedLoad => ({ sizes: new Array<number>(20).fill((windows * W) / 20) });

  test('a far h2 origin with more than a window round of bytes gets the windows that save rounds; http/1.1 keeps its plan', () => {
    const bytes = new Map([[S, load(7)], [F, load(0.5)], [H, load(20)]]);
    const out = withListWindows(plan, bytes, facts([far(S), far(F), { origin: H, lastSeen: 0, protocol: 'http/1.1', rttMs: 100 }]), g);
    expect(out).toEqual([{ origin: S, connections: 3, listWindows: true }, { origin: F, connections: 1 }, { origin: H, connections: 4 }]);
  });

  test('nothing extra without a remembered rate, on a near path, for a strategy that keeps one h2 connection, or past the link', () => {
    const bytes = new Map([[S, load(7)], [F, load(7)]]);
    expect(withListWindows(plan, bytes, facts([far(S, { peakBytesPerMs: undefined }), far(F, { peakBytesPerMs: undefined })]), g)).toEqual(plan);
    expect(withListWindows(plan, bytes, facts([far(S, { rttMs: 5 }), far(F, { rttMs: 5 })]), g)).toEqual(plan);
    expect(withListWindows(plan, bytes, facts([far(S), far(F)]), strategy('h2'))).toEqual(plan);
    // A link of 7 windows with 6 planned, which carries the list in two round trips: each origin
    // wants a second window for that, and the busier one gets the one left.
    const rate = (3.5 * W) / 100;
    const busier = new Map([[S, load(3)], [F, load(4)]]);
    expect(withListWindows(plan, busier, facts([far(S, { peakBytesPerMs: rate }), far(F, { peakBytesPerMs: rate })]), g)).toEqual([
      { origin: S, connections: 1 },
      { origin: F, connections: 2, listWindows: true },
      { origin: H, connections: 4 },
    ]);
  });

  test("a list's load by origin is in the queue's order, with each response's overhead, and the document as one window", () => {
    expect(listedLoads(`${S}/page`, [])).toEqual(new Map());
    const loads = listedLoads(`${S}/page`, [
      { url: `${S}/i.gif`, bytes: 1000, priority: 'image', resourceType: 'image' },
      { url: `${F}/f.woff2`, bytes: 2000, priority: 'blocking', resourceType: 'font' },
      { url: `${S}/s.css`, bytes: 3000, priority: 'blocking', resourceType: 'stylesheet' },
    ]);
    const o = RESPONSE_OVERHEAD_BYTES;
    expect(loads).toEqual(new Map([[S, { sizes: [W + o, 3000 + o, 1000 + o] }], [F, { sizes: [2000 + o] }]]));
  });

  test('no window that would end an origin sooner than the link can carry the whole list', () => {
    // 10 Mbit/s at 100 ms: the link carries 1,250 bytes a millisecond, about 8.6 windows a round trip.
    const capped = (f: OriginFacts) => ({ ...f, peakBytesPerMs: 1250 });
    const bytes = new Map([[S, load(7)], [F, load(0.5)]]);
    expect(withListWindows(plan, bytes, facts([capped(far(S)), capped(far(F))]), g)).toEqual([{ origin: S, connections: 3, listWindows: true }, plan[1], plan[2]]);
    // A list of 60 windows takes the link about 7 round trips: the 7 windows from S end well within that on one connection.
    const big = new Map([[S, load(7)], [F, load(53)]]);
    expect(withListWindows(plan, big, facts([capped(far(S)), capped(far(F))]), g)).toEqual(plan);
    // The same peak, but one burst of a load that did not fill its link: a floor under the rate,
    // so no time budget: each origin gets the windows that save it rounds (F's 53 in four rounds on four).
    const floor = (f: OriginFacts) => ({ ...capped(f), peakHeld: false });
    expect(withListWindows(plan, big, facts([floor(far(S)), floor(far(F))]), g)).toEqual([
      { origin: S, connections: 3, listWindows: true },
      { origin: F, connections: 4, listWindows: true },
      plan[2],
    ]);
  });

  test('preconnectPlan sizes from the memory and the listed bytes', () => {
    const memory = new InMemoryOriginMemory();
    memory.putPageOrigins(`${S}/`, [{ origin: S, requests: 10 }]);
    memory.put(far(S));
    expect(preconnectPlan(`${S}/`, memory, g)).toEqual([{ origin: S, connections: 1 }]);
    expect(preconnectPlan(`${S}/`, memory, g, new Map([[S, load(7)]]))).toEqual([{ origin: S, connections: 3, listWindows: true }]);
  });
});

describe('the scheduler opens a list\'s windows together and loads them by bytes', () => {
  function setup(s: Strategy) {
    const clock = new FakeClock();
    const transport = new FakeTransport();
    const scheduler = new Scheduler({ strategy: s, transport, clock });
    return { clock, transport, scheduler };
  }
  const sizes = [26_000, 18_000, 24_000, 9_000, 7_000, 8_200, 5_400, 6_100, 3_000];

  test('three windows open at t = 0 and each carries about a third of the bytes; none opens later', () => {
    const t = setup(strategy('getlist'));
    t.scheduler.enqueue({ url: `${S}/doc`, priority: 'document', resourceType: 'document' });
    sizes.forEach((n, i) => t.scheduler.enqueue({ url: `${S}/r${i}`, priority: 'image', expectedSize: n, listed: true }));
    t.scheduler.preconnect(S, 3, true);
    expect(t.transport.opened).toHaveLength(3);
    t.clock.advance(200);
    for (const c of [1, 2, 3]) t.scheduler.connectionReady(c, { protocol: 'h2', handshakeRttMs: 100 });
    const loads = [1, 2, 3].map((c) => t.transport.on(c).reduce((n, d) => n + (d.request.expectedSize ?? 0), 0));
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(loads.reduce((a, b) => a + b, 0)).toBe(total);
    // Greedy in rank order: no connection more than the largest single response above an even share.
    for (const n of loads) expect(n).toBeLessThanOrEqual(total / 3 + Math.max(...sizes));
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThan(Math.max(...sizes));
    // A closed window is not reopened: the limit was the list's only at the pump that opened it.
    t.scheduler.connectionClosed(3);
    t.scheduler.enqueue({ url: `${S}/late`, priority: 'image' });
    expect(t.transport.opened).toHaveLength(3);
  });

  test('without listWindows a preconnect to an origin that may be h2 opens one', () => {
    const t = setup(strategy('getlist'));
    t.scheduler.preconnect(S, 3);
    expect(t.transport.opened).toHaveLength(1);
  });
});
