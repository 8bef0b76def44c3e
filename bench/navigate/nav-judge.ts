/**
 * The servers' logs as the judge of one run of the scripted user: the log lines of the run's time
 * span, split into its steps (a step runs from its first hover to the next step's first hover, so
 * what a hover fetched ahead and what the click then fetched fall in one step). Per run: requests
 * and bytes sent; what browsers marked as fetched ahead (`Sec-Purpose`, `X-Moz`) and how much of it
 * no click used; requests for the links no speculation may fetch (nav-site.ts NEVER_LINKS) beyond
 * the user's own clicks (a `no-store` answer is known only once the page has answered once: a fetch
 * ahead of its first answer is counted apart, as first sight); and duplicates — one URL served
 * twice within one step where the click's own load fetched it at least once (fetched ahead and
 * again, or twice by the load), which a cache or a used prefetch should have spared; fetches ahead
 * alone are counted in the bytes fetched ahead instead. A request with a
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
    const counts = new Map<string, { plain: number; ahead: number }>();
    const ranges = new Map<string, number>();
    for (const e of list) {
      if (IGNORED.has(e.uri)) continue;
      const url = `${e.host}${e.uri}`;
      if ((e.range ?? '') !== '') {
        ranges.set(url, (ranges.get(url) ?? 0) + 1);
        continue;
      }
      const c = counts.get(url) ?? { plain: 0, ahead: 0 };
      if (isSpeculative(e)) c.ahead += 1;
      else c.plain += 1;
      counts.set(url, c);
    }
    // Fetches ahead alone are not duplicates: two prerendered pages that share a file each fetch it
    // when the cache is off, and what no click used is counted in the bytes fetched ahead.
    for (const [url, c] of counts) if (c.plain > 1 || (c.plain === 1 && c.ahead > 0)) duplicates.push({ step, url, count: c.plain + c.ahead });
    for (const [url, count] of ranges) resumed.push({ step, url, count });
    const target = targets.get(step);
    const isTarget = (e: NavLogEntry) => e.host === NAV_ORIGINS.www && e.uri === target;
    const aheadDocs = new Set(list.filter((e) => isSpeculative(e) && e.host === NAV_ORIGINS.www).map((e) => e.uri));
    if (target !== undefined && aheadDocs.has(target) && !list.some((e) => isTarget(e) && !isSpeculative(e))) speculatedSteps.push(step);
    // Fetched ahead and not for the clicked page: another page's document or own images (a prerender
    // loads them, named after their page), and the files every page shares unless the clicked page
    // was fetched ahead — then one copy of each is the click's, and any other copy (two prerendered
    // pages fetching it with the cache off) is not.
    const clickedAhead = target !== undefined && aheadDocs.has(target);
    const sharedForClick = new Set<string>();
    const forClick = (e: NavLogEntry): boolean => {
      if (e.host === NAV_ORIGINS.www) return isTarget(e);
      const page = pageOfFile(e.uri);
      if (page !== undefined) return page === target;
      const url = `${e.host}${e.uri}`;
      if (!clickedAhead || sharedForClick.has(url)) return false;
      sharedForClick.add(url);
      return true;
    };
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
