import { InMemoryOriginMemory, Scheduler, strategy, type Strategy } from './index';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const S = 'https://s.test';
const D = 'https://d.test';

function setup(s: Strategy, memory?: InMemoryOriginMemory) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const scheduler = new Scheduler({ strategy: s, transport, clock, ...(memory ? { memory } : {}) });
  const add = (url: string) => scheduler.enqueue({ url, priority: 'image', resourceType: 'image' });
  const opened = (origin: string) => transport.opened.filter((c) => c.origin === origin).map((c) => c.id);
  return { clock, transport, scheduler, add, opened };
}

/** Connections S opens for 4 waiting images once D's handshake, the load's only one, took `handshakeMs`. */
function openedAfterHandshake(handshakeMs: number): number {
  const t = setup(strategy('getlist'));
  t.add(`${D}/doc`);
  t.clock.advance(handshakeMs);
  t.scheduler.connectionReady(1, { protocol: 'h2' });
  for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
  return t.opened(S).length;
}

describe('HTTP/2 windows for demand (h2-windows.ts)', () => {
  test('a remembered round trip alone opens nothing more at t = 0 (a whole learned list at once overflows a capped link); a handshake of this load does', () => {
    const memory = new InMemoryOriginMemory();
    memory.put({ origin: S, protocol: 'h2', rttMs: 100 });
    const known = setup(strategy('getlist'), memory);
    for (let i = 0; i < 8; i++) known.add(`${S}/i${i}`);
    expect(known.opened(S)).toHaveLength(1);
  });

  test('a slow handshake measured on another origin opens windows for what waits on a handshaking one; a quick one does not', () => {
    expect(openedAfterHandshake(200)).toBe(4);
    expect(openedAfterHandshake(5)).toBe(1);
  });

  test('the quickest handshake of the load judges the path: one slowed by a busy machine after a quick one opens nothing more (CI: loopback TLS past 10 ms opened 31 connections to 10 origins)', () => {
    const E = 'https://e.test';
    const t = setup(strategy('getlist'));
    t.add(`${D}/doc`);
    t.add(`${E}/x`);
    t.clock.advance(3);
    t.scheduler.connectionReady(1, { protocol: 'h2' });
    t.clock.advance(60);
    t.scheduler.connectionReady(2, { protocol: 'h2' }); // 63 ms: past the threshold, but the path answered in 3
    for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toHaveLength(1);
    // The threshold itself: a quickest handshake of 29 ms keeps one connection, 30 ms opens more.
    expect(openedAfterHandshake(29)).toBe(1);
    expect(openedAfterHandshake(30)).toBe(4);
  });

  test('the process\'s own busy loop is no part of the path: a 40 ms handshake of which 35 ms was loop delay opens nothing more; the same with 5 ms of it does (CI: 36 connections to 10 loopback origins)', () => {
    const opened = (loopDelayMs: number) => {
      const t = setup(strategy('getlist'));
      t.add(`${D}/doc`);
      t.clock.advance(40);
      t.scheduler.connectionReady(1, { protocol: 'h2', loopDelayMs });
      for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
      return t.opened(S).length;
    };
    expect(opened(35)).toBe(1);
    expect(opened(5)).toBe(4);
  });

  test('a learned list opens no windows when the first handshake is measured while it waits (the revisit\'s t = 0 burst already fills the path; session 21: real-news revisit at 10 Mbit/s 931 → 1,087 ms); the same demand unlisted does', () => {
    const run = (listed: boolean) => {
      const t = setup(strategy('getlist'));
      t.add(`${D}/doc`);
      for (let i = 0; i < 4; i++) t.scheduler.enqueue({ url: `${S}/i${i}`, priority: 'image', resourceType: 'image', listed });
      expect(t.opened(S)).toHaveLength(1);
      t.clock.advance(200);
      t.scheduler.connectionReady(1, { protocol: 'h2' });
      return t.opened(S).length;
    };
    expect(run(false)).toBe(4);
    expect(run(true)).toBe(1);
  });

  test('the first connection up takes one stream while siblings opened with it connect; then the least loaded; a sibling opened a handshake later is not waited for', () => {
    // The document's origin D (connection 1) took 200 ms to handshake: a slow path.
    const slowPath = (s: Strategy) => {
      const t = setup(s);
      t.add(`${D}/doc`);
      t.clock.advance(200);
      t.scheduler.connectionReady(1, { protocol: 'h2' });
      return t;
    };
    const t = slowPath(strategy('getlist', { h2ConnectionsForDemand: 3 }));
    for (let i = 0; i < 3; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toEqual([2, 3, 4]);
    t.clock.advance(200);
    t.scheduler.connectionReady(2, { protocol: 'h2' });
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/i0']);
    t.scheduler.connectionReady(3, { protocol: 'h2' });
    expect(t.transport.on(3).map((d) => d.request.path)).toEqual(['/i1']);
    t.scheduler.connectionReady(4, { protocol: 'h2' });
    expect(t.transport.on(4).map((d) => d.request.path)).toEqual(['/i2']);
    // All up: a burst goes to the least loaded, several at once.
    for (let i = 3; i < 9; i++) t.add(`${S}/i${i}`);
    expect([2, 3, 4].map((id) => t.transport.on(id).length)).toEqual([3, 3, 3]);

    // A sibling opened later is a whole handshake away: the ready one does not wait for it.
    const late = slowPath(strategy('getlist', { h2ConnectionsForDemand: 2 }));
    late.add(`${S}/a`);
    late.clock.advance(150);
    late.add(`${S}/b`); // opens #3, 150 ms after #2
    expect(late.opened(S)).toEqual([2, 3]);
    late.clock.advance(50);
    late.scheduler.connectionReady(2, { protocol: 'h2' });
    expect(late.transport.on(2).map((d) => d.request.path)).toEqual(['/a', '/b']);
  });
});
