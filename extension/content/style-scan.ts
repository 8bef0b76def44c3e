import { cssImageUrls } from '../../src/page/model/element-resources';
import type { Discovery } from '../../src/page/model/page-record';
import { intersectsViewport } from '../../src/page/model/viewport';

/** Elements scanned with getComputedStyle when some sheet is cross-origin, per idle slice. */
const COMPUTED_SLICE = 200;
/** Never scan more than this many elements' computed style (huge DOMs). */
const COMPUTED_MAX = 4000;
/** Elements a style rule matches that are tried for one with a layout box. */
const MATCH_MAX = 50;
/** Pseudo-elements a selector may end with; querySelector cannot match them, their element can. */
const PSEUDO_ELEMENT = /::?(?:before|after|first-letter|first-line|marker|placeholder|selection|backdrop)\b/gi;

/**
 * After load: CSS background images (found in style rules whose selector matches a rendered element), all
 * `late` since the browser only learns of them once the sheets are parsed and styles computed.
 * Same-origin sheets are read rule by rule; a cross-origin sheet throws on `cssRules`, and then the
 * elements' computed `background-image` is read instead, in idle slices.
 */
export function scanStyleBackgrounds(doc: Document, report: (items: Discovery[]) => void, done: () => void = () => undefined): void {
  let crossOrigin = false;
  const found: Discovery[] = [];
  const atMs = performance.now();
  const push = (url: string, el: Element) => {
    const inViewport = inFirstViewport(el);
    found.push({ url, kind: 'image', priority: inViewport ? 'visible-image' : 'image', atMs, inViewport, tag: 'css', late: true });
  };

  const walk = (rules: CSSRuleList, base: string, depth: number) => {
    if (depth > 8) return;
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule) {
        const text = rule.style.cssText;
        if (!text.includes('url(')) continue;
        const urls = cssImageUrls(text, base);
        const el = urls.length > 0 ? matchRendered(doc, rule.selectorText) : null;
        if (el) for (const url of urls) push(url, el);
      } else if (rule instanceof CSSImportRule) {
        if (rule.styleSheet) walkSheet(rule.styleSheet, depth + 1);
      } else if (rule instanceof CSSGroupingRule) {
        walk(rule.cssRules, base, depth + 1);
      }
    }
  };
  const walkSheet = (sheet: CSSStyleSheet, depth: number) => {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      crossOrigin = true;
      return;
    }
    walk(rules, sheet.href ?? doc.baseURI, depth);
  };

  for (const sheet of doc.styleSheets) walkSheet(sheet, 0);
  if (found.length > 0) report(found);
  if (crossOrigin) scanComputed(doc, report, done);
  else done();
}

function scanComputed(doc: Document, report: (items: Discovery[]) => void, done: () => void): void {
  const elements = Array.from(doc.querySelectorAll('body *')).slice(0, COMPUTED_MAX);
  let i = 0;
  const idle: (cb: () => void) => void =
    typeof requestIdleCallback === 'function' ? (cb) => requestIdleCallback(cb, { timeout: 2000 }) : (cb) => setTimeout(cb, 50);
  const slice = () => {
    const atMs = performance.now();
    const found: Discovery[] = [];
    for (const end = Math.min(elements.length, i + COMPUTED_SLICE); i < end; i++) {
      const el = elements[i] as Element;
      if (!rendered(el)) continue;
      const bg = getComputedStyle(el).backgroundImage;
      if (!bg || bg === 'none' || !bg.includes('url(')) continue;
      const inViewport = inFirstViewport(el);
      for (const url of cssImageUrls(bg, doc.baseURI)) {
        found.push({ url, kind: 'image', priority: inViewport ? 'visible-image' : 'image', atMs, inViewport, tag: 'css', late: true });
      }
    }
    if (found.length > 0) report(found);
    if (i < elements.length) idle(slice);
    else done();
  };
  idle(slice);
}

/** The first rendered element `selector` matches, if any (MATCH_MAX tried). */
function matchRendered(doc: Document, selector: string): Element | null {
  let all: NodeListOf<Element>;
  try {
    all = doc.querySelectorAll(selector.replace(PSEUDO_ELEMENT, '') || '*');
  } catch {
    return null;
  }
  for (let i = 0; i < Math.min(all.length, MATCH_MAX); i++) if (rendered(all[i] as Element)) return all[i] as Element;
  return null;
}

/**
 * The element has a layout box. Chromium 156 fetches no background for an element with
 * `display: none` or inside one (it still computes the style: `getComputedStyle` names the URL),
 * and fetches one under `visibility: hidden` (checked against a loopback server's log). Hint
 * learning takes a scanned background with no Resource Timing entry for one a cross-origin sheet
 * fetched (src/page/hints/observe-visit.ts): a URL the browser never fetched must not be reported.
 */
function rendered(el: Element): boolean {
  return el.getClientRects().length > 0;
}

/** "First viewport": relative to the document's top, so a page scrolled since load still counts its top. */
function inFirstViewport(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return intersectsViewport(
    { top: r.top + window.scrollY, left: r.left + window.scrollX, width: r.width, height: r.height },
    { width: window.innerWidth, height: window.innerHeight },
  );
}
