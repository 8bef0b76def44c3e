/**
 * One cell of the navigation benchmark — a browser, a link, the cache on or off — and its figures
 * against the goals: each contender's run (the browser alone, and with the extension) with its
 * steps and the log's judgement, summarised as the median navigation start → LCP over the followed
 * links both runs completed, the share of followed links a speculation served, the bytes fetched
 * ahead for links never clicked, requests for never links, duplicates, and the extension's cost
 * on the steps where it fetched nothing ahead.
 */
import { median as medianOf } from '../../src/stats/median';
import { documentOnlyFloor, readyFloor } from './nav-floors';
import type { NavLogEntry } from './nav-log';
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
  ratio: number | null;
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
}

/** Steps of one kind and the ratio of their medians. */
export interface VisitRatio {
  steps: number;
  ratio: number | null;
}

/** `document`: a prefetch's floor; `ready`: a prerender's, from `steps` wholly prerendered steps. */
export interface NavFloor {
  kind: 'document' | 'ready';
  ratio: number | null;
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
const round = (x: number | null, d = 3): number | null => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

export function summarize(cell: NavCell, contender: NavContender): NavSummary | undefined {
  const alone = cell.runs.find((r) => r.contender === 'alone' && r.error === undefined);
  const ext = cell.runs.find((r) => r.contender === contender && r.error === undefined);
  if (alone === undefined || ext === undefined) return undefined;
  const ok = (s: StepResult | undefined): s is StepResult => s !== undefined && s.error === undefined;
  const pairs = ext.steps.map((s) => [alone.steps.find((a) => a.step === s.step), s] as const).filter((p): p is readonly [StepResult, StepResult] => ok(p[0]) && ok(p[1]));
  const paint = pairs.some(([a, e]) => a.lcpMs != null && e.lcpMs != null) ? 'lcp' : 'hero';
  const usable = pairs.filter(([a, e]) => paintOf(a, paint) != null && paintOf(e, paint) != null);
  // Alone's and the contender's median paint over some of the usable pairs, and their ratio.
  const medians = (part: typeof usable) => {
    const am = median(part.map(([a]) => paintOf(a, paint) as number));
    const em = median(part.map(([, e]) => paintOf(e, paint) as number));
    return { aloneMedian: am, extMedian: em, ratio: am !== null && em !== null && am > 0 ? round(em / am) : null };
  };
  const { aloneMedian, extMedian, ratio } = medians(usable);
  const byLog = new Set(ext.judgement.speculatedSteps);
  const served = (s: StepResult) => (cell.browser === 'chromium' ? s.deliveryType === 'navigational-prefetch' || (s.activationStart ?? 0) > 0 : byLog.has(s.step));
  const aheadSteps = new Set(ext.judgement.speculativeSteps);
  const quiet = usable.filter(([, e]) => !aheadSteps.has(e.step) && !served(e));
  const plainBytes = alone.judgement.bytes;
  const paintFn = (s: StepResult) => paintOf(s, paint);
  const floor: NavFloor = prerenders(contender)
    ? { kind: 'ready', ...readyFloor(usable.map(([, e]) => e), paintFn, aloneMedian) }
    : { kind: 'document', ratio: documentOnlyFloor(usable.map(([a]) => a), paintFn, aloneMedian) };
  // The step that opens each page for the first time in the walk.
  const firstStepOf = new Map<string, number>();
  for (const a of alone.steps) if (!firstStepOf.has(a.target)) firstStepOf.set(a.target, a.step);
  const visitRatio = (first: boolean): VisitRatio => {
    const part = usable.filter(([a]) => (firstStepOf.get(a.target) === a.step) === first);
    return { steps: part.length, ratio: medians(part).ratio };
  };
  return {
    followed: pairs.length,
    paint,
    aloneMedianMs: round(aloneMedian, 0),
    getlistMedianMs: round(extMedian, 0),
    ratio,
    speculated: pairs.filter(([, e]) => served(e)).length,
    prerendered: pairs.filter(([, e]) => (e.activationStart ?? 0) > 0).length,
    unusedShare: plainBytes > 0 ? round(ext.judgement.speculative.unusedBytes / plainBytes) : null,
    extraShare: plainBytes > 0 ? round((ext.judgement.bytes - plainBytes) / plainBytes) : null,
    neverRequests: ext.judgement.neverRequests,
    neverFirstSight: ext.judgement.neverFirstSight ?? 0,
    duplicates: ext.judgement.duplicates.length,
    resumed: ext.judgement.resumed?.length ?? 0,
    quietSteps: quiet.length,
    quietRatio: round(median(quiet.map(([a, e]) => (paintOf(e, paint) as number) / Math.max(1, paintOf(a, paint) as number)))),
    pointerSteps: ext.steps.filter((s) => s.pointerEvents > 0).length,
    floor,
    byVisit: { first: visitRatio(true), repeat: visitRatio(false) },
  };
}

/** Each contender's summary against the browser alone (those that have one). */
export function summariesOf(cell: NavCell): NavCell['summaries'] {
  return Object.fromEntries(cell.runs.filter((r) => r.contender !== 'alone').map((r) => [r.contender, summarize(cell, r.contender)]).filter(([, s]) => s !== undefined));
}
