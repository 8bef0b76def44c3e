import { hostOf, pageKey, templateKey } from '../hints/site-template';
import { queryKeysOf } from './link-safety';
import type { PageFollows, ServedReport, ServedTiming, SiteOutcome, SpeculationContext, SpeculationState } from './speculation-types';
import type { SpeculationSettings } from './speculation-settings';

/** Bounds of the learned state (each map drops its least recently written key past its bound). */
export const SPECULATION_LIMITS = {
  pages: 300,
  targetsPerPage: 20,
  templates: 300,
  queryKeysPerTemplate: 20,
  noStore: 500,
  docBytes: 500,
  baselines: 300,
  baselineVisits: 5,
  sites: 100,
  /** Documents one page may ask for ahead. */
  perPage: 10,
  /** Links fetched at once on an eager page. */
  frequent: 2,
} as const;

export function createSpeculationState(): SpeculationState {
  return { pages: new Map(), queryKeys: new Map(), noStore: new Set(), docBytes: new Map(), baselines: new Map(), sites: new Map() };
}

/** A top-level document of `url` committed (not private, speculation allowed on its site). */
export function pageCommitted(state: SpeculationState, url: string): void {
  const key = pageKey(url);
  const template = templateKey(url);
  if (!key || !template) return;
  const page = state.pages.get(key) ?? { visits: 0, follows: {} };
  page.visits += 1;
  put(state.pages, key, page, SPECULATION_LIMITS.pages);
  const keys = queryKeysOf(new URL(url).search);
  if (keys.length === 0) return;
  const known = state.queryKeys.get(template) ?? [];
  const merged = [...new Set([...known, ...keys])].slice(-SPECULATION_LIMITS.queryKeysPerTemplate);
  put(state.queryKeys, template, merged, SPECULATION_LIMITS.templates);
}

/** The tab went from `from` to `to` by a link (a same-origin one: cross-origin follows are not learned). */
export function linkFollowed(state: SpeculationState, from: string, to: string): void {
  const fromKey = pageKey(from);
  const toKey = pageKey(to);
  if (!fromKey || !toKey || fromKey === toKey || new URL(fromKey).origin !== new URL(toKey).origin) return;
  const page = state.pages.get(fromKey);
  if (!page) return;
  const follows: Record<string, number> = { ...page.follows, [toKey]: (page.follows[toKey] ?? 0) + 1 };
  const kept = Object.entries(follows).sort((a, b) => b[1] - a[1]).slice(0, SPECULATION_LIMITS.targetsPerPage);
  put(state.pages, fromKey, { visits: page.visits, follows: Object.fromEntries(kept) }, SPECULATION_LIMITS.pages);
}

/**
 * The pages followed from `url` on most of its earlier visits: more than half of them, and at
 * least 2 (one visit says nothing about a habit). Most followed first.
 */
export function frequentTargets(state: SpeculationState, url: string): string[] {
  const page = state.pages.get(pageKey(url) ?? '');
  if (!page) return [];
  return frequentOf(page);
}

function frequentOf(page: PageFollows): string[] {
  // The current visit is counted already (pageCommitted at commit): earlier visits are visits - 1.
  const earlier = page.visits - 1;
  return Object.entries(page.follows)
    .filter(([, n]) => n >= 2 && n * 2 > earlier)
    .sort((a, b) => b[1] - a[1])
    .slice(0, SPECULATION_LIMITS.frequent)
    .map(([k]) => k);
}

/**
 * The tab left a page that asked for `speculated` ahead, for `next` (undefined: the tab closed, or
 * went somewhere not by a link). One of them followed; the others wasted their bytes.
 */
export function speculationsSettled(state: SpeculationState, host: string, speculated: readonly string[], next: string | undefined): void {
  if (speculated.length === 0 || host === '') return;
  const nextKey = next === undefined ? undefined : pageKey(next);
  const site = { ...(state.sites.get(host) ?? emptyOutcome()) };
  for (const url of new Set(speculated)) {
    site.speculated += 1;
    if (url === nextKey) site.followed += 1;
    else {
      const bytes = state.docBytes.get(url);
      if (bytes === undefined) site.wastedUnsized += 1;
      else site.wastedBytes += bytes;
    }
  }
  put(state.sites, host, site, SPECULATION_LIMITS.sites);
}

export function emptyOutcome(): SiteOutcome {
  return { speculated: 0, followed: 0, wastedBytes: 0, wastedUnsized: 0 };
}

/** Whether a report says the document came from a speculation. */
export function servedVia(report: ServedReport): 'prefetch' | 'prerender' | 'network' {
  if (report.prerendered) return 'prerender';
  return report.deliveryType === 'navigational-prefetch' ? 'prefetch' : 'network';
}

