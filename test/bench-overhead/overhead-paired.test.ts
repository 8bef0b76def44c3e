/**
 * The overhead bench's fresh/warm tabs, Firefox and sham options, and its paired table: what the
 * command line accepts, and that the table's paired figures are those of the loads given.
 */
import { parseOverheadArgs } from '../../bench/overhead/overhead-args';
import { counterDelta, type OverheadLoad } from '../../bench/overhead/overhead-load';
import { formatPairedTable, formatTable, overheadCell } from '../../bench/overhead/overhead-table';
import { parseVariant } from '../../bench/overhead/overhead-variants';
import { emptyCpu } from '../../bench/overhead/process-cpu';
import { startOverheadSite } from '../../bench/overhead/overhead-site';

describe('--browser, --tabs, sham', () => {
  it('defaults keep the old run: Chromium, a fresh tab per load', () => {
    expect(parseOverheadArgs([])).toMatchObject({ browsers: ['chromium'], tabs: ['fresh'] });
  });

  it('lists, duplicates dropped; unknown names are usage errors naming what is expected', () => {
    expect(parseOverheadArgs(['--browser', 'chromium,firefox', '--tabs', 'warm,fresh,warm'])).toMatchObject({ browsers: ['chromium', 'firefox'], tabs: ['warm', 'fresh'] });
    expect(() => parseOverheadArgs(['--browser', 'safari'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('chromium or firefox') }));
    expect(() => parseOverheadArgs(['--tabs', 'hot'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('fresh or warm') }));
  });

  it('Firefox over the packet-level link is refused (its driver would have to run in the namespace)', () => {
    expect(() => parseOverheadArgs(['--browser', 'firefox', '--link', '40/none'])).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('--link runs Chromium only') }));
    expect(parseOverheadArgs(['--link', '40/none']).browsers).toEqual(['chromium']);
  });

  it('sham is a second browser alone: no extension, marked as the zero', () => {
    expect(parseVariant('sham')).toMatchObject({ off: [], noExtension: true, sham: true });
    expect(parseVariant('none').sham).toBeUndefined();
  });
});

describe('counters across a navigation', () => {
  it('the difference, or the value after when the tab moved to a renderer whose counters restart', () => {
    expect(counterDelta(10, 14.5)).toBe(4.5);
    expect(counterDelta(10, 10)).toBe(0);
    expect(counterDelta(50, 3)).toBe(3);
  });
});

describe('the paired table', () => {
  const load = (domContentLoadedMs: number, responseStartMs: number, loadMs = domContentLoadedMs + 2): OverheadLoad => ({
    loadMs, domContentLoadedMs, responseStartMs, resources: 20, scriptMs: Number.NaN, scriptAtLoadMs: Number.NaN, taskMs: Number.NaN, cpuAtLoad: emptyCpu(), cpu: emptyCpu(),
  });
  // Run-to-run drift shared by both browsers (20, 40, 30 ms), the extension adding 1 ms after the first byte.
  const plain = [load(20, 5), load(40, 10), load(30, 7)];
  const ext = [load(21, 5), load(41, 10), load(31, 7)];

  it('pairs run i with run i: +1 ms, all of it after the document\'s first byte', () => {
    const cell = overheadCell(20, 'lean', plain, ext, { link: 'loopback', loadAverage: [0.5, 0.7], browser: 'firefox', tab: 'warm' });
    expect(cell.paired.domContentLoadedDeltaMs).toEqual({ value: 1, interval: [1, 1] });
    expect(cell.paired.responseStartDeltaMs).toEqual({ value: 0, interval: [0, 0] });
    expect(cell.paired.parseDeltaMs).toEqual({ value: 1, interval: [1, 1] });
    // Per-pair ratios 21/20, 41/40, 31/30: their median is 31/30.
    expect(cell.paired.domContentLoadedRatio.value).toBe(1.033);
    expect(cell.plain.responseStartMs).toBe(7);
    const rows = formatPairedTable([cell]).split('\n');
    expect(rows[0]).toMatch(/^\s*link\s+browser\s+tab\s+resources\s+extension \(off\)\s+pairs\s+load avg\s+load ratio/);
    expect(rows[1]).toMatch(/^loopback\s+firefox\s+warm\s+20\s+lean\s+3\s+0\.5→0\.7\s+1\.\d{3} \[.*\]\s+1\.033 \[1\.025–1\.050\]\s+1\.00 \[1\.00–1\.00\]\s+0\.00 \[0\.00–0\.00\]\s+1\.00 \[1\.00–1\.00\]\s+30 ms\s+7 ms\s+MISS$/);
    // Firefox gives no script time: said so, not 0 and not NaN.
    expect(formatTable([cell]).split('\n')[1]).toMatch(/not exposed\s+not exposed\s+MISS\s+firefox\s+warm$/);
  });

  it('shifting the pairs by one run changes the figures: they are paired, not pooled', () => {
    const shifted = overheadCell(20, 'lean', plain, [ext[1], ext[2], ext[0]] as OverheadLoad[]);
    expect(shifted.paired.domContentLoadedDeltaMs.value).not.toBe(1);
    // The ratio of medians does not see the order.
    expect(shifted.domContentLoadedRatio).toBe(overheadCell(20, 'lean', plain, ext).domContentLoadedRatio);
  });
});

describe('the loopback site, as the runs address it', () => {
  it('serves the page and its images with each run\'s query string: 200, the same page, every image fetched once', async () => {
    const site = await startOverheadSite();
    try {
      const plainPage = await fetch(site.url(20));
      const runPage = await fetch(`${site.url(20)}?run=7&tab=warm`);
      expect(runPage.status).toBe(200);
      expect(runPage.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await runPage.text();
      expect(html).toBe(await plainPage.text());
      const srcs = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1] as string);
      expect(new Set(srcs).size).toBe(20);
      for (const src of srcs.slice(0, 3)) expect((await fetch(`${site.origin}${src}?x=1`)).status).toBe(200);
      expect((await fetch(`${site.origin}/page-x.html?run=1`)).status).toBe(404);
    } finally {
      await site.close();
    }
  });
});
