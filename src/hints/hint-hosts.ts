import { hintsFor } from './hint-list';
import type { HintLimits, LearnedState } from './hint-types';

/**
 * The hosts whose pages may get early hints, as WebExtension match patterns (`*://host/*`): where
 * lean capture's hint script (content-hints.js) is registered, so a page on any other host runs no
 * hint code at all — no script, no message, no storage read (extension/background/hint-script.ts).
 *
 * Same selection as the DNR rules (dnr-rules.ts): an entry counts when its host is `allowed`, it
 * has the visits a list needs, and its list is not empty. A match pattern cannot say a page or a
 * template (paths, queries): the script asks for its URL's list and gets none on the host's other pages.
 * Hostnames outside `[a-z0-9.-]` (IPv6 literals) get no pattern: the browsers' match patterns
 * differ on them, and one bad pattern makes the whole registration fail.
 */
export interface HintHostOptions {
  limits: HintLimits;
  allowed: (host: string) => boolean;
}

const PATTERN_HOST = /^[a-z0-9.-]+$/;

export function hintMatchPatterns(state: LearnedState, o: HintHostOptions): string[] {
  const hosts = new Set<string>();
  for (const entry of state.entries.values()) {
    if (hosts.has(entry.host) || !PATTERN_HOST.test(entry.host)) continue;
    if (!o.allowed(entry.host) || entry.visits.length < o.limits.minRecurrence) continue;
    const url = entry.kind === 'page' ? entry.key : (entry.visits[entry.visits.length - 1]?.url ?? entry.key);
    const list = hintsFor(entry.kind === 'page' ? state.entries : new Map([[entry.key, entry]]), url, o.limits);
    if (list.preconnects.length + list.preloads.length > 0) hosts.add(entry.host);
  }
  return [...hosts].sort().map((h) => `*://${h}/*`);
}
