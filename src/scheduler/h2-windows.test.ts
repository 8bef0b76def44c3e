import { Scheduler, strategy, type Strategy } from './index';
import { InMemoryOriginMemory } from '../origins/origin-memory';
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

type Setup = ReturnType<typeof setup>;

/**
 * D's document (the load's first request, on connection 1) starts, and its body arrives as h2
 * DATA frames: `[bytes, ms after the one before]`.
 */
function docFrames(t: Setup, frames: ReadonlyArray<readonly [number, number]>): void {
  const doc = t.transport.dispatchOf('/doc').id;
  t.scheduler.responseStarted(doc, { status: 200, httpVersion: '2', keepAlive: true });
  for (const [bytes, gap] of frames) {
    t.clock.advance(gap);
    t.scheduler.responseData(doc, bytes);
  }
}

/** Two 8 kB frames in the same millisecond: a link with room for any number of windows. */
const ROOMY = [[8192, 0], [8192, 0]] as const;

/** D's document connection ready after `handshakeMs` (its TCP round trip half of it), then its first flight. */
function docLoaded(s: Strategy, handshakeMs: number, frames: ReadonlyArray<readonly [number, number]> = ROOMY, loopDelayMs?: number): Setup {
  const t = setup(s);
  t.add(`${D}/doc`);
  t.clock.advance(handshakeMs);
  t.scheduler.connectionReady(1, { protocol: 'h2', handshakeRttMs: handshakeMs / 2, ...(loopDelayMs !== undefined ? { loopDelayMs } : {}) });
  docFrames(t, frames);
  return t;
}

