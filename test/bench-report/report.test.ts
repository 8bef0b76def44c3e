/**
 * The whole report on a SYNTHETIC results file (fixtures/README.md): no number here was measured.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseReportArgs, renderReport, renderSummaries, writeReport } from '../../bench/report/write-report';
import { explanationKey, parseExplanations } from '../../bench/report/explanations';
import { judgeGoals } from '../../bench/report/matrix-goals';
import { parseResults, readResults } from '../../bench/report/load-results';
import { mergeResults, metaOf, sourceOf } from '../../bench/report/merge-results';
import { resultsMarkdown } from '../../bench/report/results-markdown';
import { pm95Figure, rttFigure } from '../../bench/report/svg-figures';
import { fullPlan } from '../../bench/run/bench-matrix';
import type { ResultsSummary } from '../../bench/report/results-summary';
import { polylines, xmlProblems } from './xml-check';

const FIXTURE = join(__dirname, 'fixtures', 'synthetic-results.json');
const load = (): ResultsSummary => parseResults(readFileSync(FIXTURE, 'utf8'));
/** Two full "runs" split from FIXTURE: pm95 and mcmanus-100 with jobs 1; spdy-dsl-80-{0,1} and mobile with jobs 5. */
const RUN1 = join(__dirname, 'fixtures', 'synthetic-merge-run1.json');
const RUN2 = join(__dirname, 'fixtures', 'synthetic-merge-run2.json');
/** A cell of RUN2. */
const RUN2_CELL = 'almanac-median @ spdy-dsl-80-1';
const loadFile = (path: string): ResultsSummary => parseResults(readFileSync(path, 'utf8'), path);

/** Runs `body` with a fresh temporary directory, removed afterwards. */
function inTempDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-report-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `results` changed by `edit` to `dir/name`; returns the path. */
function variant(dir: string, name: string, from: string, edit: (r: ResultsSummary) => void): string {
  const r = loadFile(from);
  edit(r);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(r));
  return path;
}

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
      ['getlist ÷ http bound ≤ 1.3', '1.23 (640 ms vs 518 ms)'],
      ['getlist-tls ÷ https bound ≤ 1.3', '1.20 (740 ms vs 618 ms)'],
    ]);
    expect(rows.find((r) => r.where === 'almanac-p90 @ mobile')?.verdict).toBe('NOT RUN');
    expect(rows.some((r) => r.verdict === 'MISS')).toBe(true);
    expect(rows.some((r) => r.verdict === 'PASS')).toBe(true);
  });
});

