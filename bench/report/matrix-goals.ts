/**
 * The packet-level benchmark's goals (after the papers each link reproduces), judged on one results file or several merged
 * (each cell on its own run's medians). A goal whose cells or contenders were not in the run is
 * NOT RUN, never a MISS: the quick plan leaves some out, and so may an unfinished full run.
 *
 * Speed-ups are ratios of median page-complete times, `other ÷ getlist` (> 1: getlist faster).
 * Every goal compares two contenders on the same scheme: the HTTP/1.1 goals (P&M, McManus) use
 * `getlist` over http, the SPDY goals `getlist-tls` against `browser-tls` and `h2`, all over https.
 */
import type { ContenderName } from '../run/results-schema';
import type { ResultsSummary, CellSummary } from './results-summary';
import { CellBounds, tcpOf } from './cell-bounds';
import { contenderOf, isSpdyDsl, medianTotal, medianTtfb, pm95Params, ratio } from './cell-lookup';
import { metaOf } from './merge-results';

export type Verdict = 'PASS' | 'MISS' | 'NOT RUN';

export interface GoalRow {
  goal: string;
  /** Page and link, e.g. `pm95-2544-10 @ pm95`. */
  where: string;
  target: string;
  /** What was measured, with the numbers behind it. */
  measured: string;
  verdict: Verdict;
}

/** Two decimals, or three where two would print the target itself for a value just past it. */
const fr = (x: number, target: number): string => (Number(x.toFixed(2)) === target && x !== target ? x.toFixed(3) : x.toFixed(2));
const ms = (x: number | undefined): string => (x === undefined ? '—' : `${Math.round(x).toLocaleString('en-US')} ms`);
const at = (c: CellSummary): string => `${c.page} @ ${c.link}`;

/** `value ≥ target` (or ≤ for `atMost`), NOT RUN when the value is missing. */
function judge(value: number | undefined, target: number, atMost = false): Verdict {
  if (value === undefined) return 'NOT RUN';
  return (atMost ? value <= target : value >= target) ? 'PASS' : 'MISS';
}

/** getlist over http against an HTTP/1.1 contender, also over http. */
function speedup(goal: string, cell: CellSummary, other: 'http10' | 'browser' | 'chromium-h1', target: number): GoalRow {
  const o = medianTotal(cell, other);
  const g = medianTotal(cell, 'getlist');
  const r = ratio(o, g);
  return {
    goal, where: at(cell), target: `${other} ÷ getlist ≥ ${target}`,
    measured: r === undefined ? `${other} ${ms(o)}, getlist ${ms(g)}` : `${fr(r, target)} (${ms(o)} vs ${ms(g)})`,
    verdict: judge(r, target),
  };
}

function pm95Goals(results: ResultsSummary): GoalRow[] {
  const rows: GoalRow[] = [];
  for (const [size, target] of [[2544, 2.5], [45566, 1.3]] as const) {
    const cells = results.cells.filter((c) => c.linkParams.rttMs === 70 && pm95Params(c.page)?.size === size && (pm95Params(c.page)?.count ?? 0) >= 10);
    const goal = `P&M ${size}-byte images, N ≥ 10, 70 ms: getlist ≥ ${target}× faster than http10`;
    if (cells.length === 0) rows.push({ goal, where: `pm95-${size}-{10,20,40} @ pm95`, target: `http10 ÷ getlist ≥ ${target}`, measured: 'no such cell in this run', verdict: 'NOT RUN' });
    for (const c of cells) rows.push(speedup(goal, c, 'http10', target));
  }
  return rows;
}

function mcmanusGoals(results: ResultsSummary): GoalRow[] {
  const cell = results.cells.find((c) => c.page === 'mcmanus-159' && c.linkParams.rttMs === 100);
  const where = cell ? at(cell) : 'mcmanus-159 @ mcmanus-100';
  const bt = medianTtfb(cell, 'browser');
  const gt = medianTtfb(cell, 'getlist');
  const r = ratio(bt, gt);
  const ttfb: GoalRow = {
    goal: 'mcmanus-159, 100 ms: mean TTFB ≥ 3× lower than browser', where, target: 'browser TTFB ÷ getlist TTFB ≥ 3',
    measured: r === undefined ? `browser ${ms(bt)}, getlist ${ms(gt)}` : `${fr(r, 3)} (${ms(bt)} vs ${ms(gt)})`, verdict: judge(r, 3),
  };
  if (cell === undefined) {
    const missing = (goal: string, target: string): GoalRow => ({ goal, where, target, measured: 'no such cell in this run', verdict: 'NOT RUN' });
    return [ttfb, missing('mcmanus-159, 100 ms: page complete ≥ 2× faster than browser', 'browser ÷ getlist ≥ 2'),
      missing('mcmanus-159, 100 ms: ≥ 1.5× faster than Chromium over HTTP/1.1', 'chromium-h1 ÷ getlist ≥ 1.5')];
  }
  return [
    ttfb,
    speedup('mcmanus-159, 100 ms: page complete ≥ 2× faster than browser', cell, 'browser', 2),
    speedup('mcmanus-159, 100 ms: ≥ 1.5× faster than Chromium over HTTP/1.1', cell, 'chromium-h1', 1.5),
  ];
}

