/**
 * `--pool`: the pairs of several runs' `--json` output joined into one paired figure. Checked
 * against figures computed by hand from the same loads, and on the files the bench writes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOverheadArgs } from '../../bench/overhead/overhead-args';
import type { OverheadLoad } from '../../bench/overhead/overhead-load';
import { formatPooledTable, poolCells, poolFiles } from '../../bench/overhead/overhead-pool';
import { overheadCell, type OverheadCell } from '../../bench/overhead/overhead-table';
import { emptyCpu } from '../../bench/overhead/process-cpu';

const load = (domContentLoadedMs: number, responseStartMs = 5): OverheadLoad => ({
  loadMs: domContentLoadedMs + 10, domContentLoadedMs, responseStartMs, resources: 20, scriptMs: Number.NaN, scriptAtLoadMs: Number.NaN, taskMs: Number.NaN, cpuAtLoad: emptyCpu(), cpu: emptyCpu(),
});
const cell = (plain: number[], ext: number[], variant = 'lean'): OverheadCell => overheadCell(20, variant, plain.map((x) => load(x)), ext.map((x) => load(x)), { link: 'loopback', loadAverage: [1, 1], browser: 'chromium', tab: 'fresh' });

describe('--pool', () => {
  // Run A: the extension adds 3 ms to each of 3 pairs; run B adds 0 ms to each of 4. Pooled, the
  // 7 per-pair differences are 3,3,3,0,0,0,0: median 0. The mean of the runs' medians would say 1.5.
  const a = cell([30, 31, 32], [33, 34, 35]);
  const b = cell([30, 30, 31, 31], [30, 30, 31, 31]);

  it('each --json cell keeps its pairs in run order', () => {
    expect(a.pairs).toHaveLength(3);
    expect(a.pairs?.[1]).toEqual({ plain: { loadMs: 41, domContentLoadedMs: 31, responseStartMs: 5 }, extension: { loadMs: 44, domContentLoadedMs: 34, responseStartMs: 5 } });
  });

  it('pools pairs, not medians: the median over all pairs of both runs', () => {
    const [pooled, ...rest] = poolCells([{ file: 'a.json', cells: [a] }, { file: 'b.json', cells: [b] }]);
    expect(rest).toEqual([]);
    expect(pooled).toMatchObject({ browser: 'chromium', link: 'loopback', resources: 20, tab: 'fresh', variant: 'lean', pairs: 7 });
    expect(pooled?.paired.domContentLoadedDeltaMs.value).toBe(0);
    expect(pooled?.runs).toEqual([
      { file: 'a.json', pairs: 3, domContentLoadedRatio: a.paired.domContentLoadedRatio.value, domContentLoadedDeltaMs: 3 },
      { file: 'b.json', pairs: 4, domContentLoadedRatio: 1, domContentLoadedDeltaMs: 0 },
    ]);
    const row = formatPooledTable([pooled!]).split('\n')[1] ?? '';
    expect(row).toMatch(/^loopback\s+chromium\s+fresh\s+20\s+lean\s+2\s+7\s/);
    expect(row).toMatch(/1\.097 \(3\), 1\.000 \(4\)\s+PASS$/);
  });

  it('keeps different builds, pages and browsers apart', () => {
    const sham = cell([30], [31], 'sham (a second Chromium alone)');
    const pooled = poolCells([{ file: 'a.json', cells: [a, sham] }, { file: 'b.json', cells: [b] }]);
    expect(pooled.map((p) => [p.variant, p.pairs])).toEqual([['lean', 7], ['sham (a second Chromium alone)', 1]]);
  });

  it('reads the files the bench writes, and refuses what it cannot pool with E_BENCH_USAGE naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pool-'));
    try {
      const file = (name: string, text: string) => {
        writeFileSync(join(dir, name), text);
        return join(dir, name);
      };
      const fa = file('a.json', JSON.stringify([a]));
      const fb = file('b.json', JSON.stringify([b]));
      expect(poolFiles([fa, fb])[0]?.pairs).toBe(7);
      const { pairs: _dropped, ...old } = a;
      const oldFile = file('old.json', JSON.stringify([old]));
      expect(() => poolFiles([fa, oldFile])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining(`${oldFile} (chromium, loopback, 20 resources, fresh tab, lean) has no per-pair loads`) }));
      const table = file('table.txt', 'link  resources\n');
      expect(() => poolFiles([table])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('is not JSON') }));
      expect(() => poolFiles([file('obj.json', '{"cells":[]}')])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('an array of cells') }));
      const broken = file('broken.json', JSON.stringify([{ ...a, pairs: [{ plain: { loadMs: 1 }, extension: a.pairs?.[0]?.extension }] }]));
      expect(() => poolFiles([broken])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('holds a pair without') }));
      expect(() => poolFiles([join(dir, 'missing.json')])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('cannot read') }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the command line: --pool takes a list and runs nothing, so run options with it are refused', () => {
    expect(parseOverheadArgs(['--pool', 'a.json,b.json', '--json'])).toMatchObject({ pool: ['a.json', 'b.json'], json: true });
    expect(parseOverheadArgs([]).pool).toBeUndefined();
    expect(() => parseOverheadArgs(['--pool', 'a.json', '--runs', '5'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('--pool runs nothing; --runs would be ignored') }));
    expect(() => parseOverheadArgs(['--pool', ','])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('name at least one') }));
  });
});