describe('RESULTS.md (synthetic fixture)', () => {
  const md = resultsMarkdown(load(), { figures: ['results/figure-pm95.svg'], cells: true });

  it('has a table per cell with every contender and its ratio to the bound', () => {
    expect(md.match(/^### /gm)).toHaveLength(load().cells.length);
    expect(md).toContain('| contender | runs | median ms | min ms | max ms | mean TTFB ms | connections | req/conn | ÷ bound |');
    expect(md).toMatch(/\| getlist \(http\) \| 3 \| 640 \| 621 \| 672 \| 260 \| 6 \| 26\.5 \| 1\.23 \|/);
    expect(md).toMatch(/\| getlist-tls \(https\) \| 3 \| 740 \| 721 \| 772 \| 260 \| 6 \| 26\.5 \| 1\.20 \|/);
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
    const misses = judgeGoals(load()).filter((g) => g.verdict === 'MISS').length;
    expect(misses).toBeGreaterThan(0);
    expect(md).toContain(`Missed goals (${misses}), each with what was measured and why:`);
    expect((md.match(/^ {2}why: not yet explained\.$/gm) ?? []).length).toBe(misses);
    expect(md).toContain('SYNTHETIC FIXTURE - not a measurement');
    expect(md).toContain('npm run bench:quick');
    expect(md).toContain('![results/figure-pm95.svg](results/figure-pm95.svg)');
  });

  it('by default: one verdict row per goal and target, every miss, no table per cell', () => {
    const slim = resultsMarkdown(load());
    const goals = judgeGoals(load());
    expect(slim).not.toContain('## Per page and link');
    expect(slim.match(/^### /gm)).toBeNull();
    expect(slim).toContain('| goal | target | PASS | MISS | NOT RUN |');
    const lowerBound = goals.filter((g) => g.target === 'getlist ÷ http bound ≤ 1.3');
    const count = (v: string) => String(lowerBound.filter((g) => g.verdict === v).length).replace(/^0$/, '—');
    expect(slim).toContain(`| ${lowerBound[0]?.goal} | getlist ÷ http bound ≤ 1.3 | ${count('PASS')} | ${count('MISS')} | ${count('NOT RUN')} |`);
    for (const miss of goals.filter((g) => g.verdict === 'MISS')) expect(slim).toContain(`- ${miss.goal} — ${miss.where}: ${miss.measured}`);
    expect(slim).toContain('`--cells` prints them here');
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

  it("writes the browser-handshake bench's section from its results file, each row's goal and the packets' reason for a miss", () => {
    const file = join(__dirname, '..', '..', 'bench', 'results', 'browser-handshake-latest.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { rows: Array<{ browser: string; rttMs: number; pass: boolean }> };
    const md = renderReport(parseReportArgs([FIXTURE, '--browser-handshake', file])).files[0]?.data.toString() ?? '';
    const section = md.slice(md.indexOf("## The browser's own handshakes against the link"), md.indexOf('## Figures'));
    for (const r of doc.rows) {
      const row = section.split('\n').find((l) => l.startsWith(`| ${r.browser} | ${r.rttMs} |`)) ?? '';
      expect(row).toContain(r.pass ? ': PASS |' : ': MISS |');
      if (!r.pass) expect(row).toMatch(/MISS \| \S/);
    }
    expect(md).toContain(`--browser-handshake ${file}`);
    expect(() => renderReport(parseReportArgs([FIXTURE, '--browser-handshake', FIXTURE]))).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT' }));
  });

  it('refuses a bad command line with E_REPORT_USAGE', () => {
    expect(() => parseReportArgs([])).toThrow(expect.objectContaining({ code: 'E_REPORT_USAGE' }));
    expect(() => parseReportArgs(['--out', 'x'])).toThrow('expected one or more results files');
    expect(() => parseReportArgs(['a.json', '--bogus'])).toThrow('unknown option --bogus');
    expect(() => parseReportArgs(['--help'])).toThrow(expect.objectContaining({ code: 'E_REPORT_USAGE', message: expect.stringContaining('Several files are merged') }));
    expect(parseReportArgs(['a.json'])).toEqual({ inputs: ['a.json'], outDir: 'bench', figuresDir: join('bench', 'results') });
    expect(parseReportArgs(['a.json', 'b.json', '--out', 'o', 'c.json'])).toEqual({ inputs: ['a.json', 'b.json', 'c.json'], outDir: 'o', figuresDir: join('o', 'results') });
  });

  it('names the file that cannot be read or is bad', () => {
    inTempDir((dir) => {
      const missing = join(dir, 'missing.json');
      expect(() => writeReport(parseReportArgs([missing, '--out', dir]))).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: expect.stringContaining(`cannot read ${missing}`) }));
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, '{"meta":{},"cells":[{"page":"x"}]}');
      expect(() => writeReport(parseReportArgs([RUN1, bad, '--out', dir]))).toThrow(`${bad}: cells[0].link should be a link preset name`);
    });
  });
});

describe('several results files, merged', () => {
  const run1 = loadFile(RUN1);
  const run2 = loadFile(RUN2);
  const merged = mergeResults([{ path: RUN1, results: run1 }, { path: RUN2, results: run2 }]);

  it('concatenates the cells in the order given and keeps the file of each', () => {
    expect(merged.cells.map((c) => `${c.page} @ ${c.link}`)).toEqual([
      'pm95-2544-10 @ pm95', 'mcmanus-159 @ mcmanus-100',
      'almanac-median @ spdy-dsl-80-0', 'almanac-median @ spdy-dsl-80-1', 'almanac-p90 @ mobile',
    ]);
    expect(merged.sources.map((s) => [s.run, s.file, s.cells.length])).toEqual([[1, 'synthetic-merge-run1.json', 2], [2, 'synthetic-merge-run2.json', 3]]);
    expect(merged.cells.map((c) => sourceOf(merged, c)?.run)).toEqual([1, 1, 2, 2, 2]);
    expect(metaOf(merged, merged.cells[4] as ResultsSummary['cells'][number]).gitCommit).toBe(run2.meta.gitCommit);
    // The merged meta: earliest start, summed time, the most links at once.
    expect(merged.meta).toMatchObject({ mode: 'full', date: run1.meta.date, elapsedMs: run1.meta.elapsedMs + run2.meta.elapsedMs, jobs: 5 });
  });

  it('the tables, goals and figures are those of the two files apart', () => {
    const goals = judgeGoals(merged);
    expect(goals).toEqual(expect.arrayContaining(judgeGoals(run1).filter((g) => g.verdict !== 'NOT RUN')));
    expect(goals).toEqual(expect.arrayContaining(judgeGoals(run2).filter((g) => g.verdict !== 'NOT RUN')));
    const md = resultsMarkdown(merged, { cells: true });
    for (const part of [run1, run2]) {
      const alone = resultsMarkdown(part, { cells: true });
      for (const c of part.cells) {
        // The same table under a heading that names the run.
        const table = (text: string) => text.split(/^#{2,3} /m).find((x) => x.startsWith(`${c.page} @ ${c.link}`))?.split('\n').slice(1).join('\n');
        expect(table(md)).toBe(table(alone));
      }
    }
    expect(pm95Figure(merged)).toContain('2 full runs merged (2000-01-02T10:00Z, 2000-01-02T14:30Z)');
    expect(xmlProblems(rttFigure(merged) as string)).toEqual([]);
  });

  it('RESULTS.md names every run, its date, time, commit, jobs and links, and which run each cell came from', () => {
    inTempDir((dir) => {
      const written = writeReport(parseReportArgs([RUN1, RUN2, '--cells', '--out', dir]));
      expect(written).toEqual([join(dir, 'RESULTS.md'), join(dir, 'results', 'figure-pm95.svg'), join(dir, 'results', 'figure-rtt.svg')]);
      const md = readFileSync(join(dir, 'RESULTS.md'), 'utf8');
      expect(md).toContain('from 2 full runs, merged. Each cell comes from exactly one run, named in its heading');
      expect(md).toContain('- run 1: `synthetic-merge-run1.json`, started 2000-01-02T10:00:00.000Z, ran 3,600 s, commit 111111111111, 1 link at a time; links pm95, mcmanus-100.');
      expect(md).toContain('- run 2: `synthetic-merge-run2.json`, started 2000-01-02T14:30:00.000Z, ran 7,200 s, commit 222222222222 (working tree had changes), 5 links at a time; links spdy-dsl-80-0, spdy-dsl-80-1, mobile.');
      expect(md).toContain('Run 2 ran 5 links at a time on a 2-core machine, so each of its links shared the CPUs with up to 4 others');
      expect(md).not.toContain('Run 1 ran');
      expect(md).toContain('### pm95-2544-10 @ pm95 (run 1: 2000-01-02T10:00Z, 1 link at a time)');
      expect(md).toContain('### almanac-p90 @ mobile (run 2: 2000-01-02T14:30Z, 5 links at a time)');
      expect(md).toContain('PASS and MISS are judged on the medians of the run each cell came from');
      // Machine and versions: what both runs share once, the rest per run.
      const machine = md.slice(md.indexOf('## Machine and versions'));
      expect(machine.match(/\| Chromium \| Chromium 0\.0 \(synthetic\) \|/g)).toHaveLength(1);
      expect(machine.match(/SYNTHETIC FIXTURE - not a measurement/g)).toHaveLength(1);
      expect(machine).toContain('### Run 1: `synthetic-merge-run1.json`');
      expect(machine).toContain('| Node | v20.20.0 |');
      expect(machine).toContain('| Node | v20.20.1 |');
      expect(machine).toContain('| links | spdy-dsl-80-0, spdy-dsl-80-1, mobile |');
      expect(machine).toContain('| links at once | 5 |');
      expect(machine).toContain('| commit | 2222222222222222222222222222222222222222 (working tree had changes) |');
      expect(machine).toContain('--links pm95,mcmanus-100 --jobs 1');
      expect(machine).toContain(`node dist/bench/report.js ${RUN1} ${RUN2}`);
    });
  });

  it('Coverage lists, against the full matrix, what is here and what was NOT RUN', () => {
    const md = resultsMarkdown(merged);
    const plan = fullPlan();
    const total = plan.links.reduce((n, l) => n + l.cells.length, 0);
    expect(md).toContain(`**Incomplete:** 5 of the ${total} cells of the full matrix (bench/run/bench-matrix.ts \`fullPlan\`) are here, 1 of them failed; ${total - 5} NOT RUN, among them every cell of ${plan.links.length - 5} of the ${plan.links.length} links.`);
    expect(md).toContain('| link | cells | missing | failed | from |');
    expect(md).toContain('| mcmanus-100 | 1 of 1 | — | — | run 1 |');
    expect(md).toContain('| mcmanus-300 | 0 of 1 | NOT RUN: mcmanus-159 | — | — |');
    expect(md).toMatch(/\| pm95 \| 1 of 10 \| NOT RUN: pm95-2544-1, pm95-2544-5, pm95-2544-20, .* \| — \| run 1 \|/);
    expect(md).toMatch(/\| mobile \| 1 of \d+ \| NOT RUN: almanac-median\b.* \| almanac-p90 \(E_ORIGINS_START\) \| run 2 \|/);
    // Every link of the full matrix has a row.
    for (const l of plan.links) expect(md).toContain(`| ${l.link} | `);
    expect(md.indexOf('## Coverage')).toBeLessThan(md.indexOf('## Goals'));
  });

  it('one file: no run in the headings, no "from" column; a quick run has no Coverage', () => {
    const one = mergeResults([{ path: RUN1, results: run1 }]);
    const md = resultsMarkdown(one, { cells: true });
    expect(md).toContain('from a full run on 2000-01-02T10:00:00.000Z (`synthetic-merge-run1.json`).');
    expect(md).toContain('### pm95-2544-10 @ pm95\n');
    expect(md).toContain('| link | cells | missing | failed |\n');
    expect(md).toContain('| file | `synthetic-merge-run1.json` |');
    expect(md).not.toContain('links at a time on');
    const quick = resultsMarkdown(mergeResults([{ path: FIXTURE, results: load() }]));
    expect(quick).not.toContain('## Coverage');
    expect(quick).toContain('| links at once | 1 |');
  });

  it('prints TCP settings per run when they differ, and bounds each cell with its own run\'s', () => {
    inTempDir((dir) => {
      // Run 1 with a 2-segment initial window: mcmanus-159 @ mcmanus-100 is bound by round trips, so its bound moves.
      const small = variant(dir, 'small-window.json', RUN1, (r) => { if (r.meta.link) r.meta.link.initCwnd = 2; });
      const md = resultsMarkdown(mergeResults([{ path: small, results: loadFile(small) }, { path: RUN2, results: run2 }]), { cells: true });
      expect(md).toContain('| TCP on the link | reno, initial window 2 segments,');
      expect(md).toContain('| TCP on the link | reno, initial window 10 segments,');
      const boundOf = (text: string, cell: string) => text.split(/^#{2,3} /m).find((x) => x.startsWith(cell))?.match(/^Lower bound.*$/m)?.[0];
      const cell = 'mcmanus-159 @ mcmanus-100';
      const cellsOf = (r: ResultsSummary) => resultsMarkdown(r, { cells: true });
      expect(boundOf(md, cell)).toBe(boundOf(cellsOf(loadFile(small)), cell));
      expect(boundOf(md, cell)).not.toBe(boundOf(cellsOf(run1), cell));
      expect(boundOf(md, 'almanac-median @ spdy-dsl-80-0')).toBe(boundOf(cellsOf(run2), 'almanac-median @ spdy-dsl-80-0'));
      const goal = (results: ResultsSummary) => judgeGoals(results).filter((g) => g.where === cell && g.goal.includes('lower bound'));
      expect(goal(mergeResults([{ path: small, results: loadFile(small) }, { path: RUN2, results: run2 }]))).toEqual(goal(loadFile(small)));
    });
  });

  it('refuses a cell in two files with E_REPORT_DUPLICATE_CELL, naming both and the cell', () => {
    inTempDir((dir) => {
      const again = variant(dir, 'again.json', RUN2, (r) => { r.cells = [r.cells[1] as ResultsSummary['cells'][number]]; });
      const err = (() => {
        try {
          writeReport(parseReportArgs([RUN1, RUN2, again, '--out', dir]));
        } catch (e) {
          return e as { code?: string; message?: string };
        }
        return undefined;
      })();
      expect(err?.code).toBe('E_REPORT_DUPLICATE_CELL');
      expect(err?.message).toContain('almanac-median @ spdy-dsl-80-1');
      expect(err?.message).toContain(`${RUN2} (run 2)`);
      expect(err?.message).toContain(`${again} (run 3)`);
      const twice = variant(dir, 'twice.json', RUN1, (r) => { r.cells.push(r.cells[0] as ResultsSummary['cells'][number]); });
      expect(() => writeReport(parseReportArgs([twice, '--out', dir]))).toThrow(expect.objectContaining({ code: 'E_REPORT_DUPLICATE_CELL', message: `${twice} holds cell pm95-2544-10 @ pm95 twice` }));
      expect(() => writeReport(parseReportArgs([RUN1, RUN1, '--out', dir]))).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: `${RUN1} is given twice` }));
    });
  });

  it('a cell measured again in another file: removed from the first with a reason, then merged and the removal printed', () => {
    inTempDir((dir) => {
      const cell = RUN2_CELL;
      const again = variant(dir, 'again.json', RUN2, (r) => { r.cells = r.cells.filter((c) => `${c.page} @ ${c.link}` === cell); });
      const reason = 'measured again, alone, in again.json';
      const without = variant(dir, 'without.json', RUN2, (r) => {
        r.cells = r.cells.filter((c) => `${c.page} @ ${c.link}` !== cell);
        r.meta.removedCells = [{ page: 'almanac-median', link: 'spdy-dsl-80-1', reason }];
      });
      writeReport(parseReportArgs([RUN1, without, again, '--cells', '--out', dir]));
      const md = readFileSync(join(dir, 'RESULTS.md'), 'utf8');
      expect(md).toContain(`| cells removed after the run | ${cell}: ${reason} |`);
      expect(md).toContain(`### ${cell} (run 3:`);
      // A removal that names a cell still in the file, or lacks a reason, is a bad file.
      const stillThere = variant(dir, 'still.json', RUN2, (r) => { r.meta.removedCells = [{ page: 'almanac-median', link: 'spdy-dsl-80-1', reason }]; });
      expect(() => loadFile(stillThere)).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: expect.stringContaining('meta.removedCells[0] should be a cell no longer in the file') }));
      const noReason = variant(dir, 'noreason.json', without, (r) => { (r.meta.removedCells as { reason: string }[])[0]!.reason = ''; });
      expect(() => loadFile(noReason)).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: expect.stringContaining('meta.removedCells[0].reason should be a non-empty string') }));
    });
  });

  it('refuses files of different modes or schema versions with E_REPORT_INPUT', () => {
    inTempDir((dir) => {
      const quick = variant(dir, 'quick.json', RUN2, (r) => { r.meta.mode = 'quick'; });
      expect(() => writeReport(parseReportArgs([RUN1, quick, '--out', dir]))).toThrow(expect.objectContaining({
        code: 'E_REPORT_INPUT', message: `${RUN1} is a full run and ${quick} a quick run; merge only full runs or only quick runs`,
      }));
      const v3 = variant(dir, 'v3.json', RUN2, (r) => { r.meta.schemaVersion = 3; });
      expect(() => writeReport(parseReportArgs([RUN1, v3, '--out', dir]))).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: expect.stringContaining('schema version 2 and') }));
      const odd = variant(dir, 'odd.json', RUN2, (r) => { (r.meta as { mode: string }).mode = 'partial'; });
      expect(() => writeReport(parseReportArgs([odd, '--out', dir]))).toThrow('meta.mode should be "quick" or "full"');
      // Nothing was written for a refused merge.
      expect(() => readFileSync(join(dir, 'RESULTS.md'))).toThrow();
    });
  });
});

