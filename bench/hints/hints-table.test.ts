import type { HintsContender, HintsRun } from './hints-session';
import { boundCells, table, type Cell } from './hints-table';

/** Three paired runs of one contender: page complete and first paint, ms. */
const runs = (complete: number, fcp: number, paths: string[] = ['o/a.css', 'o/b.gif']): HintsRun[] =>
  [0.98, 1, 1.02].map((k) => ({ completeMs: complete * k, fcpMs: fcp * k, lcpMs: fcp * k, serverRequests: paths.length, duplicates: [], paths, warmUpVisits: 2 }));

const cell = (browser: 'chromium' | 'firefox', r: Partial<Record<HintsContender, HintsRun[]>>): Cell => ({ link: 'mcmanus-100', page: 'real-news', browser, late: true, runs: r, errors: [] });

describe('the hints table: is complete ≤ 0.80 × alone, first paint no worse, within reach of hinting?', () => {
  const alone = runs(1000, 500);

  test('getlist meeting it answers yes, whatever the bounds read', () => {
    const c = cell('chromium', { chromium: alone, 'chromium+getlist': runs(700, 510), 'chromium+ideal': runs(950, 500), 'chromium+all': runs(900, 700) });
    expect(boundCells(c, alone, c.runs['chromium+getlist'] ?? [])).toMatch(/\| yes: 0\.700$/);
  });

  test('a bound that reaches 0.80 only by delaying first paint beyond 1.05 × is no', () => {
    const c = cell('chromium', { chromium: alone, 'chromium+getlist': runs(950, 500), 'chromium+ideal': runs(900, 500), 'chromium+all': runs(720, 700) });
    expect(boundCells(c, alone, c.runs['chromium+getlist'] ?? [])).toMatch(/\| no: best 0\.720 at FCP 1\.40$/);
  });

  test('the bound that meets both is named; none reaching 0.80 gives the best complete', () => {
    const meets = cell('chromium', { chromium: alone, 'chromium+getlist': runs(950, 500), 'chromium+ideal': runs(850, 500), 'chromium+all': runs(780, 520) });
    expect(boundCells(meets, alone, meets.runs['chromium+getlist'] ?? [])).toMatch(/\| yes: 0\.780$/);
    const short = cell('chromium', { chromium: alone, 'chromium+getlist': runs(950, 500), 'chromium+ideal': runs(930, 500), 'chromium+all': runs(880, 500) });
    expect(boundCells(short, alone, short.runs['chromium+getlist'] ?? [])).toMatch(/\| no: best 0\.880$/);
  });

  test("Firefox's cells read Firefox's own bound variants, not Chromium's", () => {
    const c = cell('firefox', { firefox: alone, 'firefox+getlist': runs(950, 500), 'firefox+ideal': runs(780, 500), 'firefox+all': runs(900, 500), 'chromium+ideal': runs(600, 500) });
    expect(boundCells(c, alone, c.runs['firefox+getlist'] ?? [])).toMatch(/^\*\*0\.78\*\* \[0\.78–0\.78\] \/ 1\.00 \/ 1\.00; 0 \/ 0 \| \*\*0\.90\*\*.* \| yes: 0\.780$/);
  });

  test('an older run without the +all variant, and a Firefox run without bound variants, still print', () => {
    const old = cell('chromium', { chromium: alone, 'chromium+getlist': runs(950, 500), 'chromium+ideal': runs(930, 500) });
    expect(boundCells(old, alone, old.runs['chromium+getlist'] ?? [])).toMatch(/; 0 \/ 0 \| — \| no: best 0\.930$/);
    expect(boundCells(cell('firefox', { firefox: alone, 'firefox+getlist': runs(700, 500) }), alone, runs(700, 500))).toBe('— | — | yes: 0.700');
    // Every row has as many cells as the header.
    const t = table([old, cell('firefox', { firefox: alone, 'firefox+getlist': runs(700, 500) })]).split('\n');
    const width = (line: string) => line.split('|').length;
    for (const line of t) expect(width(line)).toBe(width(t[0] ?? ''));
  });

  test('a bound variant fetching a URL the page alone did not counts as an extra request; its own document path does not', () => {
    const c = cell('chromium', { chromium: alone, 'chromium+getlist': runs(950, 500), 'chromium+all': runs(780, 500, ['o/a.css', 'o/b.gif', 'o/index.all.html', 'o/x.gif']) });
    const a = runs(1000, 500, ['o/a.css', 'o/b.gif', 'o/index.html']);
    expect(boundCells(c, a, c.runs['chromium+getlist'] ?? [])).toContain('; 1 / 0 |');
  });
});

describe('the hints table names each LCP', () => {
  test("an image LCP by its file name, another by its tag, alone's then getlist's", () => {
    const withLcp = (rs: HintsRun[], e: string[]) => rs.map((r, i) => ({ ...r, lcpElement: e[i] ?? null }));
    const alone = withLcp(runs(1000, 500), ['https://img.example.test/x/p0.gif', 'https://img.example.test/x/p0.gif', 'p']);
    const hinted = withLcp(runs(900, 500), ['https://img.example.test/x/p0.gif', 'https://img.example.test/x/p0.gif', 'https://img.example.test/x/p0.gif']);
    const row = table([cell('chromium', { chromium: alone, 'chromium+getlist': hinted })]).split('\n')[2] ?? '';
    expect(row).toContain(' (p0.gif ×2, p ×1) (p0.gif ×3) |');
  });
});