/** Connections S opens for 4 waiting images once D's handshake, the load's only one, took `handshakeMs`. */
function openedAfterHandshake(handshakeMs: number): number {
  const t = docLoaded(strategy('getlist'), handshakeMs);
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
    t.scheduler.connectionReady(1, { protocol: 'h2', handshakeRttMs: 1.5 });
    t.clock.advance(60);
    t.scheduler.connectionReady(2, { protocol: 'h2', handshakeRttMs: 30 }); // 63 ms: past the threshold, but the path answered in 3
    docFrames(t, ROOMY);
    for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toHaveLength(1);
    // The threshold itself: a quickest handshake of 29 ms keeps one connection, 30 ms opens more.
    expect(openedAfterHandshake(29)).toBe(1);
    expect(openedAfterHandshake(30)).toBe(4);
  });

  test('the process\'s own busy loop is no part of the path: a 40 ms handshake of which 35 ms was loop delay opens nothing more; the same with 5 ms of it does (CI: 36 connections to 10 loopback origins)', () => {
    const opened = (loopDelayMs: number) => {
      const t = docLoaded(strategy('getlist'), 40, ROOMY, loopDelayMs);
      for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
      return t.opened(S).length;
    };
    expect(opened(35)).toBe(1);
    expect(opened(5)).toBe(4);
  });

  test('a learned list opens no windows when the first handshake is measured while it waits (the revisit\'s t = 0 burst already fills the path); the same demand unlisted does', () => {
    const run = (listed: boolean) => {
      const t = setup(strategy('getlist'));
      t.add(`${D}/doc`);
      for (let i = 0; i < 4; i++) t.scheduler.enqueue({ url: `${S}/i${i}`, priority: 'image', resourceType: 'image', listed });
      expect(t.opened(S)).toHaveLength(1);
      t.clock.advance(200);
      t.scheduler.connectionReady(1, { protocol: 'h2', handshakeRttMs: 100 });
      docFrames(t, ROOMY);
      return t.opened(S).length;
    };
    expect(run(false)).toBe(4);
    expect(run(true)).toBe(1);
  });

  test('the first connection up takes one stream while siblings opened with it connect; then the least loaded; a sibling opened a handshake later is not waited for', () => {
    // The document's origin D (connection 1) took 200 ms to handshake: a slow path.
    const slowPath = (s: Strategy) => docLoaded(s, 200);
    const t = slowPath(strategy('getlist', { http2: { connectionsForDemand: 3 } }));
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

    // A sibling opened later is a whole handshake away: two requests end sooner on the ready one
    // alone (its second round) than on a sibling up 150 ms later, so it does not wait for it.
    const late = slowPath(strategy('getlist', { http2: { connectionsForDemand: 2 } }));
    late.add(`${S}/a`);
    late.clock.advance(150);
    late.add(`${S}/b`); // opens #3, 150 ms after #2
    expect(late.opened(S)).toEqual([2, 3]);
    late.clock.advance(50);
    late.scheduler.connectionReady(2, { protocol: 'h2' });
    expect(late.transport.on(2).map((d) => d.request.path)).toEqual(['/a', '/b']);
  });
  test('siblings opened a handshake later for waiting requests carry their share: the first connection up takes what its early rounds deliver, not the whole burst', () => {
    // D took 200 ms to handshake (round trip 100). S's first image opens #2 at t = 200; eleven
    // more found 100 ms later open #3–#7, expected up at 500.
    const t = docLoaded(strategy('getlist'), 200);
    t.add(`${S}/i0`);
    t.clock.advance(100);
    for (let i = 1; i < 12; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toEqual([2, 3, 4, 5, 6, 7]);
    t.clock.advance(100);
    t.scheduler.connectionReady(2, { protocol: 'h2', handshakeRttMs: 100 });
    // Round ends: #2 delivers 1 window by 500, 3 by 600, 7 by 700; the five siblings 1 each by 600,
    // 3 by 700. Twelve end at 700: 8 by 600, the 4 left shared 4 : 10 → #2 carries 3 + 2.
    expect(t.transport.on(2).map((d) => d.request.path)).toEqual(['/i0', '/i1', '/i2', '/i3', '/i4']);
    // A render-blocking sheet found meanwhile is not held for them: it goes now.
    t.scheduler.enqueue({ url: `${S}/late.css`, priority: 'blocking', resourceType: 'stylesheet' });
    expect(t.transport.on(2).map((d) => d.request.path)).toContain('/late.css');
    t.clock.advance(100);
    for (const id of [3, 4, 5, 6, 7]) t.scheduler.connectionReady(id, { protocol: 'h2' });
    expect([3, 4, 5, 6, 7].flatMap((id) => t.transport.on(id).map((d) => d.request.path)).sort()).toEqual(['/i10', '/i11', '/i5', '/i6', '/i7', '/i8', '/i9']);
    expect([2, 3, 4, 5, 6, 7].map((id) => t.transport.on(id).length)).toEqual([6, 2, 2, 1, 1, 1]);

    // A sibling overdue by a whole round trip is not waited for: once the pump runs past that
    // (here #2's first answer, at 700: the siblings were expected at 500), the one up takes the rest.
    const late = docLoaded(strategy('getlist'), 200);
    late.add(`${S}/i0`);
    late.clock.advance(100);
    for (let i = 1; i < 12; i++) late.add(`${S}/i${i}`);
    late.clock.advance(100);
    late.scheduler.connectionReady(2, { protocol: 'h2', handshakeRttMs: 100 });
    expect(late.transport.on(2)).toHaveLength(5);
    late.clock.advance(300);
    const first = late.transport.dispatchOf('/i0').id;
    late.scheduler.responseStarted(first, { status: 200, httpVersion: '2', keepAlive: true });
    late.scheduler.responseEnded(first, { bytes: 1000 });
    expect(late.transport.on(2)).toHaveLength(12);
  });

  test('the windows wait for the load\'s first flight: none while it is unmeasured, and requests already waiting get theirs once a flight shows room', () => {
    const t = setup(strategy('getlist'));
    t.add(`${D}/doc`);
    t.clock.advance(200);
    t.scheduler.connectionReady(1, { protocol: 'h2', handshakeRttMs: 100 });
    for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toHaveLength(1);
    // One 8 kB frame is not a rate: h2 delivers whole frames, however slow the link.
    docFrames(t, [[8192, 0]]);
    expect(t.opened(S)).toHaveLength(1);
    t.scheduler.responseData(t.transport.dispatchOf('/doc').id, 8192);
    expect(t.opened(S)).toHaveLength(4);
  });

  test('a link with little room (10 Mbit/s, 40 ms: 2 × 50 kB ÷ 14,480 B = 7 windows) opens only what it takes, counting every origin\'s busy connections', () => {
    // 8 kB frames 6.5 ms apart: 1.26 B/µs, about 10 Mbit/s.
    const slow = [[8192, 0], [8192, 6.5]] as const;
    const t = docLoaded(strategy('getlist'), 80, slow);
    const E = 'https://e.test';
    const F = 'https://f.test';
    t.add(`${E}/style.css`);
    t.add(`${F}/font.woff2`);
    // Busy: D (the document, still arriving), E and F connecting: 3 of 7.
    for (let i = 0; i < 12; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toHaveLength(4);
    // The same load with room for any number: all six.
    const roomy = docLoaded(strategy('getlist'), 80);
    roomy.add(`${E}/style.css`);
    roomy.add(`${F}/font.woff2`);
    for (let i = 0; i < 12; i++) roomy.add(`${S}/i${i}`);
    expect(roomy.opened(S)).toHaveLength(6);
  });

  test('a link already full opens one connection per origin, as `h2` does', () => {
    // 1448-byte segments 11.6 ms apart over HTTP/1.1: 1 Mbit/s, 2 × 5 kB ÷ 14,480 B → 1 window.
    const t = setup(strategy('getlist'));
    t.add(`${D}/doc`);
    t.clock.advance(80);
    t.scheduler.connectionReady(1, { protocol: 'http/1.1', handshakeRttMs: 40 });
    const doc = t.transport.dispatchOf('/doc').id;
    t.scheduler.responseStarted(doc, { status: 200, httpVersion: '1.1', keepAlive: true });
    for (let i = 0; i < 5; i++) {
      t.clock.advance(i === 0 ? 0 : 11.6);
      t.scheduler.responseData(doc, 1448);
    }
    for (let i = 0; i < 4; i++) t.add(`${S}/i${i}`);
    expect(t.opened(S)).toHaveLength(1);
  });
});