/** A page's report of itself: its size, and a baseline visit when it was fetched on the click (a plain navigation). */
export function pageServed(state: SpeculationState, url: string, report: ServedReport): void {
  const key = pageKey(url);
  if (!key) return;
  if (report.encodedBodySize !== undefined && report.encodedBodySize > 0) put(state.docBytes, key, report.encodedBodySize, SPECULATION_LIMITS.docBytes);
  // Only a visit the network served on a click or a typed URL compares with a speculated one: a
  // reload or history step may come from the cache.
  if (servedVia(report) !== 'network' || report.deliveryType !== '' || report.navigationType !== 'navigate') return;
  const timing: ServedTiming = { responseStartMs: report.responseStartMs, ...(report.lcpMs !== undefined ? { lcpMs: report.lcpMs } : {}) };
  const visits = [...(state.baselines.get(key) ?? []), timing].slice(-SPECULATION_LIMITS.baselineVisits);
  put(state.baselines, key, visits, SPECULATION_LIMITS.baselines);
}

/** A document's `Cache-Control` as Detailed capture saw it: a `no-store` page is never fetched ahead. */
export function documentCacheControl(state: SpeculationState, url: string, cacheControl: string | undefined): void {
  const key = pageKey(url);
  if (!key) return;
  const noStore = cacheControl !== undefined && /(^|,)\s*no-store\s*(,|$)/i.test(cacheControl);
  state.noStore.delete(key);
  if (noStore) {
    state.noStore.add(key);
    if (state.noStore.size > SPECULATION_LIMITS.noStore) state.noStore.delete(state.noStore.values().next().value as string);
  }
}

/**
 * Lean capture sees no response headers, so it learns `no-store` from what the browser did with the
 * document: the HTTP cache keeps every document it may store, and a `no-store` answer may not be
 * stored (RFC 9111 §5.2.2.5). A document the cache did not keep is refused like one seen answering
 * `no-store` until a later visit finds it kept — on the safe side for the other reasons a cache
 * keeps nothing (a `Vary` it cannot match, a body too large, a cache turned off: with DevTools'
 * "Disable cache" every page visited is refused, and only pages not yet visited are fetched ahead).
 */
export function documentKept(state: SpeculationState, url: string, kept: boolean): void {
  documentCacheControl(state, url, kept ? undefined : 'no-store');
}

/** What the page at `url` gets: the action and eagerness the options say, and what the site was seen to do. */
export function contextFor(state: SpeculationState, url: string, settings: Pick<SpeculationSettings, 'prerender' | 'eagerness'>): SpeculationContext {
  const origin = new URL(url).origin;
  const sameOrigin = (k: string) => k.startsWith(`${origin}/`);
  return {
    action: settings.prerender ? 'prerender' : 'prefetch',
    eagerness: settings.eagerness,
    frequent: settings.eagerness === 'eager' ? frequentTargets(state, url) : [],
    visited: settings.prerender ? [...state.pages.keys()].filter(sameOrigin) : [],
    site: {
      queryKeys: Object.fromEntries([...state.queryKeys].filter(([k]) => sameOrigin(k))),
      noStore: [...state.noStore].filter(sameOrigin),
    },
    maxPerPage: SPECULATION_LIMITS.perPage,
  };
}

/** Forgets what was learned of `host`'s pages, or everything. Returns the keys removed. */
export function forgetSpeculation(state: SpeculationState, host?: string): number {
  let removed = 0;
  const drop = (key: string) => host === undefined || hostOf(key) === host;
  for (const map of [state.pages, state.queryKeys, state.docBytes, state.baselines] as Map<string, unknown>[]) {
    for (const key of [...map.keys()]) if (drop(key) && map.delete(key)) removed += 1;
  }
  for (const key of [...state.noStore]) if (drop(key) && state.noStore.delete(key)) removed += 1;
  for (const key of [...state.sites.keys()]) if ((host === undefined || key === host) && state.sites.delete(key)) removed += 1;
  return removed;
}

/** Median of the baseline visits, per figure. */
export function baselineOf(visits: readonly ServedTiming[]): (ServedTiming & { visits: number }) | null {
  if (visits.length === 0) return null;
  const lcps = visits.flatMap((v) => (v.lcpMs === undefined ? [] : [v.lcpMs]));
  return { visits: visits.length, responseStartMs: median(visits.map((v) => v.responseStartMs)), ...(lcps.length > 0 ? { lcpMs: median(lcps) } : {}) };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function put<V>(map: Map<string, V>, key: string, value: V, bound: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > bound) map.delete(map.keys().next().value as string);
}
