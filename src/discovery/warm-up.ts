import { createHtmlScanner } from './html-scanner';

/**
 * Discovery runs on the event loop that also drives the page's connections. In a fresh process its
 * code is cold: V8 interprets a function until it has run often enough to be compiled, so the
 * first document and style sheets a process models take several times longer than later ones
 * (bench/README.md, "Cold discovery"). That time is spent while handshakes and responses wait for
 * the loop. These steps run the scanner over a small synthetic page, one short step at a time, so
 * a process can warm its discovery code while it waits for its first document's bytes.
 *
 * The page touches what real pages do: a head with preconnects, style sheets, preloads and
 * scripts, a `<style>` with `@font-face`, images with `srcset` and `<picture>`, and external sheets
 * with `@import`, `@media`, nesting, backgrounds and font rules, matched against the document.
 */
export function discoveryWarmUpSteps(onResource: (url: string) => void = () => undefined): Array<() => void> {
  const steps: Array<() => void> = [];
  // Several small pages rather than one large one: a sheet is matched against the whole document
  // parsed so far, so small pages keep every step short.
  for (let p = 0; p < PAGES; p++) steps.push(...pageSteps(p, onResource));
  return steps;
}

const PAGES = 6;
const SHEETS_PER_PAGE = 4;
const HTML_STEP = 1_024;
const RULES_PER_SHEET = 16;
const ITEMS_PER_PAGE = 24;

function pageSteps(p: number, onResource: (url: string) => void): Array<() => void> {
  const origin = `https://warm-up-${p}.invalid`;
  const sheets = Array.from({ length: SHEETS_PER_PAGE }, (_, i) => `${origin}/css/s${i}.css`);
  const scanner = createHtmlScanner({
    documentUrl: `${origin}/`,
    onResource: (r) => onResource(r.url),
    onOriginHint: () => undefined,
    firstImagesVisible: 4,
  });
  const html = warmUpDocument(sheets);
  const addSheet = (i: number) => () => {
    const url = sheets[i] as string;
    const css = warmUpSheet(p * SHEETS_PER_PAGE + i);
    scanner.addStylesheetStart(url, css.slice(0, 200));
    scanner.addStylesheet(url, css);
  };
  const steps: Array<() => void> = [];
  let added = 0;
  // As on a real page, some sheets arrive while the document is still streaming, the rest after it ended.
  for (let at = 0; at < html.length; at += HTML_STEP) {
    const piece = html.slice(at, at + HTML_STEP);
    steps.push(() => scanner.write(piece));
    if (at >= html.length / 2 && added < SHEETS_PER_PAGE / 2) steps.push(addSheet(added++));
  }
  steps.push(() => scanner.end());
  while (added < SHEETS_PER_PAGE) steps.push(addSheet(added++));
  return steps;
}

function warmUpDocument(sheets: readonly string[]): string {
  const head = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>warm-up</title>',
    '<link rel="preconnect" href="https://fonts.warm-up.invalid"><link rel="dns-prefetch" href="//img.warm-up.invalid">',
    ...sheets.map((href, i) => `<link rel="stylesheet" href="${href}"${i % 3 === 2 ? ' media="(min-width: 600px)"' : ''}>`),
    '<link rel="preload" as="font" type="font/woff2" href="/f/p.woff2" crossorigin>',
    '<script src="/js/a.js"></script><script async src="/js/b.js"></script><script defer src="/js/c.js"></script>',
    '<style>@font-face{font-family:Inline;src:url(/f/i.woff2) format("woff2"),url(/f/i.woff) format("woff")}',
    '.hero{background:url(/bg/hero.jpg) center/cover no-repeat}body{font:16px/1.5 Inline,sans-serif}</style>',
    '</head><body>',
  ];
  const body: string[] = [];
  for (let i = 0; i < ITEMS_PER_PAGE; i++) {
    body.push(`<div class="c${i % 12} card" id="n${i}"><h2 class="t${i % 5}">Item ${i}</h2>`);
    if (i % 4 === 0) body.push(`<img src="/img/i${i}.jpg" srcset="/img/i${i}-1x.jpg 1x, /img/i${i}-2x.jpg 2x" alt="" width="320" height="200">`);
    else if (i % 4 === 1) body.push(`<picture><source type="image/webp" srcset="/img/p${i}.webp 480w, /img/p${i}-l.webp 960w" sizes="(max-width: 600px) 100vw, 50vw"><img src="/img/p${i}.jpg" alt=""></picture>`);
    else if (i % 4 === 2) body.push(`<p class="x${i % 7}" style="background-image:url(/bg/s${i}.png)">Text <em>${i}</em> <a href="/a/${i}">more</a></p>`);
    else body.push(`<ul class="l${i % 3}"><li>one</li><li class="on">two</li></ul><img loading="lazy" src="/img/l${i}.jpg" alt="">`);
    body.push('</div>');
  }
  return `${head.join('')}${body.join('')}<script>document.body.className='js'</script></body></html>`;
}

function warmUpSheet(n: number): string {
  const out: string[] = [];
  if (n === 0) out.push(`@import url("/css/imported.css") screen;`);
  out.push(`@font-face{font-family:"W${n}";font-weight:400 700;font-style:normal;font-display:swap;src:url(/f/w${n}.woff2) format("woff2");unicode-range:U+0000-00FF,U+0131}`);
  for (let r = 0; r < RULES_PER_SHEET; r++) {
    const k = n * RULES_PER_SHEET + r;
    const sel = [`.c${k % 12} .t${k % 5}`, `#n${k % 60} > h2`, `.card:hover .x${k % 7}`, `ul.l${k % 3} li.on::before`, `.c${k % 12}:not(.card) p`][k % 5];
    const decl = [
      `background:url(/bg/r${k}.png) no-repeat left top;padding:${k % 9}px ${k % 4}em;color:#${(k * 2654435761 % 0xffffff).toString(16).padStart(6, '0')}`,
      `font:italic 700 ${12 + (k % 8)}px/1.4 "W${n}",Georgia,serif;margin:0 auto;max-width:calc(100% - ${k % 30}px)`,
      `content:"\\2022 ";list-style:none;border:1px solid rgba(0,0,0,.${k % 9})`,
      `background-image:image-set(url(/bg/q${k}.png) 1x,url(/bg/q${k}@2x.png) 2x);transition:opacity .2s ease-in-out`,
    ][k % 4];
    const rule = `${sel}{${decl}}`;
    out.push(k % 6 === 0 ? `@media (max-width:${400 + (k % 5) * 200}px){${rule}}` : k % 6 === 3 ? `.card{& .x${k % 7}{${decl}}}` : rule);
  }
  return out.join('\n');
}
