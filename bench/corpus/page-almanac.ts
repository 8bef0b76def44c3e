/**
 * The `almanac-median` and `almanac-p90` pages: a modern multi-origin page shaped by the Web
 * Almanac 2024 (see almanac-shape.ts), over ten origins, with three kinds of late discovery:
 * - background images named only by `url()` in first-party stylesheets (`discoveredBy: 'css'`);
 * - web fonts named only by `@font-face` in the font origin's stylesheet (`'css'`);
 * - images an inline script inserts after DOMContentLoaded (`'script'`): no HTML or CSS parser
 *   sees them, only a browser running the page's script.
 *
 * Invariant: the manifest and every body are pure functions of the page name (and, for text
 * bodies, of the base-URL mapping, which changes link text but never a size).
 */
import { CONTENT_TYPES } from '../../native-host/demo/corpus-types';
import { Prng } from '../../src/core/prng';
import { fontBytes, gifBytes, gifPictureBytes, minGifPictureSize, type GifPixels } from '../../native-host/demo/synth-bytes';
import { cssRules, heading, jsFunctions, paragraph } from '../../native-host/demo/synth-text';
import { ALMANAC_ORIGINS as O, ALMANAC_SOURCE, type AlmanacShape } from './almanac-shape';
import type { BenchPage, BenchPageBuild, BenchResource, CorpusBody, OriginPath } from './bench-page-types';
import { link, renderTemplate, worstCaseLength, type PadStyle } from './link-template';
import { splitBytes } from './split-bytes';

const FAVICON_BYTES = 1_150;
const PIXEL_BYTES = 43;
/** Scripts in `<head>` without async/defer: they block rendering, as on most real pages. */
const SYNC_HEAD_SCRIPTS = 3;
/** Script origins in turn: first-party bundles first, then the third parties. */
const SCRIPT_ORIGINS = [O.static, O.www, O.static, O.tags, O.static, O.ads, O.analytics, O.static, O.social, O.ads];
const IMAGE_ORIGINS = [O.img, O.cdn1, O.cdn2, O.img, O.cdn1];
const THIRD_PARTY = new Set<string>([O.tags, O.analytics, O.ads, O.social]);

export interface Text {
  template: string;
  size: number;
  style: PadStyle;
}

const key = (r: OriginPath): string => `${r.origin}${r.path}`;

function check(r: OriginPath, text: Text): void {
  const worst = worstCaseLength(text.template);
  if (worst > text.size) throw new RangeError(`${key(r)}: template needs ${worst} bytes, over its ${text.size}-byte budget`);
}

