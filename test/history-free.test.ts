import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { figureFindings, historyFindings, measuredFigures, namesWorkPeriod, workPeriodRefs, type Finding } from './support/history-scan';
import { repositoryFiles } from './support/path-references';

/**
 * Code and docs say what the project does and why, not how it was made: no numbered reference to
 * the tracker or to a work period anywhere a reader looks (code, tests, docs, scripts, the bench
 * and its README), and no measured figure pasted into a comment of the shipped code (src/,
 * native-host/, extension/) — a comment states the invariant and names the doc or bench result
 * that holds the measurement (docs/*.md, bench/README.md, bench/results/). bench/results/ itself is
 * not scanned: its files are records of runs, cited by the name they were written under.
 *
 * One test per area, so a failure names whose text it is.
 */
const root = join(__dirname, '..');
const ALL = repositoryFiles(root).filter((f) => /^(?:src|native-host|extension|bench|test|docs|scripts)\//.test(f) || f === 'README.md').filter((f) => !f.startsWith('bench/results/'));

const AREAS: ReadonlyArray<[name: string, inArea: (file: string) => boolean]> = [
  ['src (but src/scheduler)', (f) => f.startsWith('src/') && !f.startsWith('src/scheduler/')],
  ['src/scheduler and docs/scheduler.md', (f) => f.startsWith('src/scheduler/') || f === 'docs/scheduler.md'],
  ['native-host', (f) => f.startsWith('native-host/')],
  ['extension', (f) => f.startsWith('extension/')],
  ['bench (but bench/results)', (f) => f.startsWith('bench/')],
  ['test', (f) => f.startsWith('test/')],
  ['docs (but docs/scheduler.md)', (f) => f.startsWith('docs/') && f !== 'docs/scheduler.md'],
  ['scripts and README.md', (f) => f.startsWith('scripts/') || f === 'README.md'],
];

/**
 * Comments whose figure is a specification's constant that reads like a measurement, each with the
 * specification. Nothing else belongs here: a measurement moves to a doc or a bench result.
 */
const FIGURE_ALLOWED: ReadonlyArray<{ file: string; includes: string; spec: string }> = [];

const show = (fs: readonly Finding[]) => fs.map((f) => `${f.file}:${f.line} ${f.text.slice(0, 160)}`);
/** Planted text is built at run time, so that this file itself holds no reference it would find. */
const n = (x: number) => String(x);
const words = (...w: string[]) => w.join(' ');

describe('the scan (so the checks below can fail)', () => {
  test('finds numbered tracker and work-period references, and lets ordinary numbers pass', () => {
    const planted = [
      `as issue ${n(15)} showed`,
      `## Replays (issue ${n(12)}, items ${n(3)}–${n(4)})`,
      `## What it costs (item ${n(9)})`,
      `measured in session ${n(29)}`,
      `sessions ${n(23)}–${n(25)}`,
      `see S${n(31)}`,
      `${words('task', 'N')}${n(2)}, then ${words('task', 'P')}`,
      `Ticket #${n(7)}`,
      `as ${words('this', 'PR')} does`,
      `mcmanus-159: 618 ms (was ${n(556)})`,
      `0.61 (s${n(19)}: 0.73)`,
      `branch \`s${n(19)}-pm\``,
      `hints-s${n(31)}-cap10.json`,
      `in ${words('an earlier', 'session')}`,
    ];
    for (const line of planted) expect([line, workPeriodRefs(line).length > 0]).toEqual([line, true]);
    const ordinary = [
      'round 2 of slow start',
      'a TLS session ticket resumes the session',
      'DNR session rules, gone with the last session',
      "url('css/s0.css') and image-set(\"s1.png\" 1x)",
      "ids 's1', 's2', … interleaved (s1, s2, …)",
      'item.url, the items of the list',
      'PATH_SAMPLE_METHOD 4: samples of method 2 are dropped',
      `as \`bench/results/hints-s${n(20)}-P.json\` records`,
    ];
    for (const line of ordinary) expect([line, workPeriodRefs(line)]).toEqual([line, []]);
    expect(namesWorkPeriod(`bench/hints-s${n(31)}-cap.ts`)).toBe(true);
    expect(namesWorkPeriod(`notes/S${n(29)}.md`)).toBe(true);
    expect(namesWorkPeriod('bench/hints/hints-session.ts')).toBe(false);
    expect(namesWorkPeriod('test/fixtures/css/s-small.css')).toBe(false);
  });

  test('finds measured figures in comments, not definitions', () => {
    const measured = [
      '/** Measured on the bench: six pipelined connections took 2.5 s where one took 0.93 s. */',
      '// 5 runs: 1.18 × alone, 0.61 × with the image origins.',
      '/**\n * The links were in the page 45–62 ms after navigation start (median of the rounds 48 ms).\n */',
      '// pausing them cost about 100 ms of page time, measured on mcmanus-159.',
    ];
    for (const c of measured) expect([c, measuredFigures(c).length]).toEqual([c, 1]);
    const definitions = [
      '/** A new TCP connection\'s initial window: ten segments (RFC 6928), 14,600 bytes. */',
      '// The host measures handshakes 500 ms after `load`.',
      '/** A flight that took under 1 ms is taken as 1 ms. */',
      '/** One round trip, 100 ms on this link: its rate is measured from the spans (docs/extension.md). */',
    ];
    for (const c of definitions) expect([c, measuredFigures(c)]).toEqual([c, []]);
  });

  test('reads a tree: file names, text, and the comments of non-test sources', () => {
    const dir = mkdtempSync(join(tmpdir(), 'history-free-'));
    try {
      const put = (rel: string, text: string) => {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), text);
      };
      put('docs/a.md', `Cited by name: \`bench/results/hints-s${n(20)}-P.json\`.\nAs issue ${n(15)} said.\n`);
      put(`docs/plan-s${n(31)}-b.md`, 'nothing here\n');
      put('src/a.ts', `/** Chosen in session ${n(3)}. */\nexport const a = 1;\n/** Measured: 6 runs took 48 ms each. */\nexport const b = 2;\nexport const c = '6 runs took 48 ms: a string, not a comment';\n`);
      put('src/a.test.ts', '// 6 runs took 48 ms each: a recorded fixture, allowed in tests\n');
      const files = ['docs/a.md', `docs/plan-s${n(31)}-b.md`, 'src/a.test.ts', 'src/a.ts'];
      expect(show(historyFindings(dir, files))).toEqual([
        `docs/a.md:2 issue ${n(15)}`,
        `docs/plan-s${n(31)}-b.md:0 file name: docs/plan-s${n(31)}-b.md`,
        `src/a.ts:1 session ${n(3)}`,
      ]);
      expect(show(figureFindings(dir, files))).toEqual(['src/a.ts:3 Measured: 6 runs took 48 ms each.']);
      expect(figureFindings(dir, files, [{ file: 'src/a.ts', includes: '6 runs took' }])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('no numbered reference to the tracker or to a work period', () => {
  test.each(AREAS)('%s', (_, inArea) => {
    expect(show(historyFindings(root, ALL.filter(inArea)))).toEqual([]);
  });
});

describe('no measured figure in a comment of the shipped code', () => {
  test.each(AREAS.filter(([name]) => /^(src|native-host|extension)/.test(name)))('%s', (_, inArea) => {
    expect(show(figureFindings(root, ALL.filter(inArea), FIGURE_ALLOWED))).toEqual([]);
  });
});
