import type { Document } from 'domhandler';
import { classifyCssReference } from './classify';
import { importPrefix } from './css-import-prefix';
import { modelStylesheet, type SheetModel } from './css-model';
import type { Classified } from './resource-queue';
import { StyleResolver } from './style-resolver';
import type { Viewport } from './viewport';

/** Where a style sheet's fetches are attributed: its `<style>`/`<link>` and the cascade position. */
export interface SheetRef {
  tag: 'style' | 'css';
  offset: number;
  position: number;
  /** The external sheet's URL; absent for a `<style>` element. */
  url?: string;
}

/** Reports one resource (`ResourceQueue.report`); returns whether it was new. */
export type ReportResource = (url: string, c: Classified, tag: string, offset: () => number) => boolean;

/**
 * The document's style sheets, in cascade order, as the scanner meets them: `<link>`ed sheets
 * (their bodies arrive later through `sheetArrived`), `<style>` elements, their `@import`s, and
 * `style=""` attributes. An `@import` is due as soon as its sheet is known; a rule's `url()` and a
 * font only once `resolve` finds an element they apply to.
 */
export class DocumentStyles {
  private readonly resolver: StyleResolver<SheetRef>;
  /** External sheets reported so far, by URL: their media and cascade position. */
  private readonly sheets = new Map<string, { media: string | undefined; ref: SheetRef; applied: boolean }>();
  private position = 0;

  constructor(
    private readonly viewport: Viewport,
    private readonly report: ReportResource,
  ) {
    this.resolver = new StyleResolver(viewport);
  }

  /** `url()`s of rules no element has matched so far. */
  get unmatched(): number {
    return this.resolver.unmatched();
  }

  /** A `<link rel=stylesheet>` just reported; an alternate one (`applied` false) is never applied. */
  linked(url: string, media: string | undefined, offset: () => number, applied: boolean): void {
    if (this.sheets.has(url)) return;
    this.sheets.set(url, { media, ref: { tag: 'css', offset: offset(), position: this.position++, url }, applied });
  }

  /** A complete `<style>` element: its rules match what precedes it in the DOM. */
  styleElement(css: string, baseUrl: string, media: string | undefined, offset: number): void {
    this.addSheetText(css, baseUrl, media, { tag: 'style', offset, position: this.position++ });
  }

  /** A linked sheet's body. False when it is not one to apply: unknown, alternate, or already given. */
  sheetArrived(url: string, css: string): boolean {
    const sheet = this.sheets.get(url);
    if (sheet === undefined || !sheet.applied) return false;
    sheet.applied = false; // one body per sheet
    this.addSheetText(css, url, sheet.media, sheet.ref);
    return true;
  }

  /**
   * A linked sheet's first bytes: the `@import`s already final in them (css-import-prefix.ts) are
   * due now; `sheetArrived` with the whole body reports each only once. Whether an `@import` may
   * still follow (false for a sheet not to apply, or once a rule has started).
   */
  sheetStart(url: string, cssStart: string): boolean {
    const sheet = this.sheets.get(url);
    if (sheet === undefined || !sheet.applied) return false;
    const { prefix, done } = importPrefix(cssStart);
    if (prefix !== '') this.reportImports(modelStylesheet(prefix, { baseUrl: url, media: sheet.media, dpr: this.viewport.dpr }), sheet.ref);
    return !done;
  }

  /** `style=""` holds declarations, so only `url()`s count (`image-set()` reduced to its choice). */
  styleAttribute(tag: string, css: string, baseUrl: string, offset: () => number): void {
    const model = modelStylesheet(`x{${css}}`, { baseUrl, dpr: this.viewport.dpr });
    // Inline declarations win the cascade for their element; one entry per selector, and there is one.
    for (const rule of model.imageRules) {
      for (const d of rule.declarations) for (const url of d.urls) this.report(url, { kind: 'image', priority: 'image', attribute: 'style' }, tag, offset);
    }
  }

  /** Reports what the style sheets make due, given the DOM parsed so far. */
  resolve(root: Document): void {
    for (const f of this.resolver.resolve(root)) {
      const c: Classified = f.kind === 'font' ? { kind: 'font', priority: 'font', attribute: 'url()' } : { kind: 'image', priority: 'image', attribute: 'url()' };
      this.report(f.url, inSheet(c, f.sheet), f.sheet.tag, () => f.sheet.offset);
    }
  }

  /** A style sheet's text: its `@import`s are due now, its rules go to the resolver. */
  private addSheetText(css: string, baseUrl: string, media: string | undefined, ref: SheetRef): void {
    const model = modelStylesheet(css, { baseUrl, media, dpr: this.viewport.dpr });
    this.reportImports(model, ref);
    this.resolver.add(model, ref, ref.position);
  }

  private reportImports(model: SheetModel, ref: SheetRef): void {
    for (const imp of model.imports) {
      const c = classifyCssReference({ url: imp.url, kind: 'import', offset: 0, inFontFace: false, ...(imp.media ? { media: imp.media } : {}) });
      if (this.report(imp.url, inSheet(c, ref), ref.tag, () => ref.offset) && !this.sheets.has(imp.url)) {
        // An imported sheet cascades before its importer's own rules; what it names, it names itself.
        this.sheets.set(imp.url, { media: imp.media, ref: { ...ref, position: ref.position - 0.5, url: imp.url }, applied: true });
      }
    }
  }
}

/** A reference an external sheet's body made carries that sheet's URL. */
function inSheet(c: Classified, ref: SheetRef): Classified {
  return ref.url === undefined ? c : { ...c, sheet: ref.url };
}
