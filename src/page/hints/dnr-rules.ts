import { hintsFor, linkHeaderValue } from './hint-list';
import type { HintLimits, LearnedState } from './hint-types';
import { templateRegex } from './site-template';

/**
 * The declarativeNetRequest session rules that put the hints on the wire: a `Link` response
 * header appended to the main document, so the browser acts on them when the response headers
 * arrive — before a byte of HTML is parsed (the "inline list before the HTML" of Auto Inline
 * Download, Chandranmenon & Varghese 2001, sent by the client to itself).
 *
 * Per learned page: a modifyHeaders rule (priority 3) with the page's list (its template's merged
 * in) and an `allow` rule (priority 2) on the same URL, which stops the template's rule (priority 1)
 * from appending a second list to a page that has its own. Only keys with a non-empty list, whose
 * host `allowed` accepts, get rules.
 */
export interface DnrRule {
  id: number;
  priority: number;
  action:
    | { type: 'modifyHeaders'; responseHeaders: Array<{ header: string; operation: 'append'; value: string }> }
    | { type: 'allow' };
  condition: { resourceTypes: ['main_frame']; urlFilter?: string; regexFilter?: string; isUrlFilterCaseSensitive?: boolean };
}

export interface DnrRuleOptions {
  limits: HintLimits;
  /** Whether hints may be applied on this hostname (global switch, per-site switch, exclusions). */
  allowed: (host: string) => boolean;
  /** Regex rules at most (Chrome allows 1000 over dynamic and session rules). @default 500 */
  maxRegexRules?: number;
}

export function hintRules(state: LearnedState, o: DnrRuleOptions): DnrRule[] {
  const rules: DnrRule[] = [];
  let regexRules = 0;
  const maxRegex = o.maxRegexRules ?? 500;
  for (const entry of state.entries.values()) {
    // A page with fewer visits than a list needs gets its template's rule, not one of its own.
    if (!o.allowed(entry.host) || entry.visits.length < o.limits.minRecurrence) continue;
    // A template's list is what a new page of it gets; a page's is its own (with its template's).
    const url = entry.kind === 'page' ? entry.key : (entry.visits[entry.visits.length - 1]?.url ?? entry.key);
    const list = hintsFor(entry.kind === 'page' ? state.entries : new Map([[entry.key, entry]]), url, o.limits);
    if (list.preconnects.length + list.preloads.length === 0) continue;
    const filter = entry.kind === 'page' ? urlCondition(entry.key) : { regexFilter: templateRegex(entry.key) };
    const isRegex = filter.regexFilter !== undefined;
    if (isRegex && regexRules + (entry.kind === 'page' ? 2 : 1) > maxRegex) continue;
    if (isRegex) regexRules += entry.kind === 'page' ? 2 : 1;
    const condition = { resourceTypes: ['main_frame'] as ['main_frame'], ...filter };
    const value = linkHeaderValue(list);
    if (entry.kind === 'page') {
      rules.push({ id: rules.length + 1, priority: 3, action: { type: 'modifyHeaders', responseHeaders: [{ header: 'link', operation: 'append', value }] }, condition });
      rules.push({ id: rules.length + 1, priority: 2, action: { type: 'allow' }, condition });
    } else {
      rules.push({ id: rules.length + 1, priority: 1, action: { type: 'modifyHeaders', responseHeaders: [{ header: 'link', operation: 'append', value }] }, condition });
    }
  }
  return rules;
}

/** `|url|` (anchored both ends) when the URL has none of urlFilter's special characters; else an escaped regex. */
function urlCondition(url: string): { urlFilter?: string; regexFilter?: string; isUrlFilterCaseSensitive?: boolean } {
  if (!/[*^|]/.test(url)) return { urlFilter: `|${url}|`, isUrlFilterCaseSensitive: true };
  return { regexFilter: `^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
}
