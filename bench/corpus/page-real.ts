/**
 * Real-shaped pages: built from the HTML patterns of saved real pages rather than from a paper's
 * experiment. What they keep of real pages:
 * - many origins, and schemes mixed: an HTTP/1.1 first-party origin beside https CDNs that speak
 *   h2 (`real-news`), or every origin on https/h2 (`real-shop`, `real-small`);
 * - `<link rel=preconnect>` / `dns-prefetch` for the third-party origins the page will use;
 * - responsive image markup (`srcset` with `sizes`, `<picture><source>`), whose candidates a
 *   one-DPR browser resolves to the `src` it names (so every client fetches the same bytes);
 * - web fonts named only by `@font-face`, late CSS (an `@import` inside a stylesheet, and a
 *   `<link rel=stylesheet>` at the end of `<body>`), background images named only in CSS;
 * - render-blocking head scripts, async third-party tags, an analytics pixel;
 * - images an inline script inserts after DOMContentLoaded (`real-late`: one origin whose font, CSS
 *   background and inserted images are all found late, the case lean capture sees whole).
 *
 * Invariant: the manifest and every body are pure functions of the page name (and of the base-URL
 * mapping, which changes link text but never a size).
 */
import { CONTENT_TYPES } from '../../native-host/demo/corpus-types';
import { Prng } from '../../src/core/prng';
import { cssRules, heading, jsFunctions, paragraph } from '../../native-host/demo/synth-text';
import { ALMANAC_ORIGINS as O } from './almanac-shape';
import type { BenchPage, BenchPageBuild, BenchResource, OriginPath } from './bench-page-types';
import { link, worstCaseLength } from './link-template';
import { BACKGROUND_PIXELS, makeBenchBuild, SCRIPT_IMAGE_PIXELS, withPicture, type Text } from './page-almanac';
import type { GifPixels } from '../../native-host/demo/synth-bytes';

type Scheme = 'http' | 'https';

interface RealShape {
  name: string;
  title: string;
  documentScheme: Scheme;
  schemes: Record<string, Scheme>;
  documentBytes: number;
  preconnect: string[];
  dnsPrefetch: string[];
  /** [origin, bytes, fromCss?] head stylesheets; the first may @import `imported`. */
  sheets: Array<[string, number]>;
  imported?: [string, number];
  late?: [string, number];
  fonts: { sheetOrigin: string; origin: string; sizes: number[] };
  /** [origin, bytes, mode] */
  scripts: Array<[string, number, 'sync' | 'defer' | 'async']>;
  images: { origin: string; sizes: number[] };
  backgrounds: { origin: string; sizes: number[] };
  /** Images an inline script inserts after DOMContentLoaded, from `images.origin`. */
  inserted?: number[];
  pixel?: string;
}

const REAL_NEWS: RealShape = {
  name: 'real-news',
  title: 'A news front page: http first party, https/h2 CDNs, fonts, tags',
  documentScheme: 'http',
  schemes: { [O.www]: 'http', [O.img]: 'http', [O.tags]: 'http', [O.analytics]: 'http', [O.static]: 'https', [O.fonts]: 'https', [O.cdn1]: 'https' },
  documentBytes: 32_000,
  preconnect: [O.fonts, O.static],
  dnsPrefetch: [O.cdn1],
  sheets: [[O.www, 42_000], [O.static, 26_000], [O.fonts, 2_400]],
  imported: [O.static, 9_000],
  late: [O.www, 6_000],
  fonts: { sheetOrigin: O.fonts, origin: O.fonts, sizes: [24_000, 21_000, 18_000] },
  scripts: [[O.static, 88_000, 'sync'], [O.static, 61_000, 'sync'], [O.www, 30_000, 'defer'], [O.tags, 41_000, 'async'], [O.analytics, 19_000, 'async']],
  images: { origin: O.img, sizes: [58_000, 34_000, 12_000, 9_000, 8_500, 22_000, 6_000, 5_500, 14_000, 7_000, 31_000, 4_800, 6_600, 9_900, 11_000, 5_200] },
  backgrounds: { origin: O.cdn1, sizes: [18_000, 7_500, 3_200] },
  pixel: O.analytics,
};

