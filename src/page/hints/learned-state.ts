import type { HintLimits, LearnedEntry, LearnedState, Visit } from './hint-types';
import { hostOf, pageKey, templateKey } from './site-template';

/**
 * The learned state's changes, pure. Invariants: an entry holds at most `visitsKept` visits (most
 * recent last) and `blockedPerKey` blocked URLs; a hostname at most `keysPerSite` keys and the
 * state at most `keysTotal` — past a bound the least recently visited key goes first. The Map's
 * order is that recency (a visit moves its keys to the end).
 */

export function createLearnedState(): LearnedState {
  return { version: 1, entries: new Map() };
}

/** Adds a visit under its page key and its template key. Returns the keys it touched. */
export function recordVisit(state: LearnedState, visit: Visit, limits: HintLimits): string[] {
  const touched: string[] = [];
  const host = hostOf(visit.url);
  const keys: Array<[string | undefined, LearnedEntry['kind']]> = [[pageKey(visit.url), 'page'], [templateKey(visit.url), 'template']];
  for (const [key, kind] of keys) {
    if (!key || !host) continue;
    // A page whose template is itself (a site's root, `/about`) is learned once, as a page.
    if (kind === 'template' && touched.includes(key)) continue;
    const entry = state.entries.get(key) ?? { key, kind, host, visits: [], blocked: [] };
    entry.visits = [...entry.visits, visit].slice(-limits.visitsKept);
    state.entries.delete(key);
    state.entries.set(key, entry);
    touched.push(key);
  }
  enforceBounds(state, host, limits);
  return touched;
}

/** Never hint `urls` again under `keys` (they were fetched twice when hinted). */
export function blockUrls(state: LearnedState, keys: readonly string[], urls: readonly string[], limits: HintLimits): void {
  if (urls.length === 0) return;
  for (const key of keys) {
    const entry = state.entries.get(key);
    if (!entry) continue;
    entry.blocked = [...new Set([...entry.blocked, ...urls])].slice(-limits.blockedPerKey);
  }
}

/** Forgets every key of `host` (and its subdomains when `host` starts with `*.`). Returns how many. */
export function forgetHost(state: LearnedState, host: string): number {
  const h = host.toLowerCase().replace(/\.$/, '');
  const suffix = h.startsWith('*.') ? h.slice(2) : undefined;
  let removed = 0;
  for (const [key, entry] of state.entries) {
    const match = suffix === undefined ? entry.host === h : entry.host === suffix || entry.host.endsWith(`.${suffix}`);
    if (!match) continue;
    state.entries.delete(key);
    removed++;
  }
  return removed;
}

/**
 * Forgets the least recently visited `share` of the keys (at least one): what gives way when the
 * storage area is full. Returns the keys forgotten.
 */
export function dropLeastRecent(state: LearnedState, share: number): string[] {
  const n = Math.min(state.entries.size, Math.max(1, Math.ceil(state.entries.size * share)));
  const dropped = [...state.entries.keys()].slice(0, n);
  for (const key of dropped) state.entries.delete(key);
  return dropped;
}

function enforceBounds(state: LearnedState, host: string, limits: HintLimits): void {
  const ofHost = [...state.entries.values()].filter((e) => e.host === host);
  for (const e of ofHost.slice(0, Math.max(0, ofHost.length - limits.keysPerSite))) state.entries.delete(e.key);
  for (const key of state.entries.keys()) {
    if (state.entries.size <= limits.keysTotal) break;
    state.entries.delete(key);
  }
}
