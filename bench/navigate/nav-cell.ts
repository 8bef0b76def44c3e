/**
 * One cell of the navigation benchmark — a browser, a link, the cache on or off — and its figures
 * against the goals: each contender's run (the browser alone, and with the extension) with its
 * steps and the log's judgement, summarised as the median navigation start → LCP over the followed
 * links both runs completed, the share of followed links a speculation served, the bytes fetched
 * ahead for links never clicked, requests for never links, duplicates, and the extension's cost
 * on the steps where it fetched nothing ahead.
 */
import { median as medianOf } from '../../src/stats/median';
import { round as roundTo } from '../engine/stats';
import { documentOnlyFloor, readyFloor } from './nav-floors';
import type { NavLogEntry } from './nav-log';
import { INDEX_PATH } from './nav-site';
import { judgeRun, type RunJudgement } from './nav-judge';
import { prerenders, type NavContender } from './nav-contenders';
import type { NavBrowser } from './walk-session';
import type { StepResult } from './walk';

export interface NavRun {
  contender: NavContender;
  startedAt: number;
  endedAt: number;
  steps: StepResult[];
  judgement: RunJudgement;
  error?: string;
  /** Which walk of the cell this run was (`--walks N`), from 1; absent: the cell's only walk. */
  walk?: number;
}

export interface NavCell {
  browser: NavBrowser;
  link: string;
  cache: 'on' | 'off';
  runs: NavRun[];
  /** Each contender's figures against the browser alone's. */
  summaries?: Partial<Record<NavContender, NavSummary>>;
}

export interface NavSummary {
  /** Followed links both runs completed. */
  followed: number;
  /** Which paint the medians are: `lcp`, or `hero` (the LCP image's response end) where the browser reports no LCP entry. */
  paint: 'lcp' | 'hero';
  aloneMedianMs: number | null;
  getlistMedianMs: number | null;
  /** The contender's median paint over alone's. */
  ratio: number | null;
  /**
   * Per link: the median, over the followed links, of the contender's paint over alone's on the same
   * link (same walk, same step); absent in older files. The goals are judged on it (nav-table.ts).
   */
  linkRatio?: number | null;
  /** Followed links the extension's run had served by a speculation (Chromium: deliveryType or activation; Firefox: the log). */
  speculated: number;
  prerendered: number;
  /** Bytes fetched ahead and never used, over the browser alone's whole run. */
  unusedShare: number | null;
  /** (getlist − alone) / alone over the whole run's log. */
  extraShare: number | null;
  neverRequests: number;
  /** The no-store page fetched ahead before it had ever answered (nav-judge.ts); absent in older files. */
  neverFirstSight?: number;
  duplicates: number;
  /** URLs resumed by range requests in a step (nav-judge.ts), not duplicates; absent in older files. */
  resumed?: number;
  /** Steps where the extension's run fetched nothing ahead: their count and the median of paired LCP ratios. */
  quietSteps: number;
  quietRatio: number | null;
  /** Steps in which the page saw `pointerover` events while the user hovered (the hover was real). */
  pointerSteps: number;
  /** The best this contender's kind of speculation could reach on the path (nav-floors.ts); absent in older files. */
  floor?: NavFloor;
  /** The same ratio over the steps that open a page for the first time in the walk, and over the others; absent in older files. */
  byVisit?: { first: VisitRatio; repeat: VisitRatio };
  /** Walks pooled (`--walks N`); absent for one. */
  walks?: number;
}

/** Steps of one kind, the ratio of their medians and the median of their per-link ratios. */
export interface VisitRatio {
  steps: number;
  ratio: number | null;
  linkRatio?: number | null;
}

/** `document`: a prefetch's floor; `ready`: a prerender's, from `steps` wholly prerendered steps. Both readings, as for the ratio. */
export interface NavFloor {
  kind: 'document' | 'ready';
  ratio: number | null;
  linkRatio?: number | null;
  steps?: number;
}

/** The median, null for none. */
function median(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : medianOf(xs);
}

/** The log lines of a run's time span. */
export function runEntries(log: readonly NavLogEntry[], startedAt: number, endedAt: number): NavLogEntry[] {
  return log.filter((e) => e.msec * 1000 >= startedAt && e.msec * 1000 <= endedAt);
}

export function judge(log: readonly NavLogEntry[], run: Omit<NavRun, 'judgement'>): NavRun {
  return { ...run, judgement: judgeRun(runEntries(log, run.startedAt, run.endedAt), run.steps) };
}

const paintOf = (s: StepResult, paint: 'lcp' | 'hero'): number | null | undefined => (paint === 'lcp' ? s.lcpMs : s.heroEndMs);
const round = (x: number | null, d = 3): number | null => (x === null ? null : roundTo(x, d));

/** One walk's alone run and the contender's, and the pairs of steps both completed. */
interface WalkPair {
  alone: NavRun;
  ext: NavRun;
  pairs: Array<readonly [StepResult, StepResult]>;
  /** The step that opens each page for the first time in this walk. */
  firstStepOf: Map<string, number>;
}