const ALL_HTTPS = (origins: string[]): Record<string, Scheme> => Object.fromEntries(origins.map((o) => [o, 'https' as Scheme]));

const REAL_SHOP: RealShape = {
  name: 'real-shop',
  title: 'A shop listing, every origin on https/h2',
  documentScheme: 'https',
  schemes: ALL_HTTPS([O.www, O.static, O.img, O.fonts, O.cdn1]),
  documentBytes: 22_000,
  preconnect: [O.img, O.fonts],
  dnsPrefetch: [],
  sheets: [[O.www, 31_000], [O.fonts, 1_600]],
  imported: [O.static, 7_000],
  fonts: { sheetOrigin: O.fonts, origin: O.fonts, sizes: [22_000, 19_000] },
  scripts: [[O.static, 79_000, 'sync'], [O.static, 38_000, 'defer']],
  images: { origin: O.img, sizes: [16_000, 15_500, 14_800, 17_200, 12_900, 16_600, 13_300, 15_900, 14_100, 18_800, 12_400, 16_000] },
  backgrounds: { origin: O.cdn1, sizes: [9_000, 4_000] },
};

const REAL_SMALL: RealShape = {
  name: 'real-small',
  title: 'A small all-https page: one origin plus a font service',
  documentScheme: 'https',
  schemes: ALL_HTTPS([O.www, O.fonts]),
  documentBytes: 14_000,
  preconnect: [O.fonts],
  dnsPrefetch: [],
  sheets: [[O.www, 18_000], [O.fonts, 1_200]],
  fonts: { sheetOrigin: O.fonts, origin: O.fonts, sizes: [20_000] },
  scripts: [[O.www, 24_000, 'defer']],
  images: { origin: O.www, sizes: [26_000, 9_000, 7_000, 8_200, 5_400, 6_100] },
  backgrounds: { origin: O.www, sizes: [3_000] },
};

/**
 * A light page (90 kB) on one origin, where what is found late costs round trips rather than
 * bytes: the font and the background wait for the sheet, the thumbnails for the deferred script
 * and DOMContentLoaded.
 */
const REAL_LATE: RealShape = {
  name: 'real-late',
  title: 'One https origin whose font, CSS background and script-inserted images are found late',
  documentScheme: 'https',
  schemes: ALL_HTTPS([O.www]),
  documentBytes: 10_000,
  preconnect: [],
  dnsPrefetch: [],
  sheets: [[O.www, 10_000]],
  fonts: { sheetOrigin: O.www, origin: O.www, sizes: [16_000] },
  scripts: [[O.www, 8_000, 'defer']],
  images: { origin: O.www, sizes: [20_000, 4_000] },
  backgrounds: { origin: O.www, sizes: [8_000] },
  inserted: [4_000, 3_500, 4_500, 3_000, 4_000, 3_800],
};

export const REAL_SHAPES: readonly RealShape[] = [REAL_NEWS, REAL_SHOP, REAL_SMALL, REAL_LATE];
export const REAL_PAGE_NAMES: readonly string[] = REAL_SHAPES.map((s) => s.name);

/** Origins the page's head names in `<link rel=preconnect|dns-prefetch>` (none for another page). */
export function realPageHints(name: string): readonly string[] {
  const shape = REAL_SHAPES.find((s) => s.name === name);
  return shape === undefined ? [] : [...shape.preconnect, ...shape.dnsPrefetch];
}

const key = (r: OriginPath): string => `${r.origin}${r.path}`;
/** The lead picture's size, and every other figure's (their `width`/`height` attributes). */
const LEAD_PIXELS: GifPixels = { width: 800, height: 450 };
const FIGURE_PIXELS: GifPixels = { width: 320, height: 200 };

