/**
 * The whole report on a SYNTHETIC results file (fixtures/README.md): no number here was measured.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseReportArgs, writeReport } from '../../bench/report';
import { judgeGoals } from '../../bench/report/goals';
import { parseResults } from '../../bench/report/load-results';
import { resultsMarkdown } from '../../bench/report/results-markdown';
import { pm95Figure, rttFigure } from '../../bench/report/svg-figures';
import type { BenchResults } from '../../bench/run/results-schema';
import { polylines, xmlProblems } from './xml-check';

const FIXTURE = join(__dirname, 'fixtures', 'synthetic-results.json');
const load = (): BenchResults => parseResults(readFileSync(FIXTURE, 'utf8'));

describe('results file validation', () => {
  it('names the first bad field', () => {
    expect(() => parseResults('{')).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT' }));
    expect(() => parseResults('{"meta":{},"cells":[{"page":"x","link":"y","linkParams":{"rttMs":"70"}}]}'))
      .toThrow('cells[0].linkParams.rttMs should be a number; got "70"');
    expect(() => parseResults('{"meta":{},"cells":[{"page":"x","link":"y","linkParams":{"rttMs":1,"downBitsPerSec":1,"upBitsPerSec":1,"loss":0},"contenders":[{"contender":"getlist","scheme":"ftp"}]}]}'))
      .toThrow('cells[0].contenders[0].scheme');
  });
});

describe('goals (synthetic fixture)', () => {
  const goals = judgeGoals(load());
  const find = (goal: RegExp, where: string) => goals.find((g) => goal.test(g.goal) && g.where === where);

  it('P&M: one row per page with N ≥ 10, with the ratio and both medians', () => {
    const rows = goals.filter((g) => g.goal.startsWith('P&M 2544'));
    expect(rows.map((r) => r.where)).toEqual(['pm95-2544-10 @ pm95', 'pm95-2544-20 @ pm95', 'pm95-2544-40 @ pm95']);
    expect(rows[0]?.verdict).toBe('PASS');
    expect(rows[0]?.measured).toMatch(/^\d+\.\d\d \([\d,]+ ms vs [\d,]+ ms\)$/);
    // The 45566-byte pages have no N = 20 cell: only 10 and 40 are judged.
    expect(goals.filter((g) => g.goal.startsWith('P&M 45566')).map((g) => g.where)).toEqual(['pm95-45566-10 @ pm95', 'pm95-45566-40 @ pm95']);
  });

  it('mcmanus-159: TTFB, browser and Chromium h1 ratios', () => {
    expect(find(/TTFB/, 'mcmanus-159 @ mcmanus-100')).toMatchObject({ verdict: 'PASS', measured: '3.46 (900 ms vs 260 ms)' });
    expect(find(/2× faster than browser/, 'mcmanus-159 @ mcmanus-100')?.verdict).toBe('PASS');
    expect(find(/Chromium over HTTP\/1.1/, 'mcmanus-159 @ mcmanus-100')).toMatchObject({ verdict: 'PASS', measured: '2.03 (1,300 ms vs 640 ms)' });
  });

  it('P&M and McManus compare getlist over http with http contenders', () => {
    expect(goals.find((g) => g.goal.startsWith('P&M'))?.target).toBe('http10 ÷ getlist ≥ 2.5');
    expect(find(/2× faster than browser/, 'mcmanus-159 @ mcmanus-100')?.measured).toBe('4.84 (3,100 ms vs 640 ms)');
  });

  it('spdy-dsl: getlist-tls against browser-tls and h2 (both https); RTT ≥ 80 ms without browser-tls is NOT RUN; a lossy cell is not judged', () => {
    expect(find(/30 %/, 'almanac-median @ spdy-dsl-80-0')).toMatchObject({ target: 'getlist-tls ÷ browser-tls ≤ 0.70', measured: '0.69: 31 % faster (10,120 ms vs 14,674 ms)' });
    expect(find(/within 10 %/, 'almanac-median @ spdy-dsl-80-0')?.target).toBe('getlist-tls ÷ h2 ≤ 1.10');
    expect(find(/30 %/, 'almanac-median @ spdy-dsl-80-0')?.verdict).toBe('PASS');
    expect(find(/30 %/, 'almanac-median @ spdy-dsl-120-0')?.verdict).toBe('NOT RUN');
    expect(find(/30 %/, 'almanac-median @ spdy-dsl-40-0')).toBeUndefined();
    expect(find(/within 10 %/, 'almanac-median @ spdy-dsl-40-0')?.verdict).toBe('PASS');
    expect(find(/within 10 %/, 'almanac-median @ spdy-dsl-200-0')?.verdict).toBe('NOT RUN');
    expect(find(/within 10 %/, 'almanac-median @ spdy-dsl-80-1')).toBeUndefined();
  });

  it('lower bound: a row per getlist contender per cell, each against its own scheme\'s bound; a failed cell is NOT RUN', () => {
    const rows = goals.filter((g) => g.goal.includes('lower bound'));
    const cells = load().cells;
    const ran = (name: string) => cells.filter((c) => c.contenders.some((k) => k.contender === name)).length;
    expect(rows).toHaveLength(ran('getlist') + ran('getlist-tls') + 1);
    const mcmanus = rows.filter((r) => r.where === 'mcmanus-159 @ mcmanus-100');
    expect(mcmanus.map((r) => [r.target, r.measured])).toEqual([
      ['getlist ÷ http bound ≤ 1.3', '1.40 (640 ms vs 457 ms)'],
      ['getlist-tls ÷ https bound ≤ 1.3', '1.33 (740 ms vs 557 ms)'],
    ]);
    expect(rows.find((r) => r.where === 'almanac-p90 @ mobile')?.verdict).toBe('NOT RUN');
    expect(rows.some((r) => r.verdict === 'MISS')).toBe(true);
    expect(rows.some((r) => r.verdict === 'PASS')).toBe(true);
  });
});

describe('RESULTS.md (synthetic fixture)', () => {
  const md = resultsMarkdown(load(), ['results/figure-pm95.svg']);

  it('has a table per cell with every contender and its ratio to the bound', () => {
    expect(md.match(/^### /gm)).toHaveLength(load().cells.length);
    expect(md).toContain('| contender | runs | median ms | min ms | max ms | mean TTFB ms | connections | req/conn | ÷ bound |');
    expect(md).toMatch(/\| getlist \(http\) \| 3 \| 640 \| 621 \| 672 \| 260 \| 6 \| 26\.5 \| 1\.40 \|/);
    expect(md).toMatch(/\| getlist-tls \(https\) \| 3 \| 740 \| 721 \| 772 \| 260 \| 6 \| 26\.5 \| 1\.33 \|/);
    expect(md).toContain('| http10 (http) | 3 (1 with errors) |');
    expect(md).toContain('**Cell failed: E_ORIGINS_START**');
    expect(md).toContain('- http10: E_RUN_TIMEOUT — SYNTHETIC: load timed out');
    expect(md).toContain('Lower bound (bench/model/MODEL.md): http 347 ms (bandwidth-limited); https 417 ms (bandwidth-limited).');
    expect(md).toMatch(/without script-inserted requests \(getlist load\), [\d,]+ ms \(bandwidth-limited\) for the full page \(Chromium\)/);
  });

  it('defines the ratios (same-scheme pairs only), lists the goals with a why: line per miss, the machine and the commands', () => {
    expect(md).toContain('**Below 1 means getlist was faster**');
    expect(md).toContain('Every ratio compares two contenders on the same scheme');
    expect(md).toContain('| page @ link | getlist/browser | getlist/http10 | getlist/chromium-h1 | getlist-tls/browser-tls | getlist-tls/h2 | getlist-tls/chromium-h2 |');
    expect(md).toContain('| mcmanus-159 @ mcmanus-100 | 0.21 | — | 0.49 | — | 1.06 | 1.03 |');
    expect(md).not.toContain('getlist/h2');
    const misses = (md.match(/\| MISS \|/g) ?? []).length;
    expect(misses).toBeGreaterThan(0);
    expect((md.match(/^ {2}why:$/gm) ?? []).length).toBe(misses);
    expect(md).toContain('SYNTHETIC FIXTURE - not a measurement');
    expect(md).toContain('npm run bench:quick');
    expect(md).toContain('![results/figure-pm95.svg](results/figure-pm95.svg)');
  });
});

describe('figures (synthetic fixture)', () => {
  it('figure-pm95: two panels, one line per contender plus the bound, 45566 N = 20 skipped', () => {
    const svg = pm95Figure(load()) as string;
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg.match(/<g class="panel">/g)).toHaveLength(2);
    const [first, second] = svg.split('<g class="panel">').slice(1).map(polylines);
    expect([...(first as Map<string, number[][]>).keys()]).toEqual(['http10', 'serial', 'browser', 'pipelined', 'getlist', 'chromium-h1', 'getlist-tls', 'h2', 'chromium-h2', 'lower bound (http)']);
    expect(first?.get('getlist')).toHaveLength(5);
    expect(first?.get('http10')).toHaveLength(5); // N = 40: one failed load, the median is of the other two
    expect(second?.get('getlist')).toHaveLength(4);
  });

  it('figure-rtt: the RTT panel and the loss panel at 80 ms', () => {
    const svg = rttFigure(load()) as string;
    expect(xmlProblems(svg)).toEqual([]);
    const [rtt, loss] = svg.split('<g class="panel">').slice(1).map(polylines);
    expect(rtt?.get('getlist-tls')).toHaveLength(6);
    expect(rtt?.get('browser-tls')).toHaveLength(2);
    expect(rtt?.get('h2')).toHaveLength(5);
    expect(rtt?.has('lower bound (https)')).toBe(true);
    expect(loss?.get('getlist-tls')).toHaveLength(2);
    expect(svg).toContain('80 ms RTT: load time vs packet loss');
  });

  it('no cells, no figure', () => {
    const empty = { ...load(), cells: [] };
    expect(pm95Figure(empty)).toBeUndefined();
    expect(rttFigure(empty)).toBeUndefined();
  });
});

describe('node dist/bench/report.js', () => {
  it('writes RESULTS.md and both figures where told', () => {
    const dir = mkdtempSync(join(tmpdir(), 'getlist-report-'));
    try {
      const written = writeReport(parseReportArgs([FIXTURE, '--out', dir]));
      expect(written).toEqual([join(dir, 'RESULTS.md'), join(dir, 'results', 'figure-pm95.svg'), join(dir, 'results', 'figure-rtt.svg')]);
      expect(readFileSync(join(dir, 'RESULTS.md'), 'utf8')).toContain('![results/figure-rtt.svg](results/figure-rtt.svg)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad command line with E_REPORT_USAGE', () => {
    expect(() => parseReportArgs([])).toThrow(expect.objectContaining({ code: 'E_REPORT_USAGE' }));
    expect(() => parseReportArgs(['a.json', '--bogus'])).toThrow('unknown option --bogus');
    expect(parseReportArgs(['a.json'])).toEqual({ input: 'a.json', outDir: 'bench', figuresDir: join('bench', 'results') });
  });
});
