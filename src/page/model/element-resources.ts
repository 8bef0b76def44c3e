// Deep imports, not '../discovery': the content script bundles this file and must not pull in
// the HTML scanner (htmlparser2) it never uses.
import { classifyCssReference, classifyElement } from '../../discovery/classify';
import { extractCssUrls } from '../../discovery/css-urls';
import type { Attributes } from '../../discovery/reference';
import { resolveHttpUrl } from '../../discovery/resolve-url';
import type { ResourceKind } from '../../discovery/types';
import type { PriorityClass } from '../../core/priority';

/** An element as the content script sees it, reduced to plain data (no DOM objects). */
export interface ElementSnapshot {
  /** Lower-case element name. */
  tag: string;
  /** Attribute values by lower-case name. */
  attributes: Attributes;
  /** The nearest `<picture>`, `<video>` or `<audio>` parent: it decides what `<source>` means. */
  mediaParent?: 'picture' | 'video' | 'audio';
  /** `img.currentSrc` once the browser has picked a candidate (absolute), else ''. */
  currentSrc?: string;
  /** The element intersects the first viewport (images in it are `visible-image`). */
  inViewport: boolean;
  /** The document's base URL (`document.baseURI`). */
  baseUrl: string;
}

/** One fetchable URL of an element, resolved and classified with the scanner's rules. */
export interface ElementResource {
  /** Absolute http(s) URL, fragment removed. */
  url: string;
  kind: ResourceKind;
  priority: PriorityClass;
}

/**
 * The resources an inserted element will fetch, classified exactly as `src/discovery` classifies
 * the same markup (see `classifyElement`), plus `currentSrc` (the srcset candidate the browser
 * actually chose) and `url()`s in an inline `style` attribute (images). Only http(s) URLs; one
 * entry per URL (first wins).
 */
export function elementResources(el: ElementSnapshot): ElementResource[] {
  const refs = classifyElement(el.tag, el.attributes, { mediaParent: el.mediaParent, inViewportGuess: el.inViewport });
  const out: ElementResource[] = [];
  const seen = new Set<string>();
  const add = (raw: string, kind: ResourceKind, priority: PriorityClass) => {
    const url = resolveHttpUrl(raw, el.baseUrl);
    if (url === undefined || seen.has(url)) return;
    seen.add(url);
    out.push({ url, kind, priority });
  };
  const first = refs[0];
  if (el.currentSrc && first && first.kind === 'image') add(el.currentSrc, 'image', first.priority);
  for (const ref of refs) add(ref.value, ref.kind, ref.priority);
  const style = el.attributes.style;
  if (style !== undefined && style.includes('url(')) {
    for (const ref of safeCssUrls(style, el.baseUrl)) {
      const c = classifyCssReference(ref);
      add(ref.url, c.kind, c.kind === 'image' && el.inViewport ? 'visible-image' : c.priority);
    }
  }
  return out;
}

/**
 * Image URLs of CSS text (a style rule's declarations, a computed `background-image`), resolved
 * against `baseUrl`. Never throws.
 */
export function cssImageUrls(css: string, baseUrl: string): string[] {
  return safeCssUrls(css, baseUrl)
    .filter((r) => r.kind === 'url' && !r.inFontFace)
    .map((r) => r.url);
}

function safeCssUrls(css: string, baseUrl: string) {
  try {
    return extractCssUrls(css, baseUrl);
  } catch {
    return [];
  }
}

/** Tags whose resources depend on layout (viewport position); others are reported at once. */
const LAID_OUT_TAGS: ReadonlySet<string> = new Set(['img', 'source', 'input', 'iframe', 'frame', 'video', 'audio', 'object', 'embed']);

/** Whether the element's discovery should wait for its first layout to learn `inViewport`. */
export function needsLayout(tag: string, attributes: Attributes): boolean {
  return LAID_OUT_TAGS.has(tag) || (attributes.style !== undefined && attributes.style.includes('url('));
}

/** Tags the content script inspects at all (plus any element with an inline `style`). */
export const RESOURCE_TAGS: readonly string[] = [
  'img', 'source', 'script', 'link', 'iframe', 'frame', 'video', 'audio', 'track', 'input', 'object', 'embed',
];
