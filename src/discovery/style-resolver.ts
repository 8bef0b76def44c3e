import type { Document } from 'domhandler';
import type { FontFace, ImageRule, SheetModel } from './css-model';
import { facesFor, fontUses, type OrderedFontRule } from './font-usage';
import { matchesMedia } from './media-query';
import { anyMatch } from './selector-match';
import type { Viewport } from './viewport';

/** A URL a style sheet makes the browser fetch now, with the sheet it came from. */
export interface StyleFetch<S> {
  url: string;
  kind: 'image' | 'font';
  sheet: S;
}

/**
 * Decides, as a browser's style recalc does, which `url()`s and fonts of the page's style sheets
 * are fetched: an image of a rule once an element matches the rule's selector (under `@media`
 * lists that match the viewport), a font once text is set in it. It is asked again whenever the
 * picture changes — a sheet arrives (`</style>`, an external sheet's body) or the document ends —
 * and answers only what is newly due. What still matches nothing when the document has ended is
 * never fetched (`unmatched()` counts it).
 *
 * @typeParam S what the caller tags a sheet with (its element, offset, URL…)
 */
export class StyleResolver<S> {
  private pendingImages: Array<{ rule: ImageRule; sheet: S }> = [];
  private readonly faces: Array<{ face: FontFace; sheet: S }> = [];
  private readonly fontRules: OrderedFontRule[] = [];
  private readonly fetchedFaces = new Set<string>();
  private dropped = 0;
  private order = 0;

  constructor(private readonly viewport: Viewport) {}

  /**
   * Adds a sheet's rules. `position` orders sheets as the cascade does (document order of their
   * `<link>`/`<style>`; an imported sheet just before its importer's own rules).
   */
  add(model: SheetModel, sheet: S, position: number): void {
    const applies = (media: readonly string[]) => media.every((m) => matchesMedia(m, this.viewport));
    for (const rule of model.imageRules) {
      if (applies(rule.media)) this.pendingImages.push({ rule, sheet });
      else this.dropped += rule.urls.length;
    }
    for (const face of model.fontFaces) if (face.url !== undefined && applies(face.media)) this.faces.push({ face, sheet });
    for (const rule of model.fontRules) if (applies(rule.media)) this.fontRules.push({ rule, order: position * 1e6 + this.order++ });
  }

  /** What is due now that `root` holds the document parsed so far (all of it when `final`). */
  resolve(root: Document, final: boolean): Array<StyleFetch<S>> {
    const out: Array<StyleFetch<S>> = [];
    const still: Array<{ rule: ImageRule; sheet: S }> = [];
    for (const p of this.pendingImages) {
      if (anyMatch(p.rule.selectors, root)) for (const url of p.rule.urls) out.push({ url, kind: 'image', sheet: p.sheet });
      else still.push(p);
    }
    this.pendingImages = still;
    if (final) {
      this.dropped += still.reduce((n, p) => n + p.rule.urls.length, 0);
      this.pendingImages = [];
    }
    const due = this.faces.filter((f) => !this.fetchedFaces.has(f.face.url as string));
    if (due.length > 0) {
      const families = new Set(this.faces.map((f) => f.face.family));
      for (const use of fontUses(root, this.fontRules, families)) {
        const ofFamily = this.faces.filter((f) => f.face.family === use.family);
        const chosen = new Set(facesFor(use, ofFamily.map((f) => f.face)));
        for (const f of ofFamily) {
          const url = f.face.url as string;
          if (!chosen.has(f.face) || this.fetchedFaces.has(url)) continue;
          this.fetchedFaces.add(url);
          out.push({ url, kind: 'font', sheet: f.sheet });
        }
      }
    }
    return out;
  }

  /** `url()`s never fetched: their rules matched no element, or their `@media` never applied. */
  unmatched(): number {
    return this.dropped;
  }
}
