/**
 * The newsletter-style page from McManus 2011, "The Apex of Pipelines" (the WITI home page):
 * 159 requests including the document, on one origin.
 *
 * Composition (the counts are invariants, checked by test/demo/corpus.test.ts):
 * - 1 HTML document;
 * - 145 `<img>` images: 100 tiny (< 1 KiB), 37 small (1–3 KiB), 8 larger (4–20 KB), shuffled;
 * - 6 JS/CSS: 3 render-blocking stylesheets and 2 synchronous scripts in `<head>`, 1 async script;
 * - 7 others: a favicon, 3 web fonts (`<link rel=preload as=font>`, also named by `@font-face`),
 *   and 3 background images named ONLY by `url()` inside `theme.css`, so a browser cannot
 *   discover them until that stylesheet has arrived and been parsed.
 * 1 + 145 + 6 + 7 = 159.
 */
import { CorpusResource, PageBuild, CONTENT_TYPES, ResourceKind } from './corpus-types';
import { makePageBuild } from './page-build';
import { Prng } from '../../src/core/prng';
import { cssRules, heading, jsFunctions, padWithComment, paragraph } from './synth-text';

export const MCMANUS_159_NAME = 'mcmanus-159';
const BASE = `/${MCMANUS_159_NAME}`;
const DOC = `${BASE}/index.html`;
const TITLE = 'McManus 2011, "The Apex of Pipelines": newsletter home page, 159 requests';

const STYLESHEETS = [
  { path: `${BASE}/css/base.css`, size: 11_264 },
  { path: `${BASE}/css/layout.css`, size: 6_400 },
  { path: `${BASE}/css/theme.css`, size: 18_432 }, // @font-face + the CSS-only images
];
const SYNC_SCRIPTS = [
  { path: `${BASE}/js/jquery.min.js`, size: 31_744 },
  { path: `${BASE}/js/site.js`, size: 9_216 },
];
const ASYNC_SCRIPT = { path: `${BASE}/js/analytics.js`, size: 14_336 };
const FAVICON = { path: `${BASE}/favicon.gif`, size: 1_150 };
const FONTS = [
  { path: `${BASE}/fonts/witi-sans-regular.woff2`, size: 18_204, weight: 400, style: 'normal' },
  { path: `${BASE}/fonts/witi-sans-bold.woff2`, size: 19_532, weight: 700, style: 'normal' },
  { path: `${BASE}/fonts/witi-sans-italic.woff2`, size: 17_816, weight: 400, style: 'italic' },
];
const CSS_IMAGES = [
  { path: `${BASE}/img/bg/masthead.gif`, size: 7_168, rule: '.masthead{background:#fff url("%") repeat-x}' },
  { path: `${BASE}/img/bg/nav-sprite.gif`, size: 2_910, rule: '.nav li{background:url("%") no-repeat}' },
  { path: `${BASE}/img/bg/bullet.gif`, size: 310, rule: '.news li{background:url("%") no-repeat 0 4px}' },
];
const TINY = 100;
const SMALL = 37;
const LARGE = 8;
const LARGEST_IMAGE = 20_000;
const STORIES = 12;

function resource(path: string, kind: ResourceKind, contentType: string, size: number,
  extra: Partial<Pick<CorpusResource, 'discoveredBy' | 'referencedFrom' | 'renderBlocking'>> = {}): CorpusResource {
  return {
    path, contentType, size, kind,
    discoveredBy: extra.discoveredBy ?? 'html',
    referencedFrom: extra.referencedFrom ?? DOC,
    renderBlocking: extra.renderBlocking ?? false,
  };
}

/** Image sizes in document order; the largest (the lead story's photo) comes first. */
function imageSizes(rng: Prng): number[] {
  const sizes: number[] = [];
  for (let i = 0; i < TINY; i++) sizes.push(rng.int(43, 1_000));
  for (let i = 0; i < SMALL; i++) sizes.push(rng.int(1_024, 3_072));
  for (let i = 0; i < LARGE - 1; i++) sizes.push(rng.int(4_096, 16_384));
  return [LARGEST_IMAGE, ...rng.shuffle(sizes)];
}

function imageName(size: number): string {
  if (size < 1_024) return 'icon';
  return size <= 3_072 ? 'thumb' : 'photo';
}

