/**
 * A suggestion the user applied to a page's next visits: the hint it becomes (the hint engine's
 * own form, hint-types.ts), the page end of the visit it was predicted from, and the prediction,
 * so a later visit can show the measured saving beside the predicted one. Plain JSON, kept in
 * `storage.local` and checked when read back (bad entries are dropped, never trusted). Pure.
 */
import type { Hint, HintLimits } from '../hints/hint-types';
import { pageKey } from '../hints/site-template';

import type { Diagnosis } from './diagnose';
import type { Suggestion } from './suggestions';

export interface AppliedSuggestion {
  /** The page it applies to (site-template.ts `pageKey`). */
  key: string;
  suggestion: Suggestion;
  /** Epoch ms it was applied: visits that started later had it. */
  appliedAt: number;
  /** The page end of the visit the saving was predicted from, ms. */
  baselineEndMs: number;
  /**
   * When that visit sent its document's request, ms: the saving is counted from there, the part of
   * a load a hint can change (the document's own connection is the navigation's, and may be one
   * the browser's predictor opened ahead). Absent in entries kept before it was recorded.
   */
  baselineDocumentSentMs?: number;
}

/** Applied suggestions kept per page, most recent last. */
export const APPLIED_PER_PAGE = 8;
/** Pages with applied suggestions kept, most recent last. */
export const APPLIED_PAGES = 100;

/** The hint a suggestion becomes; a Chromium font waits for the body, as the hint list's fonts do (`fontPreloads`). */
export function hintOf(s: Suggestion, limits: Pick<HintLimits, 'fontPreloads'>): Hint {
  switch (s.kind) {
    case 'preconnect':
      return { rel: 'preconnect', href: s.href, ...(s.crossorigin ? { crossorigin: s.crossorigin } : {}) };
    case 'preload':
      return {
        rel: 'preload', href: s.href, as: s.as, ...(s.crossorigin ? { crossorigin: s.crossorigin } : {}), ...(s.type ? { type: s.type } : {}),
        ...(s.as === 'font' && limits.fontPreloads === 'after-body' ? { afterBody: true as const } : {}),
      };
    case 'fetchpriority':
      return { rel: 'preload', href: s.href, as: 'image', fetchpriority: 'high' };
  }
}

/**
 * The hints a suggestion becomes in a `Link` header (dnr-rules.ts): the browser asks for a header's
 * preloads when the document's headers arrive, before its parser asks for anything, so a preload
 * alone could take the connection the document's own sheet was to have, and delay the very chain
 * it shortens. What the document names ahead of it on its chain (`namedAhead`) is preloaded first,
 * in the document's order, as the prediction assumed.
 */
export function headerHintsOf(s: Suggestion, limits: Pick<HintLimits, 'fontPreloads'>): Hint[] {
  const ahead = s.kind === 'preload' ? (s.namedAhead ?? []) : [];
  return [...ahead.map((a): Hint => ({ rel: 'preload', href: a.href, as: a.as })), hintOf(s, limits)];
}

/** When a diagnosed load sent its document's request, ms (the document is its load's first request). */
export function documentSentMs(d: Pick<Diagnosis, 'load'>): number {
  return d.load.requests[0]?.sentMs ?? 0;
}

/**
 * What this visit saved against the one the suggestion was predicted from, each counted from its
 * document's request (`baselineDocumentSentMs`); undefined for a visit that did not have it.
 */
export function measuredSavingMs(applied: AppliedSuggestion, visitStartedAt: number, visitEndMs: number, visitDocumentSentMs: number): number | undefined {
  if (visitStartedAt <= applied.appliedAt) return undefined;
  const base = applied.baselineDocumentSentMs;
  return base === undefined ? applied.baselineEndMs - visitEndMs : applied.baselineEndMs - base - (visitEndMs - visitDocumentSentMs);
}

/** The applied suggestions of `url`'s page. */
export function appliedFor(all: readonly AppliedSuggestion[], url: string): AppliedSuggestion[] {
  const key = pageKey(url);
  return key === undefined ? [] : all.filter((a) => a.key === key);
}

/** `all` with `next` added: one per page and href (the latest wins), within the limits. */
export function withApplied(all: readonly AppliedSuggestion[], next: AppliedSuggestion): AppliedSuggestion[] {
  const kept = all.filter((a) => !(a.key === next.key && a.suggestion.href === next.suggestion.href));
  const out = [...kept, next];
  const onPage = out.filter((a) => a.key === next.key);
  const dropped = new Set(onPage.slice(0, Math.max(0, onPage.length - APPLIED_PER_PAGE)));
  const pages = [...new Set(out.filter((a) => !dropped.has(a)).map((a) => a.key))];
  const keptPages = new Set(pages.slice(-APPLIED_PAGES));
  return out.filter((a) => !dropped.has(a) && keptPages.has(a.key));
}

/** Applied suggestions read back from storage: only well-formed entries survive. */
export function appliedFromJson(value: unknown): AppliedSuggestion[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isApplied);
}

const KINDS = new Set(['preload', 'preconnect', 'fetchpriority']);
const AS = new Set(['font', 'style', 'image']);

function isApplied(v: unknown): v is AppliedSuggestion {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  const s = a.suggestion as Record<string, unknown> | null;
  if (typeof a.key !== 'string' || !finite(a.appliedAt) || !finite(a.baselineEndMs) || typeof s !== 'object' || s === null) return false;
  if (a.baselineDocumentSentMs !== undefined && !finite(a.baselineDocumentSentMs)) return false;
  if (typeof s.kind !== 'string' || !KINDS.has(s.kind) || typeof s.href !== 'string' || !/^https?:\/\//.test(s.href) || !finite(s.predictedSavingMs)) return false;
  if (s.crossorigin !== undefined && s.crossorigin !== 'anonymous') return false;
  return s.kind !== 'preload' || (typeof s.as === 'string' && AS.has(s.as) && (s.type === undefined || typeof s.type === 'string') && (s.namedAhead === undefined || isNamedAhead(s.namedAhead)));
}

function isNamedAhead(v: unknown): boolean {
  return Array.isArray(v) && v.every((x: unknown) => {
    const a = x as Record<string, unknown> | null;
    return typeof a === 'object' && a !== null && typeof a.href === 'string' && /^https?:\/\//.test(a.href) && typeof a.as === 'string' && AS.has(a.as);
  });
}

function finite(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}
