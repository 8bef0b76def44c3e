import { hintsFor, linkHeaderValue, withAppliedHints } from './hint-list';
import type { Hint, HintLimits, HintList, LearnedState } from './hint-types';
import { hostOf, templateRegex } from './site-template';

/**
 * The declarativeNetRequest session rules that put the hints on the wire: a `Link` response
 * header appended to the main document, so the browser acts on them when the response headers
 * arrive — before a byte of HTML is parsed (the "inline list before the HTML" of Auto Inline
 * Download, Chandranmenon & Varghese 2001, sent by the client to itself).
 *
 * Per learned page: a modifyHeaders rule (priority 3) with the page's list (its template's merged
 * in) and an `allow` rule (priority 2) on the same URL, which stops the template's rule (priority 1)
 * from appending a second list to a page that has its own. Only keys with a non-empty list, whose
 * host `allowed` accepts, get rules. The hints the user applied to a page (`applied`: the popup's
 * suggestions) join that page's list, and give it a rule of its own even before it has visits
 * enough for a learned list: a `Link` header is the one way Detailed capture hints a page.
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
  /** Hints the user applied, by page key (site-template.ts `pageKey`), merged into that page's list. @default none */
  applied?: ReadonlyMap<string, readonly Hint[]>;
}

export function hintRules(state: LearnedState, o: DnrRuleOptions): DnrRule[] {
  const rules: DnrRule[] = [];
  let regexRules = 0;
  const maxRegex = o.maxRegexRules ?? 500;
  const withPageRule = new Set<string>();
  const push = (kind: 'page' | 'template', key: string, list: HintList): void => {
    if (list.preconnects.length + list.preloads.length === 0) return;
    const filter = kind === 'page' ? urlCondition(key) : { regexFilter: templateRegex(key) };
    const isRegex = filter.regexFilter !== undefined;
    if (isRegex && regexRules + (kind === 'page' ? 2 : 1) > maxRegex) return;
    if (isRegex) regexRules += kind === 'page' ? 2 : 1;
    const condition = { resourceTypes: ['main_frame'] as ['main_frame'], ...filter };
    const append = { type: 'modifyHeaders' as const, responseHeaders: [{ header: 'link', operation: 'append' as const, value: linkHeaderValue(list) }] };
    if (kind === 'page') {
      withPageRule.add(key);
      rules.push({ id: rules.length + 1, priority: 3, action: append, condition });
      rules.push({ id: rules.length + 1, priority: 2, action: { type: 'allow' }, condition });
    } else {
      rules.push({ id: rules.length + 1, priority: 1, action: append, condition });
    }
  };
  for (const entry of state.entries.values()) {
    const applied = entry.kind === 'page' ? (o.applied?.get(entry.key) ?? []) : [];
    // A page with fewer visits than a list needs gets its template's rule, not one of its own.
    if (!o.allowed(entry.host) || (entry.visits.length < o.limits.minRecurrence && applied.length === 0)) continue;
    // A template's list is what a new page of it gets; a page's is its own (with its template's).
    const url = entry.kind === 'page' ? entry.key : (entry.visits[entry.visits.length - 1]?.url ?? entry.key);
    const list = hintsFor(entry.kind === 'page' ? state.entries : new Map([[entry.key, entry]]), url, o.limits);
    push(entry.kind, entry.key, withAppliedHints(list, applied));
  }
  // Pages with applied hints and nothing learned of their own yet: their template's list and those hints.
  for (const [key, applied] of o.applied ?? []) {
    if (withPageRule.has(key) || applied.length === 0 || !o.allowed(hostOf(key))) continue;
    push('page', key, withAppliedHints(hintsFor(state.entries, key, o.limits), applied));
  }
  return rules;
}

/** `|url|` (anchored both ends) when the URL has none of urlFilter's special characters; else an escaped regex. */
function urlCondition(url: string): { urlFilter?: string; regexFilter?: string; isUrlFilterCaseSensitive?: boolean } {
  if (!/[*^|]/.test(url)) return { urlFilter: `|${url}|`, isUrlFilterCaseSensitive: true };
  return { regexFilter: `^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
}