export function buildMcmanus159(): PageBuild {
  const rng = new Prng(MCMANUS_159_NAME);
  const texts = new Map<string, string>();
  const head: CorpusResource[] = [
    resource(FAVICON.path, 'icon', CONTENT_TYPES.gif, FAVICON.size),
    ...FONTS.map((f) => resource(f.path, 'font', CONTENT_TYPES.woff2, f.size)),
    ...STYLESHEETS.map((s) => resource(s.path, 'stylesheet', CONTENT_TYPES.css, s.size, { renderBlocking: true })),
    ...SYNC_SCRIPTS.map((s) => resource(s.path, 'script', CONTENT_TYPES.js, s.size, { renderBlocking: true })),
    resource(ASYNC_SCRIPT.path, 'script', CONTENT_TYPES.js, ASYNC_SCRIPT.size),
  ];
  const images = imageSizes(rng).map((size, i) =>
    resource(`${BASE}/img/${imageName(size)}-${String(i + 1).padStart(3, '0')}.gif`, 'image', CONTENT_TYPES.gif, size));
  const theme = STYLESHEETS[2]?.path ?? '';
  const cssImages = CSS_IMAGES.map((c) =>
    resource(c.path, 'image', CONTENT_TYPES.gif, c.size, { discoveredBy: 'css', referencedFrom: theme }));

  // Stylesheets and scripts: filler padded to their exact declared size.
  for (const [i, s] of STYLESHEETS.entries()) {
    let css = '';
    if (s.path === theme) {
      css += FONTS.map((f) => `@font-face{font-family:"Witi Sans";src:url("${f.path}") format("woff2");font-weight:${f.weight};font-style:${f.style}}\n`).join('');
      css += 'body{font-family:"Witi Sans",Arial,sans-serif}\n';
      css += CSS_IMAGES.map((c) => c.rule.replace('%', c.path) + '\n').join('');
    }
    css += cssRules(rng, `s${i}`, s.size - css.length - 64);
    texts.set(s.path, padWithComment(css, s.size, rng));
  }
  for (const [i, s] of [...SYNC_SCRIPTS, ASYNC_SCRIPT].entries()) {
    const js = `"use strict";\n${jsFunctions(rng, `m${i}`, s.size - 96)}`;
    texts.set(s.path, padWithComment(js, s.size, rng));
  }

  const headHtml = [
    `<link rel="icon" type="image/gif" href="${FAVICON.path}">`,
    ...FONTS.map((f) => `<link rel="preload" href="${f.path}" as="font" type="font/woff2" crossorigin>`),
    ...STYLESHEETS.map((s) => `<link rel="stylesheet" href="${s.path}">`),
    ...SYNC_SCRIPTS.map((s) => `<script src="${s.path}"></script>`),
    `<script async src="${ASYNC_SCRIPT.path}"></script>`,
  ];
  const stories: string[] = [];
  const perStory = Math.ceil(images.length / STORIES);
  for (let s = 0; s < STORIES; s++) {
    const imgs = images.slice(s * perStory, (s + 1) * perStory).map((r, k) => {
      const side = r.size < 1_024 ? 16 : r.size <= 3_072 ? 64 : 240;
      return `<li><img src="${r.path}" width="${side}" height="${side}" alt="item ${s + 1}.${k + 1}"></li>`;
    });
    stories.push([
      `<div class="story"><h2>${heading(rng)}</h2>`,
      `<p>${paragraph(rng, 500)}</p>`,
      `<ul class="news">\n${imgs.join('\n')}\n</ul></div>`,
    ].join('\n'));
  }
  const nav = Array.from({ length: 8 }, () => `<li><a href="#">${heading(rng, 1)}</a></li>`).join('');
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${TITLE.replace(/&/g, '&amp;')}</title>`,
    ...headHtml,
    '</head><body>',
    `<div class="masthead"><h1>${heading(rng)}</h1></div>`,
    `<ul class="nav">${nav}</ul>`,
    ...stories,
    `<div class="footer"><p>${paragraph(rng, 300)}</p></div>`,
    '</body></html>',
    '',
  ].join('\n');
  texts.set(DOC, html);

  const page = {
    name: MCMANUS_159_NAME, title: TITLE, path: DOC, documentSize: html.length,
    resources: [...head, ...images, ...cssImages],
  };
  return makePageBuild(page, texts);
}