describe('explanations of missed goals (--why)', () => {
  const missKey = (): string => {
    const row = judgeGoals(load()).find((r) => r.verdict === 'MISS');
    if (!row) throw new Error('fixture has no MISS');
    return explanationKey(row.where, row.target);
  };

  it('fills the why: line of the goal it names and reports keys that match no miss', () => {
    const unused: string[] = [];
    const md = resultsMarkdown(load(), { explanations: parseExplanations(JSON.stringify({ [missKey()]: 'slow start on six fresh connections.', 'nope @ nowhere | x ≤ 1': 'stale' })), unused });
    expect(md).toContain('  why: slow start on six fresh connections.');
    expect(unused).toEqual(['nope @ nowhere | x ≤ 1']);
  });

  it('the file is checked: JSON object of "<cell> | <target>" → non-empty text, else E_REPORT_INPUT', () => {
    for (const bad of ['[1]', '{"a | b": ""}', '{"no separator": "x"}', 'nope']) {
      expect(() => parseExplanations(bad)).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT' }));
    }
    expect(parseReportArgs(['a.json', '--why', 'w.json']).why).toBe('w.json');
  });
});


describe('summaries and gzipped raw files', () => {
  it('a summary reports exactly as its raw file, and round-trips through JSON', () => {
    inTempDir((dir) => {
      const [summary, raw] = renderSummaries([FIXTURE], dir);
      expect([summary?.path, raw?.path]).toEqual([join(dir, 'synthetic-results.json'), join(dir, 'raw', 'synthetic-results.json.gz')]);
      // What bench.js wrote comes back byte for byte from the gzipped copy.
      expect(gunzipSync(raw?.data as Buffer).equals(readFileSync(FIXTURE))).toBe(true);
      const text = summary?.data as string;
      expect(JSON.parse(text)).toEqual({ raw: 'raw/synthetic-results.json.gz', ...load() });
      expect(text.length).toBeLessThan(readFileSync(FIXTURE).length / 2);
      expect(resultsMarkdown(parseResults(text))).toBe(resultsMarkdown(load()));
      // The report reads either, gzipped or not, whatever the file is called.
      writeFileSync(join(dir, 'gz-without-suffix.json'), raw?.data as Buffer);
      expect(resultsMarkdown(readResults(join(dir, 'gz-without-suffix.json')))).toBe(resultsMarkdown(load()));
    });
  });

  it('keeps what the tables print of the runs: counts, loads with errors, failures', () => {
    const http10 = load().cells.flatMap((c) => c.contenders).find((k) => k.contender === 'http10' && k.digest.failures.length > 0);
    expect(http10?.digest).toMatchObject({ count: 3, withErrors: 1, failures: [{ code: 'E_RUN_TIMEOUT', message: 'SYNTHETIC: load timed out' }] });
  });

  it('refuses a summary to summarise, a digest that does not match its run count, and broken gzip', () => {
    inTempDir((dir) => {
      const [summary] = renderSummaries([FIXTURE], dir);
      const path = join(dir, 'summary.json');
      writeFileSync(path, summary?.data as string);
      expect(() => renderSummaries([path], dir)).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: expect.stringContaining('is already a summary') }));
      const doc = JSON.parse(summary?.data as string) as { cells: Array<{ contenders: Array<{ digest: unknown }> }> };
      const first = doc.cells[0]?.contenders[0] as { digest: unknown };
      first.digest = { count: 2, withErrors: 0, failures: [], cdp: { requests: [1], serverRequests: [1, 1], resourceTimingTotalMs: [null, null], maxMissingTimingEntries: 0 } };
      expect(() => parseResults(JSON.stringify(doc))).toThrow('cells[0].contenders[0].digest.cdp.requests should be an array of 2 (one per run)');
      const gz = join(dir, 'broken.json.gz');
      writeFileSync(gz, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
      expect(() => readResults(gz)).toThrow(expect.objectContaining({ code: 'E_REPORT_INPUT', message: expect.stringContaining('is gzip but does not decompress') }));
    });
  });
});

