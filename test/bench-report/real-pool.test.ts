import { poolRealCells } from '../../bench/real/real-pool';
import { median, type RealCellResult } from '../../bench/real/real-bench';

function cell(link: string, page: string, runs: Record<string, Array<number | null>>): RealCellResult {
  const each = <T>(f: (n: number) => T) => Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.map((_, i) => f(i))]));
  return {
    link, rttMs: 100, capBitsPerSec: null, page, requests: 3, runs,
    errors: Object.fromEntries(Object.keys(runs).map((k) => [k, []])),
    traces: each(() => []) as unknown as RealCellResult['traces'],
    server: each((i) => ({ requests: 3, heads: 0, connections: i + 1, protocols: ['HTTP/2.0'] })) as unknown as RealCellResult['server'],
  };
}

describe('real.js --report with several files (real-pool.ts)', () => {
  test('the loads of one link and page are pooled across files, in file order; a cell only one file has is kept', () => {
    const a = [cell('real-100', 'real-news', { getlist: [700, 710], h2: [900, null] }), cell('real-100', 'real-late', { getlist: [500] })];
    const b = [cell('real-100', 'real-news', { getlist: [720, 730], h2: [910, 920] }), cell('real-100-10m', 'real-news', { getlist: [1000] })];
    const pooled = poolRealCells([a, b]);
    expect(pooled.map((c) => `${c.link} ${c.page}`)).toEqual(['real-100 real-news', 'real-100 real-late', 'real-100-10m real-news']);
    const news = pooled[0] as RealCellResult;
    expect(news.runs).toEqual({ getlist: [700, 710, 720, 730], h2: [900, null, 910, 920] });
    expect(news.server.getlist?.map((s) => s.connections)).toEqual([1, 2, 1, 2]);
    expect(median(news.runs.getlist as number[])).toBe(715);
    // The inputs are left as they were.
    expect(a[0]?.runs.getlist).toEqual([700, 710]);
  });
});