describe('windows a preconnect hint opens (http2.connectionsForPreconnect)', () => {
  /** Connections S has once the document, on a path whose handshake took `handshakeMs`, names it in a hint. */
  const hinted = (s: Strategy, rel: 'preconnect' | 'dns-prefetch', handshakeMs = 200, frames: ReadonlyArray<readonly [number, number]> = ROOMY): number => {
    const t = docLoaded(s, handshakeMs, frames);
    t.scheduler.preconnectHint(S, rel);
    return t.opened(S).length;
  };

  test('on a far path with room, `<link rel=preconnect>` opens three connections before ALPN answers; `dns-prefetch` opens one', () => {
    expect(hinted(strategy('getlist'), 'preconnect')).toBe(3);
    expect(hinted(strategy('getlist'), 'dns-prefetch')).toBe(1);
  });

  test('one where extra h2 windows are not wanted: a near path, an http origin, the h2 strategy (as browsers), --h2-connections 1, a link with no room', () => {
    expect(hinted(strategy('getlist'), 'preconnect', 5)).toBe(1);
    const plain = docLoaded(strategy('getlist'), 200);
    plain.scheduler.preconnectHint('http://p.test', 'preconnect');
    expect(plain.opened('http://p.test')).toHaveLength(1);
    expect(hinted(strategy('h2'), 'preconnect')).toBe(1);
    expect(hinted(strategy('getlist', { http2: { connectionsForDemand: 1 } }), 'preconnect')).toBe(1);
    // The document's second frame 65 ms after its first: about 126 B/ms, under two windows of the link in a round trip, the document's own connection busy.
    expect(hinted(strategy('getlist'), 'preconnect', 200, [[8192, 0], [8192, 65]])).toBe(1);
  });

  test('the hint’s connections take the burst the page then finds there, one request each while they are the least loaded', () => {
    const t = docLoaded(strategy('getlist'), 200);
    t.scheduler.preconnectHint(S, 'preconnect');
    t.clock.advance(200);
    for (const id of t.opened(S)) t.scheduler.connectionReady(id, { protocol: 'h2' });
    for (let i = 0; i < 3; i++) t.scheduler.enqueue({ url: `${S}/f${i}.woff2`, priority: 'font', resourceType: 'font' });
    expect(t.opened(S).map((id) => t.transport.on(id).length)).toEqual([1, 1, 1]);
  });
});
