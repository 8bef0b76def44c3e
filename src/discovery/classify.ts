import type { PriorityClass } from '../core/priority';
import { normalizeKeyword } from './ascii';
import { classifyLink } from './classify-link';
import { classifyScript } from './classify-script';
import type { CssUrlReference } from './css-urls';
import { isPrintOnly } from './media';
import type { Attributes, ResourceReference } from './reference';
import { parseSrcset } from './srcset';
import type { ResourceKind } from './types';

/** Where an element sits, as far as classification cares. Maintained by the scanner. */
export interface ElementContext {
  /** The innermost open `<picture>`, `<video>` or `<audio>`: it decides what `<source>` means. */
  mediaParent: 'picture' | 'video' | 'audio' | undefined;
  /**
   * The scanner's guess that this image — or, inside `<picture>`, the picture — is in the viewport
   * (it is among the first `firstImagesVisible` images). Only read for `<img>` and `<source>`.
   */
  inViewportGuess: boolean;
}

/**
 * The priority rules, in one place (the classes are in `src/core/priority.ts`):
 *
 * | found as                                                  | priority        |
 * |-----------------------------------------------------------|-----------------|
 * | `<link rel=stylesheet>`, `@import` (not print-only)       | `blocking`      |
 * | `<script src>` without async/defer/module                 | `blocking`      |
 * | async, defer, module scripts; modulepreload               | `script`        |
 * | preload as=font; `url()` inside `@font-face`              | `font`          |
 * | `<img>` with fetchpriority=high, or a viewport guess       | `visible-image` |
 * | other images, srcset candidates, posters, CSS `url()`     | `image`         |
 * | iframes, media, tracks, objects, icons, print-only sheets | `other`         |
 * | rel=prefetch / prerender, alternate stylesheets           | `prefetch`      |
 *
 * `loading=lazy` images stay `image` (marked `lazy`): the scanner cannot tell whether a lazy image
 * is near the viewport, and demoting it below iframes would be worse than fetching it a bit early.
 */
export function classifyElement(tag: string, attribs: Attributes, ctx: ElementContext): ResourceReference[] {
  switch (tag) {
    case 'img':
      return imageCandidates(attribs, imagePriority(attribs, ctx.inViewportGuess), lazyMark(attribs));
    case 'source':
      if (ctx.mediaParent === 'picture') {
        // In <picture> only srcset counts; the <img> inside carries fetchpriority/loading.
        const priority: PriorityClass = ctx.inViewportGuess ? 'visible-image' : 'image';
        return srcsetRefs(attribs.srcset, priority, {});
      }
      if (ctx.mediaParent === 'video' || ctx.mediaParent === 'audio') return single(attribs.src, 'media', 'other', 'src');
      return [];
    case 'script':
      return classifyScript(attribs);
    case 'link':
      return classifyLink(attribs);
    case 'video':
      return [...single(attribs.poster, 'image', 'image', 'poster'), ...single(attribs.src, 'media', 'other', 'src')];
    case 'audio':
      return single(attribs.src, 'media', 'other', 'src');
    case 'track':
      return single(attribs.src, 'track', 'other', 'src');
    case 'iframe':
    case 'frame':
      return single(attribs.src, 'iframe', 'other', 'src', lazyMark(attribs));
    case 'input':
      return normalizeKeyword(attribs.type) === 'image' ? single(attribs.src, 'image', 'image', 'src') : [];
    case 'object':
      return single(attribs.data, 'object', 'other', 'data');
    case 'embed':
      return single(attribs.src, 'object', 'other', 'src');
    case 'image':
      // SVG <image>: `href`, or the legacy `xlink:href`.
      return attribs.href !== undefined ? single(attribs.href, 'image', 'image', 'href') : single(attribs['xlink:href'], 'image', 'image', 'xlink:href');
    case 'use': {
      // SVG <use> of an external file (`sprite.svg#icon`); `#icon` alone is in this document.
      const href = attribs.href ?? attribs['xlink:href'];
      return href === undefined || href.trim().startsWith('#') ? [] : single(href, 'image', 'image', attribs.href !== undefined ? 'href' : 'xlink:href');
    }
    default:
      return [];
  }
}

/**
 * Priority of an `<img>`: an explicit `fetchpriority` wins (`high` → `visible-image`, `low` →
 * `image`); otherwise a lazy image is `image`; otherwise the viewport guess decides.
 */
export function imagePriority(attribs: Attributes, inViewportGuess: boolean): PriorityClass {
  const fetchPriority = normalizeKeyword(attribs.fetchpriority);
  if (fetchPriority === 'high') return 'visible-image';
  if (fetchPriority === 'low' || isLazy(attribs)) return 'image';
  return inViewportGuess ? 'visible-image' : 'image';
}

/** `loading=lazy` (ASCII case-insensitive). */
export function isLazy(attribs: Attributes): boolean {
  return normalizeKeyword(attribs.loading) === 'lazy';
}

/**
 * Kind and priority of a URL found in CSS. `@import` is a stylesheet, `blocking` unless its own
 * media list or the embedding sheet's is print-only; `url()` in `@font-face` is a font; any other
 * `url()` is an image (backgrounds, masks, cursors — all image-like fetches).
 *
 * @param sheetIsPrintOnly the embedding `<style>` or `<link>` only applies to print
 */
export function classifyCssReference(
  ref: CssUrlReference,
  sheetIsPrintOnly = false,
): { kind: ResourceKind; priority: PriorityClass; attribute: '@import' | 'url()' } {
  if (ref.kind === 'import') {
    const printOnly = sheetIsPrintOnly || isPrintOnly(ref.media);
    return { kind: 'stylesheet', priority: printOnly ? 'other' : 'blocking', attribute: '@import' };
  }
  if (ref.inFontFace) return { kind: 'font', priority: 'font', attribute: 'url()' };
  return { kind: 'image', priority: 'image', attribute: 'url()' };
}

function lazyMark(attribs: Attributes): { lazy?: true } {
  return isLazy(attribs) ? { lazy: true } : {};
}

function single(
  value: string | undefined,
  kind: ResourceKind,
  priority: PriorityClass,
  attribute: string,
  extra: { lazy?: true } = {},
): ResourceReference[] {
  return value === undefined ? [] : [{ value, kind, priority, attribute, ...extra }];
}

function srcsetRefs(srcset: string | undefined, priority: PriorityClass, extra: { lazy?: true }): ResourceReference[] {
  if (srcset === undefined) return [];
  return parseSrcset(srcset).map((c) => ({ value: c.url, kind: 'image' as const, priority, attribute: 'srcset', ...extra }));
}

/** `src` first (what a srcset-less browser fetches), then every srcset candidate in order. */
function imageCandidates(attribs: Attributes, priority: PriorityClass, extra: { lazy?: true }): ResourceReference[] {
  return [...single(attribs.src, 'image', priority, 'src', extra), ...srcsetRefs(attribs.srcset, priority, extra)];
}
