import { PeakDelivery } from './peak-delivery';

describe('the most a load received over a round trip', () => {
  test('nothing counted before a round trip is known, or before any byte', () => {
    const p = new PeakDelivery();
    expect(p.bytesPerMs).toBeUndefined();
    p.add(1000, 0, undefined);
    expect(p.bytesPerMs).toBeUndefined();
  });

  test('a steady 1,250 bytes/ms (10 Mbit/s) reads as that, however the reads are spaced within the window', () => {
    const p = new PeakDelivery();
    // Chunks of 12,500 B every 10 ms, over a 100 ms round trip.
    for (let t = 0; t < 1000; t += 10) p.add(12_500, t, 100);
    expect(p.bytesPerMs).toBeCloseTo(1250, 0);
    // The same bytes read in bursts (a busy event loop: 50 ms late, then all at once) read no faster.
    const q = new PeakDelivery();
    for (let t = 0; t < 1000; t += 50) q.add(62_500, t, 100);
    expect(q.bytesPerMs as number).toBeLessThanOrEqual(1250);
  });

  test('a burst of slow start counts only within its window: round trips apart, the busiest one is the peak', () => {
    const p = new PeakDelivery();
    // Window rounds of 14, 29 and 58 kB arriving at once, a round trip apart.
    p.add(14_480, 0, 100);
    p.add(28_960, 100, 100);
    p.add(57_920, 200, 100);
    expect(p.bytesPerMs).toBeCloseTo(579.2, 1);
  });

  test('a near path (or a relay that hides the round trip) counts over 100 ms: a read 30 ms late over-reads by at most 30 %', () => {
    const p = new PeakDelivery();
    // 1,250 bytes/ms arriving, read in one go after a 30 ms stall, then steadily.
    p.add(37_500, 30, 0.2);
    for (let t = 40; t < 500; t += 10) p.add(12_500, t, 0.2);
    expect(p.bytesPerMs as number).toBeLessThanOrEqual(1250 * 1.3);
    expect(p.bytesPerMs as number).toBeGreaterThan(1250);
  });

  test('a link that limits the load holds its peak window after window: held', () => {
    const p = new PeakDelivery();
    for (let t = 0; t < 1000; t += 10) p.add(12_500, t, 100);
    expect(p.held).toBe(true);
    // Read in bursts by a loop busy 50 ms before each read, still held.
    const q = new PeakDelivery();
    for (let t = 0; t < 1000; t += 50) q.add(62_500, t, 100, 50);
    expect(q.held).toBe(true);
  });

  test('a read counts from the earliest moment its bytes may have arrived: a loop busy a whole round trip before each read still holds the link\'s rate', () => {
    const late = new PeakDelivery();
    for (let t = 0; t < 1000; t += 100) late.add(125_000, t, 100, 100);
    expect(late.held).toBe(true);
    // The same reads from a loop that was idle: each window got its bytes at one instant.
    const idle = new PeakDelivery();
    for (let t = 0; t < 1000; t += 100) idle.add(125_000, t, 100, 0);
    expect(idle.held).toBe(false);
  });

  test('one connection paced by discovery: an equal burst of a few ms each round trip is the load\'s demand, not held', () => {
    // About 25 kB a round trip, each in three reads within 5 ms, then nothing until the next.
    const p = new PeakDelivery();
    for (let round = 0; round < 4; round++) for (const [dt, bytes] of [[0, 9_000], [2, 9_000], [5, 7_000]] as const) p.add(bytes, 100 * round + dt, 100);
    expect(p.bytesPerMs).toBeCloseTo(250, 0);
    expect(p.held).toBe(false);
    // The same 25 kB a round trip through a 2 Mbit/s link: a segment every 6 ms, the whole round trip.
    const q = new PeakDelivery();
    for (let t = 0; t < 400; t += 6) q.add(1_500, t, 100);
    expect(q.held).toBe(true);
  });

  test('slow start\'s bursts, each round twice the one before, are the load\'s demand: not held', () => {
    const p = new PeakDelivery();
    for (const [i, bytes] of [14_480, 28_960, 57_920, 115_840].entries()) p.add(bytes, i * 100, 100);
    expect(p.bytesPerMs).toBeCloseTo(1158.4, 1);
    expect(p.held).toBe(false);
    // One burst, and a trickle after it: not held either.
    const q = new PeakDelivery();
    q.add(180_000, 0, 100);
    for (let t = 10; t < 600; t += 10) q.add(1_000, t, 100);
    expect(q.held).toBe(false);
  });

  test('a plateau counts only over three whole windows in a row, a gap between them breaks it', () => {
    const p = new PeakDelivery();
    // 100 kB in a window, nothing for a window, 100 kB in each of two more: no three in a row.
    for (let t = 0; t < 100; t += 10) p.add(10_000, t, 100);
    for (let t = 200; t < 400; t += 10) p.add(10_000, t, 100);
    expect(p.bytesPerMs).toBeCloseTo(1000, 0);
    expect(p.held).toBe(false);
    // Three windows back to back: held.
    const q = new PeakDelivery();
    for (let t = 0; t < 300; t += 10) q.add(10_000, t, 100);
    expect(q.held).toBe(true);
    // A stream that rises and falls, its busiest window 1.6 times its neighbours': a load's demand.
    const r = new PeakDelivery();
    for (const [i, kB] of [117, 135, 217, 149, 60].entries()) for (let t = 0; t < 100; t += 10) r.add(kB * 100, i * 100 + t, 100);
    expect(r.held).toBe(false);
  });
});
