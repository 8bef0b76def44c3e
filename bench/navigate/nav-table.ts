/**
 * The navigation benchmark's table and goal verdicts, as markdown (bench/RESULTS.md's section, and
 * what main.ts prints). Goals: Chromium, cache on, 100 ms: median navigation start → LCP on
 * followed links ≤ 0.50 × Chromium alone (≤ 0.25 × with prerender), judged per link (the median of
 * each link's ratio to alone's same step: nav-cell.ts `linkRatio`), and ≥ 60 % of followed links
 * served from a speculation; in every cell, bytes fetched ahead for links never clicked ≤ 15 % of
 * the run, 0 requests for never links, 0 duplicate fetches; the extension's cost where nothing is
 * speculated within the overhead bench's noise (the median paired LCP ratio of those steps within
 * its scatter). Beside each ratio, the floor its kind of speculation could reach on the path
 * (nav-floors.ts); a goal below it says so.
 */
import type { NavCell, NavSummary } from './nav-cell';
import { prerenders, type NavContender } from './nav-contenders';

const pct = (x: number | null): string => (x === null ? '–' : `${Math.round(x * 100)} %`);
const ms = (x: number | null): string => (x === null ? '–' : String(x));
const never = (s: NavSummary): string => `${s.neverRequests}${(s.neverFirstSight ?? 0) > 0 ? ` (+${s.neverFirstSight} at first sight)` : ''}`;
const dups = (s: NavSummary): string => `${s.duplicates}${(s.resumed ?? 0) > 0 ? ` (+${s.resumed} resumed by range)` : ''}`;
const ratio = (x: number | null): string => (x === null ? '–' : x.toFixed(2));
const visitsCell = (s: NavSummary): string => (s.byVisit === undefined ? '–' : `${ratio(s.byVisit.first.linkRatio ?? null)} (${s.byVisit.first.steps}) / ${ratio(s.byVisit.repeat.linkRatio ?? null)} (${s.byVisit.repeat.steps})`);
const floorCell = (s: NavSummary): string => {
  if (s.floor === undefined) return '–';
  const both = `${ratio(s.floor.linkRatio ?? null)} [${ratio(s.floor.ratio)}]`;
  return s.floor.kind === 'document' ? `${both} (document only)` : `${both} (ready, ${s.floor.steps ?? 0} steps)`;
};

export const LCP_GOAL = 0.5;
export const LCP_GOAL_PRERENDER = 0.25;
export const SPECULATED_GOAL = 0.6;
export const EXTRA_BYTES_GOAL = 0.15;
/** The overhead bench's scatter on a 200-pair run (bench/README.md, "Extension overhead"). */
export const OVERHEAD_NOISE = 0.05;

/** The cell the headline goals are judged on. */
export const isHeadline = (c: Pick<NavCell, 'browser' | 'cache' | 'link'>): boolean => c.browser === 'chromium' && c.cache === 'on' && c.link.startsWith('100 ms');

function cellGoals(c: NavCell, contender: NavContender, s: NavSummary): string[] {
  const out: string[] = [];
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  if (contender === 'rules') return ['reference'];
  if (isHeadline(c)) {
    const limit = prerenders(contender) ? LCP_GOAL_PRERENDER : LCP_GOAL;
    const ok = s.linkRatio != null && s.linkRatio <= limit;
    const floorAbove = !ok && s.floor?.linkRatio != null && s.floor.linkRatio > limit ? ` (its floor ${ratio(s.floor.linkRatio)} is above the goal)` : '';
    out.push(`LCP ≤ ${limit} × alone: ${met(ok)}${floorAbove}`);
    out.push(`≥ ${SPECULATED_GOAL * 100} % speculated: ${met(s.followed > 0 && s.speculated / s.followed >= SPECULATED_GOAL)}`);
  }
  const waste = Math.max(s.unusedShare ?? 0, s.extraShare ?? 0);
  out.push(`extra bytes ≤ ${EXTRA_BYTES_GOAL * 100} %: ${met(waste <= EXTRA_BYTES_GOAL)}`);
  out.push(`0 never: ${met(s.neverRequests === 0)}`);
  out.push(`0 duplicates: ${met(s.duplicates === 0)}`);
  if (s.quietRatio !== null) out.push(`no-speculation cost within ±${OVERHEAD_NOISE * 100} %: ${met(Math.abs(s.quietRatio - 1) <= OVERHEAD_NOISE)}`);
  return out;
}

export function navTable(cells: readonly NavCell[]): string {
  const head = '| browser | link | cache | contender | followed | paint | alone median (ms) | getlist median (ms) | ratio of medians | ratio per link | first / repeat visits, per link | floor per link [of medians] | speculated | prerendered | unused ahead | extra bytes | never | duplicates | no-speculation steps (ratio) | hovers seen | goals |';
  // A contender walked several times (`--walks N`) is one row: its summary pools the walks.
  const contenders = (c: NavCell) => [...new Set(c.runs.map((r) => r.contender))].filter((x) => x !== 'alone');
  const rows = cells.flatMap((c) => contenders(c).map((contender) => {
    const s = c.summaries?.[contender];
    const lead = `| ${c.browser} | ${c.link} | ${c.cache} | ${contender} |`;
    if (s === undefined) return `${lead} – | – | – | – | – | – | – | – | – | – | – | – | – | – | – | – | ${c.runs.map((x) => x.error).filter(Boolean).join('; ') || 'incomplete'} |`;
    return `${lead} ${s.followed}${s.walks !== undefined ? ` (${s.walks} walks)` : ''} | ${s.paint === 'lcp' ? 'LCP' : 'hero image end'} | ${ms(s.aloneMedianMs)} | ${ms(s.getlistMedianMs)} | ${ratio(s.ratio)} | ${ratio(s.linkRatio ?? null)} | ${visitsCell(s)} | ${floorCell(s)} | ${s.speculated}/${s.followed} | ${s.prerendered} | ${pct(s.unusedShare)} | ${pct(s.extraShare)} | ${never(s)} | ${dups(s)} | ${s.quietSteps} (${ratio(s.quietRatio)}) | ${s.pointerSteps}/${s.followed} | ${cellGoals(c, contender, s).join('; ')} |`;
  }));
  return [head, `|${'---|'.repeat(21)}`, ...rows].join('\n');
}
