import type { PriorityClass } from '../core/priority';
import { asciiTokens, normalizeKeyword } from './ascii';
import { isPrintOnly } from './media';
import type { Attributes, ResourceReference } from './reference';
import { parseSrcset } from './srcset';
import type { ResourceKind } from './types';

/** `rel` keywords that name a page icon (`shortcut icon` is matched through its `icon`). */
const ICON_RELS = ['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon'];

/** Kind and priority of `<link rel=preload>` by its `as` value. */
const PRELOAD_AS: ReadonlyMap<string, { kind: ResourceKind; priority: PriorityClass }> = new Map([
  ['style', { kind: 'stylesheet', priority: 'blocking' }],
  ['script', { kind: 'script', priority: 'script' }],
  ['font', { kind: 'font', priority: 'font' }],
  ['image', { kind: 'image', priority: 'image' }],
]);

/**
 * Classifies `<link>` by its `rel` keywords. One link yields one role, the most urgent it names:
 * stylesheet, then preload, modulepreload, icon, prefetch/prerender. Other rels (`preconnect`,
 * `canonical`, `manifest`…) fetch nothing the scheduler should load early.
 *
 * - `stylesheet`: skipped when `disabled` or when `type` is not CSS; `alternate` sheets are not
 *   applied, so only `prefetch`; print-only `media` cannot block screen rendering, so `other`;
 *   everything else `blocking`.
 * - `preload`: kind/priority from `as` (style → blocking, script → script, font → font, image →
 *   image or `visible-image` with `fetchpriority=high`, anything else kind `preload`, `other`); a
 *   print-only `media` demotes to `other`. `imagesrcset` candidates are reported too.
 * - `modulepreload`: a module script, `script` priority.
 * - icons: `icon`/`other`. `prefetch` and `prerender`: `other`/`prefetch`.
 */
export function classifyLink(attribs: Attributes): ResourceReference[] {
  const rel = new Set(asciiTokens(attribs.rel ?? ''));
  const href = attribs.href;
  const one = (ref: Omit<ResourceReference, 'value' | 'attribute'>): ResourceReference[] =>
    href === undefined ? [] : [{ value: href, attribute: 'href', ...ref }];

  if (rel.has('stylesheet')) {
    if (attribs.disabled !== undefined) return [];
    const type = normalizeKeyword(attribs.type);
    if (attribs.type !== undefined && type !== '' && type !== 'text/css') return [];
    const priority: PriorityClass = rel.has('alternate') ? 'prefetch' : isPrintOnly(attribs.media) ? 'other' : 'blocking';
    return one({ kind: 'stylesheet', priority });
  }
  if (rel.has('preload')) return classifyPreload(attribs);
  if (rel.has('modulepreload')) return one({ kind: 'script', priority: 'script', scriptMode: 'module' });
  if (ICON_RELS.some((r) => rel.has(r))) return one({ kind: 'icon', priority: 'other' });
  if (rel.has('prefetch') || rel.has('prerender')) return one({ kind: 'other', priority: 'prefetch' });
  return [];
}

function classifyPreload(attribs: Attributes): ResourceReference[] {
  const as = normalizeKeyword(attribs.as);
  const byAs = PRELOAD_AS.get(as) ?? { kind: 'preload' as const, priority: 'other' as const };
  let priority: PriorityClass = byAs.priority;
  if (as === 'image' && normalizeKeyword(attribs.fetchpriority) === 'high') priority = 'visible-image';
  if (isPrintOnly(attribs.media)) priority = 'other';
  const refs: ResourceReference[] = [];
  if (attribs.href !== undefined) refs.push({ value: attribs.href, kind: byAs.kind, priority, attribute: 'href' });
  if (as === 'image' && attribs.imagesrcset !== undefined) {
    for (const candidate of parseSrcset(attribs.imagesrcset)) {
      refs.push({ value: candidate.url, kind: 'image', priority, attribute: 'imagesrcset' });
    }
  }
  return refs;
}
