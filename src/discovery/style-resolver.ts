import type { Document, Element } from 'domhandler';
import type { FontFace, ImageRule, SheetModel } from './css-model';
import { facesFor, fontUses, matchAll, type OrderedFontRule } from './font-usage';
import { matchesMedia } from './media-query';
import type { Viewport } from './viewport';

/** A URL a style sheet makes the browser fetch now, with the sheet it came from. */
export interface StyleFetch<S> {
  url: string;
  kind: 'image' | 'font';
  sheet: S;
}

interface OrderedImageRule<S> {
  rule: ImageRule;
  sheet: S;
  /** Cascade order: sheet position, then rule order within the sheet. */
  order: number;
}

/** The declaration that currently wins one property group of one box. */
interface Winner<S> {
  specificity: number;
  order: number;
  urls: string[];
  sheet: S;
}

/**
 * Decides, as a browser's style recalc does, which `url()`s and fonts of the page's style sheets
 * are fetched: an image once an element matches a rule whose declaration wins the cascade for that
 * element's property (so `background: none` in a later or more specific rule means no fetch), under
 * `@media` lists that match the viewport; a font once text is set in it. It is asked again whenever
 * the picture changes — a sheet arrives (`</style>`, an external sheet's body) or the document ends
 * — and answers only what is newly due. What no element needs when the document has ended is never
 * fetched (`unmatched()` counts it).
 *
 * @typeParam S what the caller tags a sheet with (its element, offset, URL…)
 */
export class StyleResolver<S> {
  private readonly images: Array<OrderedImageRule<S>> = [];
  private readonly faces: Array<{ face: FontFace; sheet: S }> = [];
  private readonly fontRules: OrderedFontRule[] = [];
  private readonly fetched = new Set<string>();
  private readonly named = new Set<string>();
  private order = 0;

  constructor(private readonly viewport: Viewport) {}

  /**
   * Adds a sheet's rules. `position` orders sheets as the cascade does (document order of their
   * `<link>`/`<style>`; an imported sheet just before its importer's own rules).
   */
  add(model: SheetModel, sheet: S, position: number): void {
    const applies = (media: readonly string[]) => media.every((m) => matchesMedia(m, this.viewport));
    for (const rule of model.imageRules) {
      for (const d of rule.declarations) for (const u of d.urls) this.named.add(u);
      if (applies(rule.media)) this.images.push({ rule, sheet, order: position * 1e6 + this.order++ });
    }
    for (const face of model.fontFaces) {
      if (face.url !== undefined) this.named.add(face.url);
      if (face.url !== undefined && applies(face.media)) this.faces.push({ face, sheet });
    }
    for (const rule of model.fontRules) if (applies(rule.media)) this.fontRules.push({ rule, order: position * 1e6 + this.order++ });
  }

  /** What is due now that `root` holds the document parsed so far. */
  resolve(root: Document): Array<StyleFetch<S>> {
    const out: Array<StyleFetch<S>> = [];
    const due = (url: string, kind: 'image' | 'font', sheet: S) => {
      if (this.fetched.has(url)) return;
      this.fetched.add(url);
      out.push({ url, kind, sheet });
    };
    for (const w of this.cascadeWinners(root)) for (const url of w.urls) due(url, 'image', w.sheet);
    if (this.faces.some((f) => !this.fetched.has(f.face.url as string))) {
      const families = new Set(this.faces.map((f) => f.face.family));
      for (const use of fontUses(root, this.fontRules, families)) {
        const ofFamily = this.faces.filter((f) => f.face.family === use.family);
        const chosen = new Set(facesFor(use, ofFamily.map((f) => f.face)));
        for (const f of ofFamily) if (chosen.has(f.face)) due(f.face.url as string, 'font', f.sheet);
      }
    }
    return out;
  }

  /** URLs the sheets name that were never due (so far; final once the document has ended). */
  unmatched(): number {
    let n = 0;
    for (const u of this.named) if (!this.fetched.has(u)) n++;
    return n;
  }

  /** For every box and image property group, the winning declaration — only groups some rule gives a URL. */
  private cascadeWinners(root: Document): Array<Winner<S>> {
    const withUrls = new Set<string>();
    for (const r of this.images) for (const d of r.rule.declarations) if (d.urls.length > 0) withUrls.add(`${r.rule.pseudo}|${d.group}`);
    const winners = new Map<Element, Map<string, Winner<S>>>();
    for (const r of this.images) {
      const decls = r.rule.declarations.filter((d) => withUrls.has(`${r.rule.pseudo}|${d.group}`));
      if (decls.length === 0) continue;
      for (const el of matchAll([r.rule.selector], root)) {
        let boxes = winners.get(el);
        if (!boxes) {
          boxes = new Map();
          winners.set(el, boxes);
        }
        for (const d of decls) {
          const key = `${r.rule.pseudo}|${d.group}`;
          const current = boxes.get(key);
          const beats = !current || r.rule.specificity > current.specificity || (r.rule.specificity === current.specificity && r.order > current.order);
          if (beats) boxes.set(key, { specificity: r.rule.specificity, order: r.order, urls: d.urls, sheet: r.sheet });
        }
      }
    }
    const out: Array<Winner<S>> = [];
    for (const boxes of winners.values()) out.push(...boxes.values());
    return out.sort((a, b) => a.order - b.order);
  }
}