/** The walks of a cell (`--walks N`; a run without a walk number is the cell's only walk), in order. */
function walksOf(cell: NavCell, contender: NavContender): WalkPair[] {
  const ok = (s: StepResult | undefined): s is StepResult => s !== undefined && s.error === undefined;
  const numbers = [...new Set(cell.runs.map((r) => r.walk ?? 1))].sort((a, b) => a - b);
  return numbers.flatMap((w) => {
    const find = (c: NavContender) => cell.runs.find((r) => r.contender === c && (r.walk ?? 1) === w && r.error === undefined);
    const alone = find('alone');
    const ext = find(contender);
    if (alone === undefined || ext === undefined) return [];
    const pairs = ext.steps.map((s) => [alone.steps.find((a) => a.step === s.step), s] as const).filter((p): p is readonly [StepResult, StepResult] => ok(p[0]) && ok(p[1]));
    // The walk loads the index before its first step (user-path.ts): a step back to it is a repeat.
    const firstStepOf = new Map<string, number>([[INDEX_PATH, -1]]);
    for (const a of alone.steps) if (!firstStepOf.has(a.target)) firstStepOf.set(a.target, a.step);
    return [{ alone, ext, pairs, firstStepOf }];
  });
}

/**
 * A contender's figures against the browser alone, over every walk of the cell: medians over the
 * followed links of all walks (each paired with alone's step of the same walk), shares and counts
 * summed over the walks' logs. About half the followed links open a page for the first time, and
 * every first visit is slower than every repeat one, so the ratio of the two medians is a ratio of
 * the repeat visits' slowest tails, however many walks are pooled (bench/README.md, "The headline
 * is the slowest visits to pages seen before"); the median of the per-link ratios is not.
 */
export function summarize(cell: NavCell, contender: NavContender): NavSummary | undefined {
  const walks = walksOf(cell, contender);
  if (walks.length === 0) return undefined;
  const pairs = walks.flatMap((w) => w.pairs.map(([a, e]) => ({ a, e, w })));
  const paint = pairs.some(({ a, e }) => a.lcpMs != null && e.lcpMs != null) ? 'lcp' : 'hero';
  const usable = pairs.filter(({ a, e }) => paintOf(a, paint) != null && paintOf(e, paint) != null);
  // Alone's and the contender's median paint over some of the usable pairs, their ratio, and the median per-link ratio.
  const medians = (part: typeof usable) => {
    const am = median(part.map(({ a }) => paintOf(a, paint) as number));
    const em = median(part.map(({ e }) => paintOf(e, paint) as number));
    const linkRatio = round(median(part.map(({ a, e }) => (paintOf(e, paint) as number) / Math.max(1, paintOf(a, paint) as number))));
    return { aloneMedian: am, extMedian: em, ratio: am !== null && em !== null && am > 0 ? round(em / am) : null, linkRatio };
  };
  const { aloneMedian, extMedian, ratio, linkRatio } = medians(usable);
  const served = (s: StepResult, w: WalkPair) => (cell.browser === 'chromium' ? s.deliveryType === 'navigational-prefetch' || (s.activationStart ?? 0) > 0 : w.ext.judgement.speculatedSteps.includes(s.step));
  const quiet = usable.filter(({ e, w }) => !w.ext.judgement.speculativeSteps.includes(e.step) && !served(e, w));
  const sum = (f: (w: WalkPair) => number) => walks.reduce((n, w) => n + f(w), 0);
  const plainBytes = sum((w) => w.alone.judgement.bytes);
  const paintFn = (s: StepResult) => paintOf(s, paint);
  const floor: NavFloor = prerenders(contender)
    ? { kind: 'ready', ...readyFloor(usable, paintFn, aloneMedian) }
    : { kind: 'document', ...documentOnlyFloor(usable.map(({ a }) => a), paintFn, aloneMedian) };
  const visitRatio = (first: boolean): VisitRatio => {
    const part = usable.filter(({ a, w }) => (w.firstStepOf.get(a.target) === a.step) === first);
    const m = medians(part);
    return { steps: part.length, ratio: m.ratio, linkRatio: m.linkRatio };
  };
  return {
    followed: pairs.length,
    paint,
    aloneMedianMs: round(aloneMedian, 0),
    getlistMedianMs: round(extMedian, 0),
    ratio,
    linkRatio,
    speculated: pairs.filter(({ e, w }) => served(e, w)).length,
    prerendered: pairs.filter(({ e }) => (e.activationStart ?? 0) > 0).length,
    unusedShare: plainBytes > 0 ? round(sum((w) => w.ext.judgement.speculative.unusedBytes) / plainBytes) : null,
    extraShare: plainBytes > 0 ? round((sum((w) => w.ext.judgement.bytes) - plainBytes) / plainBytes) : null,
    neverRequests: sum((w) => w.ext.judgement.neverRequests),
    neverFirstSight: sum((w) => w.ext.judgement.neverFirstSight ?? 0),
    duplicates: sum((w) => w.ext.judgement.duplicates.length),
    resumed: sum((w) => w.ext.judgement.resumed?.length ?? 0),
    quietSteps: quiet.length,
    quietRatio: medians(quiet).linkRatio,
    pointerSteps: sum((w) => w.ext.steps.filter((s) => s.pointerEvents > 0).length),
    floor,
    byVisit: { first: visitRatio(true), repeat: visitRatio(false) },
    ...(walks.length > 1 ? { walks: walks.length } : {}),
  };
}

/** Each contender's summary against the browser alone (those that have one). */
export function summariesOf(cell: NavCell): NavCell['summaries'] {
  const contenders = [...new Set(cell.runs.map((r) => r.contender))].filter((c) => c !== 'alone');
  return Object.fromEntries(contenders.map((c) => [c, summarize(cell, c)]).filter(([, s]) => s !== undefined));
}
