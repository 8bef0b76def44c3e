import { isExcludedSite } from '../model/site-rules';
import type { SpeculationSettings } from './speculation-settings';

/**
 * Whether a page may speculate at all, before any of its links is looked at. A refusal here means
 * nothing is inserted into the page and nothing is learned from it (private windows, excluded
 * sites), or nothing is inserted (the rest).
 */
export type PageRefusal =
  /** Speculation is off in the options. */
  | 'off'
  /** The site is in the excluded sites. */
  | 'excluded'
  /** The popup's per-site switch is off for this site. */
  | 'site-off'
  /** A private / incognito window: no learning, no speculation. */
  | 'private'
  /** The user asked for less data: `navigator.connection.saveData` (the `Save-Data` header's source). */
  | 'save-data'
  /** The page has speculation rules of its own: the site decides, getlist leaves it alone. */
  | 'own-rules';

export interface PageEnvironment {
  url: string;
  settings: Pick<SpeculationSettings, 'speculation' | 'excludedSites' | 'speculationDisabledSites'>;
  /** undefined: not known yet (the tab is gone): treated as private. */
  incognito: boolean | undefined;
  saveData?: boolean;
  ownRules?: boolean;
}

/** The first reason the page gets no speculation, or undefined when it may have some. */
export function pageRefusal(env: PageEnvironment): PageRefusal | undefined {
  if (env.incognito !== false) return 'private';
  if (isExcludedSite(env.url, env.settings.excludedSites)) return 'excluded';
  if (!env.settings.speculation) return 'off';
  if (isExcludedSite(env.url, env.settings.speculationDisabledSites)) return 'site-off';
  if (env.saveData === true) return 'save-data';
  if (env.ownRules === true) return 'own-rules';
  return undefined;
}

/** Learning follows is allowed wherever the page is not private nor excluded, and speculation is on for the site. */
export function mayLearn(env: Omit<PageEnvironment, 'saveData' | 'ownRules'>): boolean {
  return pageRefusal(env) === undefined;
}