describe('the committed bench/RESULTS.md', () => {
  const root = join(__dirname, '..', '..');
  const read = (path: string): Buffer => readFileSync(join(root, path));
  const committed = read('bench/RESULTS.md').toString('utf8');

  it('regenerates byte for byte, figures included, from the committed files by the command it prints', () => {
    const command = /^node dist\/bench\/report\.js (.+?) {3}# this file and the figures again/m.exec(committed)?.[1];
    expect(command).toMatch(/^bench\/results\/full-a\.json .* --why bench\/why\.json$/);
    const { files, unused } = renderReport(parseReportArgs((command as string).split(' ')), read);
    expect(files.map((f) => f.path)).toEqual([join('bench', 'RESULTS.md'), join('bench', 'results', 'figure-pm95.svg'), join('bench', 'results', 'figure-rtt.svg')]);
    for (const f of files) expect({ path: f.path, same: f.data === read(f.path).toString('utf8') }).toEqual({ path: f.path, same: true });
    expect(unused).toEqual([]);
  });

  it('each committed summary is the summary of the committed gzipped raw file beside it', () => {
    for (const name of ['full-a', 'full-b', 'full-c', 'full-d']) {
      const summary = read(`bench/results/${name}.json`).toString('utf8');
      expect(JSON.parse(summary)).toMatchObject({ raw: `raw/${name}.json.gz` });
      const [again] = renderSummaries([`bench/results/raw/${name}.json.gz`], 'bench/results', read);
      expect({ path: again?.path, same: again?.data === summary }).toEqual({ path: join('bench', 'results', `${name}.json`), same: true });
    }
  });
});
