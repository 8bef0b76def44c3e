import { connectionsForPath, FlightRate, INITIAL_WINDOW_BYTES, SEGMENT_BYTES } from './path-estimate';

describe('FlightRate', () => {
  test('the rate of segments read one by one, the first chunk only starting the clock', () => {
    const f = new FlightRate(35);
    // 1.544 Mbit/s: a 1,448-byte segment every 7.5 ms.
    for (let i = 0; i < 5; i++) f.add(SEGMENT_BYTES, 100 + 7.5 * i);
    expect(f.countedBytes).toBe(4 * SEGMENT_BYTES);
    expect(f.estimate()).toBeCloseTo((4 * SEGMENT_BYTES) / 30, 6);
    expect(f.done).toBe(false);
  });

  test('no estimate from too few bytes; a gap ends the flight and later bytes do not count', () => {
    const f = new FlightRate(35);
    f.add(SEGMENT_BYTES, 0);
    f.add(SEGMENT_BYTES, 5);
    expect(f.estimate()).toBeUndefined();
    f.add(SEGMENT_BYTES, 100); // a round trip later: the next flight
    expect(f.done).toBe(true);
    f.add(50 * SEGMENT_BYTES, 101);
    expect(f.countedBytes).toBe(SEGMENT_BYTES);
    expect(f.estimate()).toBeUndefined();
  });

  test('a first chunk of four segments or more came faster than reads: unlimited', () => {
    const f = new FlightRate(50);
    f.add(9 * SEGMENT_BYTES, 0);
    expect(f.done).toBe(true);
    expect(f.estimate()).toBe(Infinity);
  });

  test('chunks sharing a timestamp count as 1 ms, not as infinitely fast', () => {
    const f = new FlightRate(50);
    for (let i = 0; i < 5; i++) f.add(SEGMENT_BYTES, 10);
    expect(f.estimate()).toBe(4 * SEGMENT_BYTES);
  });
});

describe('connectionsForPath', () => {
  const mbit = (m: number) => (m * 1e6) / 8 / 1000; // bytes per ms
  test.each([
    ['pm95: 1.544 Mbit/s, 70 ms', mbit(1.544), 70, 2],
    ['spdy-dsl: 2 Mbit/s, 80 ms', mbit(2), 80, 3],
    ['spdy-dsl: 2 Mbit/s, 20 ms', mbit(2), 20, 1],
    ['mobile: 1.6 Mbit/s, 150 ms', mbit(1.6), 150, 4],
    ['mcmanus: 20 Mbit/s, 100 ms', mbit(20), 100, 6],
  ])('%s → %i', (_name, rate, rtt, want) => {
    expect(connectionsForPath(rate, rtt, 6)).toBe(want);
  });

  test('2 × BDP ÷ initial window, rounded, between 1 and max; no usable estimate → max', () => {
    expect(connectionsForPath(INITIAL_WINDOW_BYTES / 100, 150, 6)).toBe(3);
    expect(connectionsForPath(INITIAL_WINDOW_BYTES / 100, 124, 6)).toBe(2);
    expect(connectionsForPath(1, 1, 6)).toBe(1);
    expect(connectionsForPath(Infinity, 100, 6)).toBe(6);
    expect(connectionsForPath(0, 100, 6)).toBe(6);
    expect(connectionsForPath(100, Number.NaN, 4)).toBe(4);
  });
});
