import { DEFAULT_MAX_MS, Histogram } from './histogram';
import { mulberry32 } from '../core/prng';
import { expectHistogramError, PERCENTILES, randInt, sampleMs } from '../../test/support/histogram-samples';

describe('Histogram.merge', () => {
  /** Random data including overflowed values and repeated counts. */
  function randomData(rand: () => number): Array<[ms: number, count: number]> {
    const n = randInt(rand, 0, 150);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      const ms = rand() < 0.03 ? DEFAULT_MAX_MS + rand() * 1e8 : sampleMs(rand);
      out.push([ms, rand() < 0.8 ? 1 : randInt(rand, 2, 9)]);
    }
    return out;
  }

  function shuffled<T>(rand: () => number, xs: readonly T[]): T[] {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j] as T, a[i] as T];
    }
    return a;
  }

  it('of any split equals the histogram of the union (property, 400 random splits)', () => {
    const rand = mulberry32(42);
    for (let trial = 0; trial < 400; trial++) {
      const data = randomData(rand);
      const whole = new Histogram();
      for (const [ms, c] of shuffled(rand, data)) whole.record(ms, c);

      const k = randInt(rand, 2, 5);
      const parts = Array.from({ length: k }, () => new Histogram());
      for (const [ms, c] of data) (parts[randInt(rand, 0, k - 1)] as Histogram).record(ms, c);
      const partJSON = parts.map((p) => p.toJSON());

      const order = shuffled(rand, parts);
      const merged = (order[0] as Histogram).clone();
      for (const p of order.slice(1)) merged.merge(p);

      expect(merged.toJSON()).toEqual(whole.toJSON());
      expect(parts.map((p) => p.toJSON())).toEqual(partJSON); // Inputs untouched.
      for (const p of PERCENTILES) expect(merged.percentile(p)).toBe(whole.percentile(p));
    }
  });

  it('keeps the sum exact where floating-point addition would depend on order', () => {
    expect((0.1 + 0.2) + 0.3).not.toBe(0.1 + (0.2 + 0.3)); // The hazard being guarded against.
    const a = new Histogram();
    a.record(0.1);
    a.record(0.2);
    const b = new Histogram();
    b.record(0.3);
    const c = new Histogram();
    c.record(0.2);
    c.record(0.3);
    const d = new Histogram();
    d.record(0.1);
    expect(a.merge(b).toJSON()).toEqual(c.merge(d).toJSON());
    expect(a.sum).toBe(0.6);
  });

  it('merges empty histograms and itself', () => {
    const h = new Histogram();
    h.merge(new Histogram());
    expect(h.toJSON()).toEqual(new Histogram().toJSON());
    h.record(1);
    h.record(7000000);
    new Histogram().merge(h);
    const doubled = new Histogram();
    doubled.record(1, 2);
    doubled.record(7000000, 2);
    expect(h.merge(h).toJSON()).toEqual(doubled.toJSON());
    expect(h.overflow).toBe(2);
  });

  it('refuses to merge different schemes', () => {
    expectHistogramError(() => new Histogram().merge(new Histogram({ subBits: 6 })), 'E_HISTOGRAM_SCHEME');
    expectHistogramError(() => new Histogram().merge(new Histogram({ maxMs: 1000 })), 'E_HISTOGRAM_SCHEME');
    expect(() => new Histogram({ subBits: 6 }).merge(new Histogram({ subBits: 6 }))).not.toThrow();
  });

  it('clone is independent', () => {
    const h = new Histogram({ subBits: 5 });
    h.record(3);
    const c = h.clone();
    expect(c.toJSON()).toEqual(h.toJSON());
    c.record(4);
    expect(h.count).toBe(1);
    expect(c.count).toBe(2);
    expect(c.scheme.subBits).toBe(5);
  });
});
