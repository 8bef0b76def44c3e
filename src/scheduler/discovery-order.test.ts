import { Scheduler, strategy, type Strategy } from './index';
import type { PriorityClass } from '../core/priority';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';
import { PriorityQueue } from './priority-queue';
import { priorityRank } from '../core/priority';
import { mulberry32 } from '../core/prng';

const O = 'http://a.test';

/** A replay list arriving out of discovery order: [path, class, discovered at ms]. */
const LIST: Array<[string, PriorityClass, number]> = [
  ['/doc', 'document', 0],
  ['/late-css', 'blocking', 400],
  ['/img-a', 'image', 30],
  ['/script', 'script', 120],
  ['/img-b', 'image', 30],
  ['/font', 'font', 250],
  ['/img-c', 'image', 10],
];

/** Serves the list one request at a time on one connection (the fake clock ticks 5 ms per response) and returns the wire order. */
function wireOrder(s: Strategy): string[] {
  const clock = new FakeClock(1000);
  const transport = new FakeTransport();
  const scheduler = new Scheduler({ strategy: s, transport, clock });
  for (const [path, priority, at] of LIST) scheduler.enqueue({ url: `${O}${path}`, priority, order: at });
  scheduler.connectionReady(1, { protocol: 'http/1.1' });
  for (let i = 0; i < LIST.length; i++) {
    const d = transport.sent[i];
    if (!d) throw new Error(`only ${i} of ${LIST.length} sent: ${transport.paths().join(', ')}`);
    clock.advance(5);
    scheduler.responseStarted(d.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentLength: 1 });
    scheduler.responseEnded(d.id, { bytes: 1 });
  }
  expect(scheduler.idle).toBe(true);
  return transport.paths();
}

/** The independent reference: a stable sort of the list by (class rank if prioritised, discovery time). */
function expected(prioritised: boolean): string[] {
  return LIST.map((x, i) => ({ x, i }))
    .sort((a, b) => (prioritised ? priorityRank(a.x[1]) - priorityRank(b.x[1]) : 0) || a.x[2] - b.x[2] || a.i - b.i)
    .map(({ x }) => x[0]);
}

describe('the strategy decides the order of a replayed list (order = discoveredAt)', () => {
  test('browser: FIFO by discovery time, whatever the list order or class; ties keep list order', () => {
    const order = wireOrder(strategy('browser', { connections: { maxPerOrigin: 1 } }));
    expect(order).toEqual(expected(false));
    expect(order).toEqual(['/doc', '/img-c', '/img-a', '/img-b', '/script', '/font', '/late-css']);
  });

  test('getlist: priority classes first, discovery time within a class', () => {
    const order = wireOrder(strategy('getlist', { connections: { maxPerOrigin: 1, fitToPath: false, preconnect: false }, pipelining: false }));
    expect(order).toEqual(expected(true));
    expect(order).not.toEqual(expected(false));
  });

  test('without order the queue stays FIFO in enqueue order (live discovery)', () => {
    const clock = new FakeClock();
    const transport = new FakeTransport();
    const scheduler = new Scheduler({ strategy: strategy('browser', { connections: { maxPerOrigin: 1 } }), transport, clock });
    for (const [path, priority] of LIST) scheduler.enqueue({ url: `${O}${path}`, priority });
    scheduler.connectionReady(1, { protocol: 'http/1.1' });
    for (const d of transport.sent) {
      scheduler.responseStarted(d.id, { status: 200, httpVersion: '1.1', keepAlive: true, contentLength: 1 });
      scheduler.responseEnded(d.id, { bytes: 1 });
    }
    expect(transport.paths()).toEqual(LIST.map((x) => x[0]));
  });

  test('a non-finite order is refused with E_INVALID_OPTION', () => {
    const scheduler = new Scheduler({ strategy: strategy('browser'), transport: new FakeTransport(), clock: new FakeClock() });
    expect(() => scheduler.enqueue({ url: `${O}/x`, priority: 'image', order: Number.NaN })).toThrow(expect.objectContaining({ code: 'E_INVALID_OPTION' }));
  });
});

test('PriorityQueue with order matches a stable sort by (class, order) under random pushes and shifts', () => {
  const rnd = mulberry32(7);
  const classes: PriorityClass[] = ['document', 'blocking', 'image', 'other'];
  for (const prioritised of [true, false]) {
    for (let round = 0; round < 100; round++) {
      const q = new PriorityQueue<{ priority: PriorityClass; order: number; n: number }>(prioritised);
      const ref: Array<{ priority: PriorityClass; order: number; n: number }> = [];
      let n = 0;
      for (let step = 0; step < 50; step++) {
        if (rnd() < 0.6) {
          const item = { priority: classes[Math.floor(rnd() * classes.length)] as PriorityClass, order: Math.floor(rnd() * 10), n: n++ };
          q.push(item);
          ref.push(item);
        } else {
          ref.sort((a, b) => (prioritised ? priorityRank(a.priority) - priorityRank(b.priority) : 0) || a.order - b.order || a.n - b.n);
          expect(q.shift()).toBe(ref.shift());
        }
        expect(q.size).toBe(ref.length);
      }
    }
  }
});
