import type { PageRecord } from '../model/page-record';
import type { Hint, HintList, LearnedEntry } from './hint-types';
import { completeOf } from './observe-visit';
import { median } from '../../stats/median';
import { originOf } from '../../core/url-parts';

/**
 * What became of one load's hints, for the popup.
 *
 * A preload is `used` when the page itself referenced the URL (the content script saw an element
 * or CSS rule name it) or, for what it cannot see (fonts and `@import`s inside cross-origin
 * sheets), when the browser fetched it once and the earlier unhinted visits needed it too; it is
 * `wasted` when it was fetched twice (a preload the consuming request did not match) or the page
 * never referenced it. A preconnect is used when the page requested anything from that origin.
 */
export interface HintVerdict {
  hint: Hint;
  verdict: 'used' | 'wasted';
  why: string;
}

export interface HintOutcome {
  url: string;
  verdicts: HintVerdict[];
  /** URLs fetched more than once in this load, of the preloads (each a mismatched preload). */
  duplicates: string[];
  /** This load's navigation start → last response end, ms. */
  completeMs?: number;
  /** The median of the same page's earlier unhinted visits, ms, and how many there were. */
  unhintedMedianMs?: number;
  unhintedVisits: number;
  /** unhintedMedianMs − completeMs (positive: faster). */
  savedMs?: number;
}

export function hintOutcome(applied: HintList, page: PageRecord, entries: readonly LearnedEntry[]): HintOutcome {
  const top = page.requests.filter((r) => r.frameId === 0);
  const fetches = new Map<string, number>();
  for (const r of top) fetches.set(r.url, (fetches.get(r.url) ?? 0) + 1);
  // A preload from the document's Link header can go out before the background has the page's
  // record (Chromium acts on the header before the navigation commits), so its webRequest event
  // may be missing; the page's own Resource Timing still lists it. Fetched = the larger count.
  const timed = new Map<string, number>();
  for (const t of page.timings) timed.set(t.name, (timed.get(t.name) ?? 0) + 1);
  for (const [url, n] of timed) if (n > (fetches.get(url) ?? 0)) fetches.set(url, n);
  const referenced = new Set(page.discoveries.map((d) => d.url));
  const neededBefore = new Set(entries.flatMap((e) => e.visits.filter((v) => !v.hinted).flatMap((v) => v.resources.map((r) => r.url))));
  const requestedOrigins = new Set(top.filter((r) => r.type !== 'main_frame').map((r) => originOf(r.url)));

  const verdicts: HintVerdict[] = [];
  const duplicates: string[] = [];
  for (const hint of applied.preconnects) {
    const used = requestedOrigins.has(hint.href);
    verdicts.push({ hint, verdict: used ? 'used' : 'wasted', why: used ? 'the page requested from this origin' : 'the page requested nothing from this origin' });
  }
  for (const hint of applied.preloads) {
    const n = fetches.get(hint.href) ?? 0;
    if (n > 1) {
      duplicates.push(hint.href);
      verdicts.push({ hint, verdict: 'wasted', why: `fetched ${n} times: the page's request did not match the preload` });
    } else if (referenced.has(hint.href)) verdicts.push({ hint, verdict: 'used', why: 'the page referenced it' });
    else if (n === 1 && (hint.as === 'font' || hint.as === 'style') && neededBefore.has(hint.href)) verdicts.push({ hint, verdict: 'used', why: 'fetched once, and needed on earlier visits' });
    else verdicts.push({ hint, verdict: 'wasted', why: n === 0 ? 'never fetched' : 'the page did not reference it' });
  }

  const pageEntry = entries.find((e) => e.kind === 'page');
  const baseline = (pageEntry?.visits ?? []).filter((v) => !v.hinted && v.at < page.startedAt && v.completeMs !== undefined).map((v) => v.completeMs as number);
  const completeMs = completeOf(page);
  const unhintedMedianMs = baseline.length > 0 ? median(baseline) : undefined;
  return {
    url: applied.url,
    verdicts,
    duplicates,
    ...(completeMs !== undefined ? { completeMs } : {}),
    ...(unhintedMedianMs !== undefined ? { unhintedMedianMs } : {}),
    unhintedVisits: baseline.length,
    ...(completeMs !== undefined && unhintedMedianMs !== undefined ? { savedMs: unhintedMedianMs - completeMs } : {}),
  };
}


