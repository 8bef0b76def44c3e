import { DelayPipe } from '../../native-host/demo/delay-pipe';
import type { LinkClock } from '../../native-host/demo/link-clock';
import { SharedLink } from '../../native-host/demo/shared-link';

/** A manual clock: timers run only when the test advances time. */
class FakeClock implements LinkClock {
  private t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextId = 1;

  now(): number {
    return this.t;
  }
  setTimer(fn: () => void, delayMs: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.t + delayMs, fn });
    return id;
  }
  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  get pendingTimers(): number {
    return this.timers.size;
  }
  /** Runs due timers in time order up to `to`. */
  advanceTo(to: number): void {
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= to && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = to;
  }
}

function recorder(clock: FakeClock): { log: Array<[number, string]>; sink: { write(c: readonly Buffer[]): void; end(): void } } {
  const log: Array<[number, string]> = [];
  return {
    log,
    sink: {
      write: (chunks) => log.push([clock.now(), Buffer.concat(chunks).toString()]),
      end: () => log.push([clock.now(), 'FIN']),
    },
  };
}

describe('SharedLink', () => {
  it('serialises FIFO at the rate and never goes back in time', () => {
    const link = new SharedLink(8_000); // 1 byte per ms
    expect(link.transmit(0, 100)).toBe(100);
    expect(link.transmit(10, 50)).toBe(150); // queued behind the first
    expect(link.transmit(500, 0)).toBe(500); // idle link: a FIN leaves at once
    expect(link.transmit(500, 10)).toBe(510);
  });

  it('adds no delay at an unlimited rate', () => {
    expect(new SharedLink(Infinity).transmit(42, 1e9)).toBe(42);
  });
});

describe('DelayPipe', () => {
  it('delivers after serialisation plus the one-way delay, in order, FIN last', () => {
    const clock = new FakeClock();
    const link = new SharedLink(8_000);
    const { log, sink } = recorder(clock);
    const pipe = new DelayPipe({ link, oneWayMs: 50, clock, sink, segmentBytes: 4 });
    pipe.push(Buffer.from('abcdefgh')); // 2 segments: out at 4 and 8 ms
    pipe.end();
    expect(pipe.queuedBytes).toBe(8);
    clock.advanceTo(1_000);
    expect(log).toEqual([[54, 'abcd'], [58, 'efgh'], [58, 'FIN']]);
    expect(pipe.queuedBytes).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('shares one link between connections: the second waits for the first', () => {
    const clock = new FakeClock();
    const link = new SharedLink(8_000);
    const a = recorder(clock);
    const b = recorder(clock);
    const pa = new DelayPipe({ link, oneWayMs: 50, clock, sink: a.sink });
    const pb = new DelayPipe({ link, oneWayMs: 50, clock, sink: b.sink });
    pa.push(Buffer.alloc(1_000, 'a'));
    pb.push(Buffer.alloc(1_000, 'b'));
    clock.advanceTo(5_000);
    expect(a.log.map(([t]) => t)).toEqual([1_050]);
    expect(b.log.map(([t]) => t)).toEqual([2_050]);
  });

  it('keeps one timer per pipe however many chunks are queued', () => {
    const clock = new FakeClock();
    const { log, sink } = recorder(clock);
    const pipe = new DelayPipe({ link: new SharedLink(Infinity), oneWayMs: 10, clock, sink });
    for (let i = 0; i < 100; i++) pipe.push(Buffer.from(String(i % 10)));
    expect(clock.pendingTimers).toBe(1);
    clock.advanceTo(10);
    expect(log).toEqual([[10, '0123456789'.repeat(10)]]);
  });

  it('drops queued data and its timer on dispose', () => {
    const clock = new FakeClock();
    const { log, sink } = recorder(clock);
    const pipe = new DelayPipe({ link: new SharedLink(Infinity), oneWayMs: 10, clock, sink });
    pipe.push(Buffer.from('x'));
    pipe.dispose();
    pipe.push(Buffer.from('y'));
    clock.advanceTo(100);
    expect(log).toEqual([]);
    expect(clock.pendingTimers).toBe(0);
  });
});