export function buildRealPage(name: string): BenchPageBuild | undefined {
  const shape = REAL_SHAPES.find((s) => s.name === name);
  if (shape === undefined) return undefined;
  const rng = new Prng(shape.name);
  const under = (path: string): string => `/${shape.name}${path}`;
  const doc: OriginPath = { origin: shape.sheets[0]?.[0] ?? O.www, path: under('/index.html') };
  const texts = new Map<string, Text>();
  const res = (origin: string, path: string, kind: BenchResource['kind'], contentType: string, size: number,
    discoveredBy: BenchResource['discoveredBy'] = 'html', referencedFrom: OriginPath = doc, renderBlocking = false): BenchResource =>
    ({ origin, path: under(path), kind, contentType, size, discoveredBy, referencedFrom, renderBlocking });

  const sheets = shape.sheets.map(([origin, size], i) => res(origin, `/css/s${i}.css`, 'stylesheet', CONTENT_TYPES.css, size, 'html', doc, true));
  const fontSheet = sheets.find((s) => s.origin === shape.fonts.sheetOrigin) as BenchResource;
  const firstSheet = sheets[0] as BenchResource;
  const imported = shape.imported && res(shape.imported[0], '/css/imported.css', 'stylesheet', CONTENT_TYPES.css, shape.imported[1], 'css', firstSheet, true);
  const late = shape.late && res(shape.late[0], '/css/late.css', 'stylesheet', CONTENT_TYPES.css, shape.late[1]);
  const fonts = shape.fonts.sizes.map((size, i) => res(shape.fonts.origin, `/fonts/f${i}.woff2`, 'font', CONTENT_TYPES.woff2, size, 'css', fontSheet));
  const bgSheet = imported ?? firstSheet;
  const backgrounds = shape.backgrounds.sizes.map((size, i) => withPicture(res(shape.backgrounds.origin, `/bg/b${i}.gif`, 'image', CONTENT_TYPES.gif, size, 'css', bgSheet), BACKGROUND_PIXELS));
  const scripts = shape.scripts.map(([origin, size, mode], i) => ({ r: res(origin, `/js/j${i}.js`, 'script', CONTENT_TYPES.js, size, 'html', doc, mode === 'sync'), mode }));
  const images = shape.images.sizes.map((size, i) => withPicture(res(shape.images.origin, `/img/p${i}.gif`, 'image', CONTENT_TYPES.gif, size), i === 0 ? LEAD_PIXELS : FIGURE_PIXELS));
  const pixel = shape.pixel === undefined ? undefined : res(shape.pixel, '/px.gif', 'image', CONTENT_TYPES.gif, 43);
  const inserted = (shape.inserted ?? []).map((size, i) => withPicture(res(shape.images.origin, `/late/q${i}.gif`, 'image', CONTENT_TYPES.gif, size, 'script'), SCRIPT_IMAGE_PIXELS));

  const css = (r: BenchResource, body: string, prefix: string): void => {
    texts.set(key(r), { template: body + cssRules(rng, prefix, r.size - worstCaseLength(body) - 64), size: r.size, style: 'code' });
  };
  for (const [i, sheet] of sheets.entries()) {
    let body = '';
    if (sheet === firstSheet && imported) body += `@import url("${link(imported.origin, imported.path)}");\n`;
    if (sheet === fontSheet) body += fonts.map((f, k) => `@font-face{font-family:"F${k}";src:url("${link(f.origin, f.path)}") format("woff2");font-display:swap}\n.f-${k}{font-family:"F${k}",serif}\n`).join('');
    if (sheet === bgSheet) body += backgrounds.map((b, k) => `.bg-${k}{background:url("${link(b.origin, b.path)}") center/cover;min-height:30px}\n`).join('');
    css(sheet, body, `s${i}`);
  }
  if (imported) css(imported, imported === bgSheet ? backgrounds.map((b, k) => `.bg-${k}{background:url("${link(b.origin, b.path)}") center/cover;min-height:30px}\n`).join('') : '', 'im');
  if (late) css(late, '', 'late');
  for (const [i, { r }] of scripts.entries()) texts.set(key(r), { template: `"use strict";\n${jsFunctions(rng, `j${i}`, r.size - 96)}`, size: r.size, style: 'code' });

  const u = (r: BenchResource): string => link(r.origin, r.path);
  const head = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${shape.title}</title>`,
    ...shape.preconnect.map((o) => `<link rel="preconnect" href="${link(o, '')}" crossorigin>`),
    ...shape.dnsPrefetch.map((o) => `<link rel="dns-prefetch" href="${link(o, '')}">`),
    ...sheets.map((s) => `<link rel="stylesheet" href="${u(s)}">`),
    ...scripts.filter((s) => s.mode === 'sync').map((s) => `<script src="${u(s.r)}"></script>`),
    '</head><body>',
    `<header><h1>${heading(rng)}</h1></header>`,
  ];
  // Responsive markup whose one-DPR choice is the `src` itself: every client fetches the same URL.
  // The first is the page's lead picture, full width: most pages' largest paint is an image (the
  // Web Almanac's Performance chapters), and only a picture that large can be this page's.
  const dims = (p: GifPixels) => `width="${p.width}" height="${p.height}"`;
  const figures = images.map((r, i) => (i === 0
    ? `<img src="${u(r)}" srcset="${u(r)} 1x" sizes="100vw" alt="p${i}" ${dims(LEAD_PIXELS)} style="max-width:100%;height:auto">`
    : i % 3 === 2
      ? `<picture><source srcset="${u(r)}" media="(min-width: 1px)"><img src="${u(r)}" alt="p${i}" ${dims(FIGURE_PIXELS)}></picture>`
      : `<img src="${u(r)}" srcset="${u(r)} 1x" sizes="(max-width: 600px) 100vw, 320px" alt="p${i}" ${dims(FIGURE_PIXELS)}>`));
  const range = (n: number): number[] => Array.from({ length: n }, (_, k) => k);
  const tail = [
    `<footer>${range(backgrounds.length).map((k) => `<div class="bg-${k}"></div>`).join('')}`,
    `<p>${range(fonts.length).map((k) => `<span class="f-${k}">${heading(rng, 2)}</span>`).join(' ')}</p></footer>`,
    ...(pixel ? [`<img src="${u(pixel)}" width="1" height="1" alt="">`] : []),
    // Script-inserted images: invisible to HTML and CSS parsers, found only when this runs.
    ...(inserted.length > 0
      ? [`<script>document.addEventListener("DOMContentLoaded",function(){[${inserted.map((r) => `"${u(r)}"`).join(',')}].forEach(function(s){var i=document.createElement("img");i.src=s;i.alt="";i.width=${SCRIPT_IMAGE_PIXELS.width};i.height=${SCRIPT_IMAGE_PIXELS.height};document.body.appendChild(i)});});</script>`]
      : []),
    ...scripts.filter((s) => s.mode !== 'sync').map((s) => `<script ${s.mode} src="${u(s.r)}"></script>`),
    ...(late ? [`<link rel="stylesheet" href="${u(late)}">`] : []),
    '</body></html>',
    '',
  ];
  let budget = shape.documentBytes - worstCaseLength([...head, ...figures, ...tail].join('\n')) - 600;
  const body: string[] = [];
  let placed = 0;
  while (budget > 0) {
    const section = `<section><h2>${heading(rng)}</h2><p>${paragraph(rng, Math.min(480, budget))}</p></section>`;
    if (section.length > budget) break;
    body.push(section);
    if (placed < figures.length) body.push(figures[placed++] as string);
    budget -= section.length + 1;
  }
  body.push(...figures.slice(placed));
  texts.set(key(doc), { template: [...head, ...body, ...tail].join('\n'), size: shape.documentBytes, style: 'html' });
  for (const [k, t] of texts) {
    if (worstCaseLength(t.template) > t.size) throw new RangeError(`${k}: template needs ${worstCaseLength(t.template)} bytes, over its ${t.size}-byte budget`);
  }

  const resources = [...sheets, ...(imported ? [imported] : []), ...scripts.map((s) => s.r), ...images, ...backgrounds, ...fonts, ...(pixel ? [pixel] : []), ...(late ? [late] : []), ...inserted];
  const page: BenchPage = {
    name: shape.name,
    title: shape.title,
    source: 'real-world HTML patterns: mixed schemes, preconnect hints, responsive images, fonts, late CSS',
    origins: [doc.origin, ...new Set(resources.map((r) => r.origin).filter((o) => o !== doc.origin))],
    document: { ...doc, contentType: CONTENT_TYPES.html, size: shape.documentBytes },
    resources,
    singleOrigin: false,
    schemes: shape.schemes,
    documentScheme: shape.documentScheme,
  };
  return makeBenchBuild(page, texts);
}