/**
 * SPDY whitepaper, table 3, counts an improvement as (HTTP − SPDY) ÷ HTTP: "30 % faster" is
 * getlist-tls ≤ 0.70 × browser-tls. "Within 10 % of h2" is getlist-tls ≤ 1.10 × h2. Both sides
 * run over https, as SPDY and its HTTP baseline did.
 */
function spdyGoals(results: ResultsSummary): GoalRow[] {
  const cells = results.cells.filter((c) => isSpdyDsl(c) && c.linkParams.loss === 0);
  const browserGoal = 'spdy-dsl, RTT ≥ 80 ms: getlist-tls ≥ 30 % faster than browser-tls';
  const h2Goal = 'spdy-dsl: getlist-tls within 10 % of h2';
  const rows: GoalRow[] = [];
  for (const c of cells.filter((x) => x.linkParams.rttMs >= 80)) {
    const b = medianTotal(c, 'browser-tls');
    const g = medianTotal(c, 'getlist-tls');
    const r = ratio(g, b);
    rows.push({
      goal: browserGoal, where: at(c), target: 'getlist-tls ÷ browser-tls ≤ 0.70',
      measured: r === undefined ? `browser-tls ${contenderOf(c, 'browser-tls') ? ms(b) : 'not in this cell'}, getlist-tls ${ms(g)}` : `${fr(r, 0.7)}: ${Math.round((1 - r) * 100)} % faster (${ms(g)} vs ${ms(b)})`,
      verdict: judge(r, 0.7, true),
    });
  }
  for (const c of cells) {
    const h = medianTotal(c, 'h2');
    const g = medianTotal(c, 'getlist-tls');
    const r = ratio(g, h);
    rows.push({
      goal: h2Goal, where: at(c), target: 'getlist-tls ÷ h2 ≤ 1.10',
      measured: r === undefined ? `h2 ${ms(h)}, getlist-tls ${ms(g)}` : `${fr(r, 1.1)} (${ms(g)} vs ${ms(h)})`, verdict: judge(r, 1.1, true),
    });
  }
  if (!rows.some((r) => r.goal === browserGoal)) rows.unshift({ goal: browserGoal, where: 'almanac-* @ spdy-dsl-{80…200}-0', target: 'getlist-tls ÷ browser-tls ≤ 0.70', measured: 'no such cell in this run', verdict: 'NOT RUN' });
  if (!rows.some((r) => r.goal === h2Goal)) rows.push({ goal: h2Goal, where: 'almanac-* @ spdy-dsl-*-0', target: 'getlist-tls ÷ h2 ≤ 1.10', measured: 'no such cell in this run', verdict: 'NOT RUN' });
  return rows;
}

/** The getlist strategy's contenders, each judged against the bound for its own scheme. */
const GETLIST_CONTENDERS: readonly ContenderName[] = ['getlist', 'getlist-tls'];

function boundGoals(results: ResultsSummary): GoalRow[] {
  return results.cells.flatMap((c) => {
    // The TCP settings of the run the cell came from.
    const tcp = tcpOf(metaOf(results, c));
    const ran = GETLIST_CONTENDERS.filter((name) => contenderOf(c, name) !== undefined);
    return (ran.length > 0 ? ran : ['getlist' as const]).map((name): GoalRow => {
      const g = contenderOf(c, name);
      const bound = g ? new CellBounds(c, tcp).forContender(name, g.scheme)?.totalMs : undefined;
      const t = medianTotal(c, name);
      const r = ratio(t, bound);
      return {
        goal: 'every page: getlist within 1.3× of the lower bound for its scheme', where: at(c), target: `${name} ÷ ${g ? `${g.scheme} ` : ''}bound ≤ 1.3`,
        measured: r === undefined ? `${name} ${ms(t)}, bound ${ms(bound)}`
          : `${fr(r, 1.3)} (${ms(t)} vs ${ms(bound)}${c.linkParams.loss > 0 ? '; the bound ignores loss' : ''})`,
        verdict: judge(r, 1.3, true),
      };
    });
  });
}

export function judgeGoals(results: ResultsSummary): GoalRow[] {
  return [...pm95Goals(results), ...mcmanusGoals(results), ...spdyGoals(results), ...boundGoals(results)];
}
