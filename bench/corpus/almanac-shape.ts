/**
 * Shapes of the `almanac-*` pages, after the HTTP Archive Web Almanac 2024, "Page Weight" chapter
 * (https://almanac.httparchive.org/en/2024/page-weight).
 *
 * What the chapter gives, and what we take from it:
 * - the median page weighs about 2.3 MB and makes about 70 requests (the chapter reports the
 *   median desktop page a little heavier than the median mobile one; we use ≈ 2.3 MB, ≈ 70);
 * - the 90th-percentile page makes about 175 requests and weighs several MB;
 * - the mix: images and JavaScript carry most of the bytes, JavaScript is the most-requested type,
 *   then CSS and web fonts, and the HTML document is a small share.
 *
 * The per-type counts and byte budgets below are OUR approximations shaped by that chapter, chosen
 * so the totals land on the figures above; they are not numbers quoted from it. The p90 page's
 * 7 MB is likewise an approximation of "several MB", not a sourced percentile.
 */

export interface AlmanacShape {
  readonly name: string;
  readonly title: string;
  readonly documentBytes: number;
  readonly stylesheets: { readonly count: number; readonly bytes: number };
  readonly scripts: { readonly count: number; readonly bytes: number };
  /** Web fonts, all named only by `@font-face` in the font origin's stylesheet. */
  readonly fonts: { readonly count: number; readonly bytes: number };
  /**
   * Images by how they are discovered: `<img>` in the markup, `background` in a stylesheet, or
   * inserted by an inline script after DOMContentLoaded. The favicon and a 1×1 analytics pixel are
   * counted in `html` and take fixed sizes out of `bytes`.
   */
  readonly images: { readonly html: number; readonly css: number; readonly script: number; readonly bytes: number };
}

export const ALMANAC_SOURCE = 'HTTP Archive Web Almanac 2024, "Page Weight" chapter (counts and bytes approximated, see bench/corpus/almanac-shape.ts)';

/** ≈ 70 requests, ≈ 2.3 MB: 1 + 7 + 22 + 5 + 35 = 70; 24 k + 80 k + 640 k + 130 k + 1426 k = 2.3 MB. */
export const ALMANAC_MEDIAN: AlmanacShape = {
  name: 'almanac-median',
  title: 'Web Almanac 2024 median page: about 70 requests and 2.3 MB over 10 origins',
  documentBytes: 24_000,
  stylesheets: { count: 7, bytes: 80_000 },
  scripts: { count: 22, bytes: 640_000 },
  fonts: { count: 5, bytes: 130_000 },
  images: { html: 23, css: 5, script: 7, bytes: 1_426_000 },
};

/** ≈ 175 requests, ≈ 7 MB: 1 + 16 + 60 + 10 + 88 = 175; 80 k + 260 k + 2000 k + 320 k + 4340 k = 7 MB. */
export const ALMANAC_P90: AlmanacShape = {
  name: 'almanac-p90',
  title: 'Web Almanac 2024 90th-percentile page: about 175 requests and 7 MB over 10 origins',
  documentBytes: 80_000,
  stylesheets: { count: 16, bytes: 260_000 },
  scripts: { count: 60, bytes: 2_000_000 },
  fonts: { count: 10, bytes: 320_000 },
  images: { html: 63, css: 14, script: 11, bytes: 4_340_000 },
};

export const ALMANAC_SHAPES: readonly AlmanacShape[] = [ALMANAC_MEDIAN, ALMANAC_P90];

/**
 * The ten origins of an almanac page: the site itself, its static and image CDNs, a font service,
 * and the third parties (tag manager, analytics, ads, social) a median page carries. Names are in
 * the reserved `.test` TLD (RFC 6761); the link emulator resolves them to 198.19.0.x.
 */
export const ALMANAC_ORIGINS = {
  www: 'www.example.test',
  static: 'static.example.test',
  img: 'img.example.test',
  cdn1: 'cdn1.example.test',
  cdn2: 'cdn2.example.test',
  fonts: 'fonts.example.test',
  tags: 'tags.example.test',
  analytics: 'analytics.example.test',
  ads: 'ads.example.test',
  social: 'social.example.test',
} as const;