export function buildAlmanacPage(shape: AlmanacShape): BenchPageBuild {
  const rng = new Prng(shape.name);
  // Every path lives under the page's name, so both almanac pages can be served by one set of
  // origins at once (they share the ten origin names) without one page's files replacing the other's.
  const under = (path: string): string => `/${shape.name}${path}`;
  const doc: OriginPath = { origin: O.www, path: under('/index.html') };
  const texts = new Map<string, Text>();
  const res = (origin: string, path: string, kind: BenchResource['kind'], contentType: string, size: number,
    discoveredBy: BenchResource['discoveredBy'] = 'html', referencedFrom: OriginPath = doc, renderBlocking = false): BenchResource =>
    ({ origin, path: under(path), kind, contentType, size, discoveredBy, referencedFrom, renderBlocking });

  // Stylesheets: the site's own first, the font service's @font-face sheet last.
  const css = shape.stylesheets;
  const cssSizes = splitBytes(rng, css.bytes, css.count, 3_000);
  const sheets = cssSizes.map((size, i) => {
    let origin: string = O.static;
    let path = `/css/site-${i}.css`;
    if (i === 0) [origin, path] = [O.www, '/css/main.css'];
    else if (i === css.count - 1) [origin, path] = [O.fonts, '/css/families.css'];
    else if (i === css.count - 2 && css.count >= 4) [origin, path] = [O.social, '/css/widget.css'];
    return res(origin, path, 'stylesheet', CONTENT_TYPES.css, size, 'html', doc, true);
  });
  const fontSheet = sheets[sheets.length - 1] as BenchResource;
  const firstParty = sheets.filter((s) => s.origin === O.www || s.origin === O.static);

  const js = shape.scripts;
  const scripts = splitBytes(rng, js.bytes, js.count, 1_000).map((size, i) => {
    const origin = SCRIPT_ORIGINS[i % SCRIPT_ORIGINS.length] as string;
    const name = origin.split('.')[0] as string;
    return res(origin, `/js/${name}-${i}.js`, 'script', CONTENT_TYPES.js, size, 'html', doc, i < SYNC_HEAD_SCRIPTS);
  });

  const fonts = splitBytes(rng, shape.fonts.bytes, shape.fonts.count, 4_000).map((size, i) =>
    res(O.fonts, `/files/face-${i}.woff2`, 'font', CONTENT_TYPES.woff2, size, 'css', fontSheet));

  const img = shape.images;
  const imageCount = img.html + img.css + img.script;
  const favicon = res(O.www, '/favicon.gif', 'icon', CONTENT_TYPES.gif, FAVICON_BYTES);
  const pixel = res(O.analytics, '/collect/pixel.gif', 'image', CONTENT_TYPES.gif, PIXEL_BYTES);
  const imageSizes = splitBytes(rng, img.bytes - FAVICON_BYTES - PIXEL_BYTES, imageCount - 2, 64);
  const htmlImages = imageSizes.slice(0, img.html - 2).map((size, i) => {
    const origin = IMAGE_ORIGINS[i % IMAGE_ORIGINS.length] as string;
    const side = figureSide(size);
    return withPicture(res(origin, `/i/${size > 30_000 ? 'photo' : 'thumb'}-${i}.gif`, 'image', CONTENT_TYPES.gif, size), { width: side, height: side });
  });
  const cssImages = imageSizes.slice(img.html - 2, img.html - 2 + img.css).map((size, i) =>
    withPicture(res(O.cdn1, `/bg/bg-${i}.gif`, 'image', CONTENT_TYPES.gif, size, 'css', firstParty[i % firstParty.length] ?? doc), BACKGROUND_PIXELS));
  const scriptImages = imageSizes.slice(img.html - 2 + img.css).map((size, i) =>
    withPicture(
      i % 2 === 0
        ? res(O.img, `/late/promo-${i}.gif`, 'image', CONTENT_TYPES.gif, size, 'script')
        : res(O.ads, `/creative/ad-${i}.gif`, 'image', CONTENT_TYPES.gif, size, 'script'),
      SCRIPT_IMAGE_PIXELS,
    ));

  for (const [i, sheet] of sheets.entries()) {
    let body = '';
    if (sheet === fontSheet) {
      // One family per file, each used by an element of the document: browsers fetch a face only
      // when rendered text needs it.
      body += fonts.map((f, k) => `@font-face{font-family:"Face ${k}";src:url("${link(f.origin, f.path)}") format("woff2");font-display:swap}\n.f-${k}{font-family:"Face ${k}",sans-serif}\n`).join('');
    }
    for (const [k, bg] of cssImages.entries()) {
      if (bg.referencedFrom === sheet) body += `.bg-${k}{background:#eee url("${link(bg.origin, bg.path)}") no-repeat center/cover;min-height:40px}\n`;
    }
    const text: Text = { template: body, size: sheet.size, style: 'code' };
    text.template += cssRules(rng, `c${i}`, sheet.size - worstCaseLength(body) - 64);
    texts.set(key(sheet), text);
  }
  for (const [i, s] of scripts.entries()) {
    texts.set(key(s), { template: `"use strict";\n${jsFunctions(rng, `m${i}`, s.size - 96)}`, size: s.size, style: 'code' });
  }

  const documentText = buildDocument(rng, shape, { favicon, sheets, scripts, htmlImages, pixel, scriptImages, fonts: fonts.length, backgrounds: cssImages.length });
  texts.set(key(doc), documentText);
  for (const [k, t] of texts) check({ origin: '', path: k }, t);

  const resources = [favicon, ...sheets, ...scripts, ...htmlImages, pixel, ...cssImages, ...fonts, ...scriptImages];
  const page: BenchPage = {
    name: shape.name,
    title: shape.title,
    source: ALMANAC_SOURCE,
    origins: [O.www, ...new Set(resources.map((r) => r.origin).filter((o) => o !== O.www))],
    document: { ...doc, contentType: CONTENT_TYPES.html, size: documentText.size },
    resources,
    singleOrigin: false,
  };
  return makeBenchBuild(page, texts);
}

interface DocumentParts {
  favicon: BenchResource;
  sheets: BenchResource[];
  scripts: BenchResource[];
  htmlImages: BenchResource[];
  pixel: BenchResource;
  scriptImages: BenchResource[];
  /** Families `.f-<k>` and backgrounds `.bg-<k>` the document's elements must use. */
  fonts: number;
  backgrounds: number;
}

/** The side of a figure's square `<img>`: photos (over 30 kB) 640 px, thumbnails 160 px. */
const figureSide = (size: number): number => (size > 30_000 ? 640 : 160);
/** Script-inserted images: a 300×250 ad or promo slot (the IAB medium rectangle). */
export const SCRIPT_IMAGE_PIXELS: GifPixels = { width: 300, height: 250 };
/** A CSS background's picture: a strip, shown `cover` in a full-width block. */
export const BACKGROUND_PIXELS: GifPixels = { width: 640, height: 40 };

