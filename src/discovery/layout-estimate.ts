import type { Attributes } from './reference';
import type { Viewport } from './viewport';

/**
 * Distance below the viewport within which Chromium starts loading `loading=lazy` content
 * (its "lazy load distance threshold": 1250–2500 px for images depending on the connection, more
 * for frames). The larger values are used: deferring something the browser would have fetched
 * loses it, fetching something early only moves it.
 */
/** Elements that start a new line in normal flow (HTML's UA style sheet: `display: block` and kin). */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tr', 'ul',
]);

export const LAZY_MARGIN_PX = { image: 2500, iframe: 4000 } as const;

/**
 * A conservative guess at where replaced elements sit on the page without doing layout: elements
 * with a known `height` are packed, in document order, into rows as wide as the viewport (using
 * `width`, capped at the viewport); text, margins and unsized elements add nothing. The guess is
 * therefore never below the element's real position on a page whose sized elements flow
 * vertically, so "below the fold" is only claimed when it is sure.
 */
export class LayoutEstimate {
  private rowsBottom = 0;
  private rowWidth = 0;
  private rowHeight = 0;

  constructor(private readonly viewport: Viewport) {}

  /** Top of the next element (CSS px), then accounts for its box. */
  place(attribs: Attributes): number {
    const width = pixels(attribs.width);
    const height = pixels(attribs.height);
    if (height === undefined) return this.rowsBottom;
    const w = Math.min(width ?? this.viewport.width, this.viewport.width);
    let h = height;
    if (width !== undefined && width > this.viewport.width) h = (height * this.viewport.width) / width;
    if (this.rowWidth + w > this.viewport.width) {
      this.rowsBottom += this.rowHeight;
      this.rowWidth = 0;
      this.rowHeight = 0;
    }
    const top = this.rowsBottom;
    this.rowWidth += w;
    this.rowHeight = Math.max(this.rowHeight, h);
    return top;
  }

  /** A block-level element starts: what follows begins on a new row. */
  blockBoundary(): void {
    this.rowsBottom += this.rowHeight;
    this.rowWidth = 0;
    this.rowHeight = 0;
  }

  /** Whether an element placed at `top` is beyond where the browser starts loading lazy content. */
  beyondLazyMargin(top: number, kind: 'image' | 'iframe'): boolean {
    return top > this.viewport.height + LAZY_MARGIN_PX[kind];
  }
}

/** An HTML dimension attribute in px (`"300"`, `"300px"`); percentages and junk are unknown. */
function pixels(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(value);
  return m ? Number(m[1]) : undefined;
}
