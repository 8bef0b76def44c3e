import { HistogramError } from '../../src/stats/histogram';

/** Latency-like values: zeros, whole ms, sub-ms µs values and a log-uniform spread 1 µs .. 100 s. */
export function sampleMs(rand: () => number): number {
  const r = rand();
  if (r < 0.05) return 0;
  if (r < 0.15) return Math.floor(rand() * 500);
  if (r < 0.25) return Math.floor(rand() * 300) / 1000;
  return 10 ** (-3 + rand() * 8);
}

export function randInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** The largest double below x (x > 0). */
export function prevDouble(x: number): number {
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] = (b[0] as bigint) - 1n;
  return f[0] as number;
}

export function expectHistogramError(fn: () => unknown, code: string, field?: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(HistogramError);
  const err = caught as HistogramError;
  expect(err.code).toBe(code);
  if (field !== undefined) expect(err.field).toBe(field);
  // Messages say what was expected and what arrived.
  expect(err.message).toMatch(/expected/);
}

export const PERCENTILES = [0, 0.1, 1, 5, 10, 25, 33.3, 50, 66.7, 75, 90, 95, 99, 99.9, 99.99, 100];