/**
 * The image drawn at the size the page shows it, so the browser counts its paint as that large
 * (Largest Contentful Paint); a body too small to hold that picture stays a 1×1 GIF, as a real
 * image of so few bytes would be an icon or a spacer.
 */
export function withPicture(r: BenchResource, pixels: GifPixels): BenchResource {
  return r.size >= minGifPictureSize(pixels) ? { ...r, pixels } : r;
}

function buildDocument(rng: Prng, shape: AlmanacShape, p: DocumentParts): Text {
  const u = (r: BenchResource): string => link(r.origin, r.path);
  const head = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${shape.title}</title>`,
    `<link rel="icon" type="image/gif" href="${u(p.favicon)}">`,
    ...p.sheets.map((s) => `<link rel="stylesheet" href="${u(s)}">`),
    ...p.scripts.map((s) => {
      if (s.renderBlocking) return `<script src="${u(s)}"></script>`;
      return `<script ${THIRD_PARTY.has(s.origin) ? 'async' : 'defer'} src="${u(s)}"></script>`;
    }),
    '</head><body>',
    `<header><h1>${heading(rng)}</h1></header>`,
  ];
  const figures = p.htmlImages.map((r, i) => {
    const side = figureSide(r.size);
    return `<figure><img src="${u(r)}" width="${side}" height="${side}" alt="figure ${i + 1}"></figure>`;
  });
  // Script-inserted images: invisible to HTML and CSS parsers, found only when this runs.
  const inserter = [
    '<script>document.addEventListener("DOMContentLoaded",function(){',
    `[${p.scriptImages.map((r) => `"${u(r)}"`).join(',')}].forEach(function(s){`,
    `var i=document.createElement("img");i.src=s;i.alt="";i.width=${SCRIPT_IMAGE_PIXELS.width};i.height=${SCRIPT_IMAGE_PIXELS.height};document.body.appendChild(i)});});</script>`,
  ].join('');
  const range = (n: number): number[] => Array.from({ length: n }, (_, k) => k);
  const tail = [
    `<footer>${range(p.backgrounds).map((k) => `<div class="bg-${k}"></div>`).join('')}`,
    `<p>${range(p.fonts).map((k) => `<span class="f-${k}">${heading(rng, 2)}</span>`).join(' ')}</p></footer>`,
    `<img src="${u(p.pixel)}" width="1" height="1" alt="">`,
    inserter,
    '</body></html>',
    '',
  ];
  const fixed = worstCaseLength([...head, ...figures, ...tail].join('\n'));
  const sections: string[] = [];
  // Prose between the figures until the document is within a paragraph of its budget.
  let budget = shape.documentBytes - fixed - 600;
  for (let i = 0; budget > 0; i++) {
    const section = `<section><h2>${heading(rng)}</h2><p>${paragraph(rng, Math.min(480, budget))}</p></section>`;
    if (section.length > budget) break;
    sections.push(section);
    budget -= section.length + 1;
  }
  const body: string[] = [];
  const per = Math.ceil(sections.length / Math.max(1, figures.length));
  for (let i = 0; i < Math.max(sections.length, figures.length); i++) {
    body.push(...sections.slice(i * per, (i + 1) * per));
    if (figures[i] !== undefined) body.push(figures[i] as string);
  }
  return { template: [...head, ...body, ...tail].join('\n'), size: shape.documentBytes, style: 'html' };
}

/**
 * Bodies of a multi-origin page: text rendered per base-URL mapping, binaries memoised. A page with
 * `schemes` links each listed origin under its own scheme, whatever the document's.
 */
export function makeBenchBuild(page: BenchPage, texts: ReadonlyMap<string, Text>): BenchPageBuild {
  const byKey = new Map<string, BenchResource>(page.resources.map((r) => [key(r), r]));
  const binaries = new Map<string, CorpusBody>();
  return {
    page,
    bodyOf(origin, path, baseUrl) {
      const k = `${origin}${path}`;
      const text = texts.get(k);
      const contentType = k === key(page.document) ? page.document.contentType : byKey.get(k)?.contentType;
      if (contentType === undefined) return undefined;
      if (text !== undefined) {
        const base = page.schemes === undefined ? baseUrl : (o: string) => baseUrl(o, page.schemes?.[o]);
        return { contentType, body: Buffer.from(renderTemplate(text.template, text.size, base, text.style, k), 'latin1') };
      }
      let hit = binaries.get(k);
      if (hit === undefined) {
        const r = byKey.get(k) as BenchResource;
        hit = { contentType, body: r.kind === 'font' ? fontBytes(r.size, k) : r.pixels ? gifPictureBytes(r.size, k, r.pixels) : gifBytes(r.size, k) };
        binaries.set(k, hit);
      }
      return hit;
    },
  };
}
