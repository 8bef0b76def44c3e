import { InMemoryOriginMemory } from '../origins/origin-memory';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';
import { PeakDelivery } from './peak-delivery';
import { QUEUED_MS, QueueDelay } from './queue-delay';
import { Scheduler, strategy } from './index';

describe('how late first bytes came beyond a round trip (queue-delay.ts)', () => {
  test(`no verdict without a sample; from ${QUEUED_MS} ms late the median is a queue, below it not`, () => {
    const q = new QueueDelay();
    expect(q.medianMs).toBeUndefined();
    expect(q.queued).toBeUndefined();
    q.started(0, 100 + QUEUED_MS - 1, true, 100);
    // One sample decides.
    expect(q.size).toBe(1);
    expect(q.queued).toBe(false);
    q.started(0, 100 + QUEUED_MS + 1, true, 100);
    expect(q.medianMs).toBe(QUEUED_MS);
    expect(q.queued).toBe(true);
  });

  test('only a request that had its connection to itself, to an origin whose round trip is known, is a sample', () => {
    const q = new QueueDelay();
    for (let i = 0; i < 10; i++) {
      q.started(0, 300, false, 100); // behind others on its connection: its wait is theirs, not the path's
      q.started(0, 300, true, undefined);
    }
    expect(q.medianMs).toBeUndefined();
    expect(q.size).toBe(0);
  });

  test('the median, so a few slow answers do not make a queue, nor a few quick ones hide one', () => {
    const slowServer = new QueueDelay();
    for (const late of [1, 2, 2, 3, 4, 250, 400]) slowServer.started(10, 110 + late, true, 100);
    expect(slowServer.medianMs).toBe(3);
    expect(slowServer.queued).toBe(false);
    const full = new QueueDelay();
    for (const late of [0, 1, 35, 40, 42, 60, 80, 90]) full.started(10, 110 + late, true, 100);
    expect(full.medianMs).toBe(41);
    expect(full.queued).toBe(true);
  });
});

/**
 * A first load, simulated on the fake transport, whose origins each ask one 12 kB image at a time
 * (as a page's discovery does), so every request has its connection to itself: answered `lateMs`
 * beyond a 100 ms round trip, its body in chunks 4 ms apart over `bodyMs` (at least six). `waveGapMs`
 * between rounds of requests (0: the next request of an origin goes as soon as its last ended).
 * What the load remembered of the link, and what the delivery's shape alone would have said.
 */
function firstLoad(lateMs: number, waveGapMs: number, origins = 8, rounds = 6, bodyMs = 20): { held: boolean | undefined; shapeHeld: boolean } {
  const chunks = Math.max(6, Math.floor(bodyMs / 4) + 1);
  const chunkBytes = Math.floor(12_000 / chunks);
  const chunkAt = (k: number): number => (k === chunks - 1 ? 12_000 - chunkBytes * (chunks - 1) : chunkBytes);
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const memory = new InMemoryOriginMemory();
  const scheduler = new Scheduler({ strategy: strategy('getlist'), transport, clock, memory });
  const shape = new PeakDelivery();
  const names = Array.from({ length: origins }, (_, i) => `https://o${i}.test`);
  const asked = new Map(names.map((o) => [o, 0]));
  const nextAt = new Map(names.map((o) => [o, 0]));
  const ready = new Set<number>();
  const answered = new Set<number>();
  /** When each dispatch was written: the tick it first showed up on the transport. */
  const sentAt = new Map<number, number>();
  const RTT = 100;
  for (let t = 0; t < 10_000; t++) {
    for (const o of names) {
      if (nextAt.get(o) === t && (asked.get(o) as number) < rounds) {
        const n = asked.get(o) as number;
        asked.set(o, n + 1);
        scheduler.enqueue({ url: `${o}/i${n}.gif`, priority: 'image', resourceType: 'image' });
      }
    }
    for (const c of transport.opened) {
      if (!ready.has(c.id) && t >= 2 * RTT) {
        ready.add(c.id);
        scheduler.connectionReady(c.id, { protocol: 'h2', handshakeRttMs: RTT });
      }
    }
    for (const d of transport.sent) {
      if (answered.has(d.id)) continue;
      if (!sentAt.has(d.id)) sentAt.set(d.id, t);
      const start = (sentAt.get(d.id) as number) + RTT + lateMs;
      if (t === start) scheduler.responseStarted(d.id, { status: 200, httpVersion: '2', keepAlive: true, contentLength: 12_000 });
      for (let k = 0; k < chunks; k++) {
        if (t === start + 4 * k) {
          scheduler.responseData(d.id, chunkAt(k));
          shape.add(chunkAt(k), t, RTT);
        }
      }
      if (t === start + 4 * (chunks - 1)) {
        scheduler.responseEnded(d.id, { bytes: 12_000 });
        answered.add(d.id);
        nextAt.set(new URL(d.request.url).origin, t + 1 + waveGapMs);
      }
    }
    if (answered.size === origins * rounds) break;
    clock.advance(1);
  }
  expect(answered.size).toBe(origins * rounds);
  scheduler.close();
  return { held: memory.get(names[0] as string)?.peakHeld, shapeHeld: shape.held };
}

describe('whether a first load’s peak was the link’s rate (path-pacing.ts `loadEnded`)', () => {
  test('a steady stream answered on time is the load’s own demand, though it held its peak window after window', () => {
    // Each body takes three round trips to arrive: the windows are busy from end to end.
    const steady = firstLoad(2, 0, 8, 6, 300);
    expect(steady.shapeHeld).toBe(true);
    expect(steady.held).toBe(false);
  });

  test('answers that waited in a queue say the link set the rate, though the load came in bursts', () => {
    const bursts = firstLoad(60, 400);
    expect(bursts.shapeHeld).toBe(false);
    expect(bursts.held).toBe(true);
  });

  test('a page of a few requests is judged by its few answers, even where its shape held', () => {
    const few = firstLoad(2, 0, 1, 4, 300);
    expect(few.shapeHeld).toBe(true);
    expect(few.held).toBe(false);
  });
});
