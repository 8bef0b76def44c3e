/**
 * The servers' logs as the judge of one run of the scripted user: the log lines of the run's time
 * span, split into its steps (a step runs from its first hover to the next step's first hover, so
 * what a hover fetched ahead and what the click then fetched fall in one step). Per run: requests
 * and bytes sent; what browsers marked as fetched ahead (`Sec-Purpose`, `X-Moz`) and how much of it
 * no click used; requests for the links no speculation may fetch (nav-site.ts NEVER_LINKS) beyond
 * the user's own clicks (a `no-store` answer is known only once the page has answered once: a fetch
 * ahead of its first answer is counted apart, as first sight); and duplicates — the click's own
 * load fetching a file twice within one step, or again after it was fetched ahead for that page,
 * which a cache or a used speculation should have spared (a file fetched ahead for another page is
 * that page's unused bytes). A request with a
 * `Range` is not a duplicate: it is the browser resuming a body its cache holds in part (Chromium
 * asks `bytes=N-N`, then `bytes=N-`, for an image a discarded prerender left half-loaded:
 * test/e2e/prerender-resume.test.ts shows Chromium alone doing it); those are counted apart.
 */
import { isSpeculative, type NavLogEntry } from './nav-log';
import { NAV_ORIGINS, NEVER_LINKS, pageOfFile } from './nav-site';

/** When a step began and what it clicked (walk.ts StepResult has these). */
export interface JudgedStep {
  step: number;
  target: string;
  hoverAt: number;
}

export interface RunJudgement {
  requests: number;
  bytes: number;
  speculative: { requests: number; bytes: number; unusedBytes: number };
  /**
   * Per never link: requests beyond the user's clicks on it (speculative ones count, but for the
   * no-store page's first: no one could know it answers no-store before it first answered).
   */
  never: Array<{ kind: string; uri: string; requests: number; firstSight: number }>;
  neverRequests: number;
  /** The no-store page fetched ahead before it had ever answered (not in `neverRequests`). */
  neverFirstSight?: number;
  duplicates: Array<{ step: number; url: string; count: number }>;
  /** URLs a step asked for by `Range`: a body the cache held in part, resumed (absent in older files). */
  resumed?: Array<{ step: number; url: string; count: number }>;
  /** Steps whose clicked document the log shows fetched ahead, and not fetched again. */
  speculatedSteps: number[];
  /** Steps in which anything was fetched ahead. */
  speculativeSteps: number[];
}

/** Browsers ask for it on their own, once per page view or not, whatever the cache says. */
const IGNORED = new Set(['/favicon.ico']);

/** The step each entry belongs to (-1: the first page, before any hover). */
export function stepOf(entry: NavLogEntry, steps: readonly JudgedStep[]): number {
  let at = -1;
  for (const s of steps) if (entry.msec * 1000 >= s.hoverAt) at = s.step;
  return at;
}

export function judgeRun(entries: readonly NavLogEntry[], steps: readonly JudgedStep[]): RunJudgement {
  const byStep = new Map<number, NavLogEntry[]>();
  for (const e of entries) {
    const k = stepOf(e, steps);
    byStep.set(k, [...(byStep.get(k) ?? []), e]);
  }
  const targets = new Map(steps.map((s) => [s.step, s.target]));
  const duplicates: RunJudgement['duplicates'] = [];
  const resumed: RunJudgement['duplicates'] = [];
  const speculatedSteps: number[] = [];
  let unusedBytes = 0;
  for (const [step, list] of byStep) {
    const target = targets.get(step);
    const isTarget = (e: NavLogEntry) => e.host === NAV_ORIGINS.www && e.uri === target;
    const aheadDocs = new Set(list.filter((e) => isSpeculative(e) && e.host === NAV_ORIGINS.www).map((e) => e.uri));
    if (target !== undefined && aheadDocs.has(target) && !list.some((e) => isTarget(e) && !isSpeculative(e))) speculatedSteps.push(step);
    // What a fetch ahead was for: its own document; a prerender's images, named after their page;
    // the files every page shares, the clicked page's when it was fetched ahead (one copy of each:
    // another copy is a second prerendered page's with the cache off), else another page's.
    const clickedAhead = target !== undefined && aheadDocs.has(target);
    const pageFile = (e: NavLogEntry): boolean | undefined => {
      if (e.host === NAV_ORIGINS.www) return isTarget(e);
      const page = pageOfFile(e.uri);
      return page === undefined ? undefined : page === target;
    };
    const sharedForClick = new Set<string>();
    const forClick = (e: NavLogEntry): boolean => {
      const own = pageFile(e);
      if (own !== undefined) return own;
      const url = `${e.host}${e.uri}`;
      if (!clickedAhead || sharedForClick.has(url)) return false;
      sharedForClick.add(url);
      return true;
    };
    // A duplicate: the click's own load fetched a file twice, or fetched again one fetched ahead for
    // it. A file fetched ahead for another page (a hovered one) and then by the click's load is that
    // page's unused bytes, as is one two prerendered pages each fetched.
    const counts = new Map<string, { plain: number; ahead: number; aheadForClick: boolean }>();
    const ranges = new Map<string, number>();
    for (const e of list) {
      if (IGNORED.has(e.uri)) continue;
      const url = `${e.host}${e.uri}`;
      if ((e.range ?? '') !== '') {
        ranges.set(url, (ranges.get(url) ?? 0) + 1);
        continue;
      }
      const c = counts.get(url) ?? { plain: 0, ahead: 0, aheadForClick: false };
      if (isSpeculative(e)) {
        c.ahead += 1;
        c.aheadForClick ||= pageFile(e) ?? clickedAhead;
      } else c.plain += 1;
      counts.set(url, c);
    }
    for (const [url, c] of counts) if (c.plain > 1 || (c.plain === 1 && c.aheadForClick)) duplicates.push({ step, url, count: c.plain + c.ahead });
    for (const [url, count] of ranges) resumed.push({ step, url, count });
    for (const e of list) if (isSpeculative(e) && !forClick(e)) unusedBytes += e.bytes;
  }
  const clicks = (uri: string) => steps.filter((s) => s.target === uri).length;
  const never = NEVER_LINKS.map((l) => {
    const hits = entries.filter((e) => e.host === l.host && e.uri === l.uri);
    const firstSight = l.kind === 'no-store' && hits[0] !== undefined && isSpeculative(hits[0]) ? 1 : 0;
    return { kind: l.kind, uri: l.uri, requests: Math.max(hits.length - clicks(l.uri), hits.filter(isSpeculative).length - firstSight), firstSight };
  });
  const ahead = entries.filter(isSpeculative);
  return {
    requests: entries.length,
    bytes: entries.reduce((n, e) => n + e.bytes, 0),
    speculative: { requests: ahead.length, bytes: ahead.reduce((n, e) => n + e.bytes, 0), unusedBytes },
    never,
    neverRequests: never.reduce((n, x) => n + x.requests, 0),
    neverFirstSight: never.reduce((n, x) => n + x.firstSight, 0),
    duplicates: duplicates.sort((a, b) => a.step - b.step),
    resumed: resumed.sort((a, b) => a.step - b.step),
    speculatedSteps: speculatedSteps.sort((a, b) => a - b),
    speculativeSteps: [...new Set(ahead.map((e) => stepOf(e, steps)))].sort((a, b) => a - b),
  };
}
