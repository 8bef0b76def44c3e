import { sniffCharset } from './charset';
import { modelStylesheet } from './css-model';
import { specificity } from './css-selectors';
import { pickFavicons } from './icon-select';
import { withLegacyQuery } from './legacy-query';
import { matchesMedia } from './media-query';
import { mixedContentAction } from './mixed-content';
import { scanHtml } from './html-scanner';
import { sourceSizePx } from './source-size';
import { parseSrcset } from './srcset';
import { selectImageCandidate } from './srcset-select';
import { DEFAULT_VIEWPORT, type Viewport } from './viewport';

const V: Viewport = { ...DEFAULT_VIEWPORT };
const urls = (html: string, doc = 'https://example.test/', options = {}) => scanHtml(html, doc, { favicon: false, ...options }).map((r) => r.url.replace('https://example.test/', ''));

describe('media queries (Media Queries 4) at 1280×800, DPR 1', () => {
  it.each([
    [undefined, true], ['', true], ['all', true], ['screen', true], ['print', false], ['not print', true], ['only screen and (min-width: 1024px)', true],
    ['(max-width: 600px)', false], ['(min-width: 80em)', true], ['(min-width: 81em)', false], ['(width >= 1280px)', true], ['(400px < width < 1000px)', false],
    ['(orientation: landscape)', true], ['(min-resolution: 2dppx)', false], ['(-webkit-min-device-pixel-ratio: 1.5)', false], ['(prefers-color-scheme: dark)', false],
    ['(hover: hover) and (pointer: fine)', true], ['print, (min-width: 1px)', true], ['(min-width: 1px) or (max-width: 1px)', true], ['not (max-width: 600px)', true],
    ['(unknown-feature: 1)', false], ['screen and (', false],
  ])('%j → %s', (media, expected) => expect(matchesMedia(media, V)).toBe(expected));
});

describe('srcset + sizes: the candidate a browser picks', () => {
  const pick = (srcset: string, sizes: string | undefined, v: Viewport, src?: string) => selectImageCandidate(parseSrcset(srcset), sourceSizePx(sizes, v), v.dpr, src);
  const set = 'a-400.jpg 400w, a-800.jpg 800w, a-1600.jpg 1600w';
  it('uses the first matching sizes entry, else the last, else 100vw', () => {
    expect(sourceSizePx('(max-width: 600px) 100vw, 50vw', V)).toBe(640);
    expect(sourceSizePx('(min-width: 1024px) 960px, 100vw', V)).toBe(960);
    expect(sourceSizePx('calc(100vw - 2 * 20px)', V)).toBe(1240);
    expect(sourceSizePx('min(50vw, 500px)', V)).toBe(500);
    expect(sourceSizePx('-1px, 10%, 300px', V)).toBe(300); // invalid entries are skipped
    expect(sourceSizePx(undefined, V)).toBe(1280);
  });
  it('picks the lowest density ≥ the DPR, with Chromium\'s geometric-mean rule above 1', () => {
    expect(pick(set, '50vw', V)).toBe('a-800.jpg'); // 640 px slot: 0.625x, 1.25x, 2.5x → 1.25x
    expect(pick(set, '300px', V)).toBe('a-400.jpg');
    expect(pick(set, '300px', { ...V, dpr: 2 })).toBe('a-800.jpg'); // 2.67x is the first ≥ 2
    // 1.5x and 3x around DPR 2: sqrt(1.5·3) ≈ 2.12 > 2, so the lower one wins.
    expect(pick('b.jpg 1.5x, c.jpg 3x', undefined, { ...V, dpr: 2 })).toBe('b.jpg');
    expect(pick('b.jpg 1.5x, c.jpg 3x', undefined, { ...V, dpr: 2.2 })).toBe('c.jpg');
    expect(pick('x2.jpg 2x', undefined, V, 'x1.jpg')).toBe('x1.jpg'); // src is the 1x candidate
    expect(pick('w.jpg 100w', '1000px', V)).toBe('w.jpg'); // none ≥ 1: the densest
  });
});

describe('<picture>, media, preload and SVG in the scanner', () => {
  it('takes the first <source> whose type is supported and media matches; the <img> only when none is', () => {
    const html = `<picture><source type="image/jxl" srcset="p.jxl"><source media="(max-width: 500px)" srcset="small.webp">
      <source type="image/webp" srcset="p.webp 1x, p2.webp 2x"><img src="p.jpg"></picture>
      <picture><source media="print" srcset="print.webp"><img src="fallback.jpg" srcset="fallback2.jpg 2x"></picture>`;
    expect(urls(html)).toEqual(['p.webp', 'fallback.jpg']);
  });
  it('preloads only for matching media, and one imagesrcset candidate', () => {
    const html = `<link rel=preload as=image href=h.jpg imagesrcset="h-640.jpg 640w, h-1280.jpg 1280w" imagesizes="50vw">
      <link rel=preload as=image href=mobile.jpg media="(max-width: 600px)"><link rel=manifest href=/app.webmanifest>`;
    expect(urls(html)).toEqual(['h-640.jpg', 'app.webmanifest']);
  });
  it('finds SVG <image> and external <use>, not in-document fragments', () => {
    expect(urls('<svg><image href="i.png"/><image xlink:href="x.png"/><use href="s.svg#a"/><use xlink:href="#b"/></svg>')).toEqual(['i.png', 'x.png', 's.svg']);
  });
  it('defers loading=lazy images the layout guess puts beyond the lazy-loading margin', () => {
    const tall = Array.from({ length: 4 }, (_, i) => `<div><img src="t${i}.jpg" width="1280" height="1000"></div>`).join('');
    const found = scanHtml(`<img loading=lazy src=near.jpg width=10 height=10>${tall}<p><img loading=lazy src=far.jpg width=10 height=10><img src=eager.jpg>`, 'https://example.test/', { favicon: false });
    expect(found.filter((r) => r.deferred).map((r) => r.url)).toEqual(['https://example.test/far.jpg']);
    expect(found.find((r) => r.url.endsWith('near.jpg'))?.lazy).toBe(true);
  });
});

describe('CSS: what matches, wins and is used', () => {
  it('fetches url()s of matching rules only, the cascade winner per property, @media evaluated', () => {
    const html = `<style>.hero{background:url(hero.jpg)} .missing{background:url(no.jpg)}
      .card{background:url(card.jpg)} .card.plain{background:none} @media (max-width:600px){.hero{background:url(mobile.jpg)}}
      .btn:hover{background:url(hover.png)} .tile::before{content:"";background:url(before.png)}
      .set{background-image:image-set("s1.png" 1x, "s2.png" 2x)}</style>
      <div class=hero></div><div class="card plain"></div><div class=card></div><a class=btn></a><i class=tile></i><b class=set></b>`;
    expect(urls(html)).toEqual(['hero.jpg', 'card.jpg', 'before.png', 's1.png']);
  });
  it('fetches a font face for text set in its family: weight and style matched, unicode-range intersected', () => {
    const css = `@font-face{font-family:F;src:url(f-latin.woff2) format("woff2"),url(f.woff) format("woff");unicode-range:U+0000-00FF}
      @font-face{font-family:F;src:url(f-cyr.woff2);unicode-range:U+0400-04FF}
      @font-face{font-family:F;font-weight:700;src:url(f-bold.woff2)}
      @font-face{font-family:F;font-style:italic;src:url(f-italic.woff2)}
      @font-face{font-family:Unused;src:url(unused.woff2)} body{font-family:F,sans-serif} .icon::before{font-family:G;content:"\\f005"}
      @font-face{font-family:G;src:url(g.woff2)}`;
    expect(urls(`<style>${css}</style><body><p>Hello</p><h1>Bold</h1><i class=icon></i></body>`).sort()).toEqual(['f-bold.woff2', 'f-latin.woff2', 'g.woff2']);
    expect(urls(`<style>${css}</style><body><p>Привет</p><em>x</em></body>`).sort()).toEqual(['f-cyr.woff2', 'f-italic.woff2']);
  });
  it('ranks specificity as ids, classes, types', () => {
    expect(specificity('#a .b c')).toBeGreaterThan(specificity('.a .b .c .d'));
    expect(specificity('.a .b')).toBeGreaterThan(specificity('div p span'));
    expect(specificity(':where(#x) p')).toBe(specificity('p'));
  });
  it('models @import only before other rules, with the sheet media', () => {
    const m = modelStylesheet('@import "a.css"; @import url(b.css) print; .x{} @import "late.css";', { baseUrl: 'https://example.test/', media: 'screen', dpr: 1 });
    expect(m.imports).toEqual([{ url: 'https://example.test/a.css', media: 'screen' }, { url: 'https://example.test/b.css', media: 'screen and print' }]);
  });
});

describe('icons, mixed content, encodings', () => {
  const icon = (href: string, sizes?: string, type?: string) => ({ href, base: 'https://example.test/', sizes, type });
  it('picks one favicon as Chromium does; /favicon.ico when none is declared; nothing for data:', () => {
    expect(pickFavicons([icon('/32.png', '32x32'), icon('/16.png', '16x16'), icon('/192.png', '192x192')], 'https://example.test/p')).toEqual(['https://example.test/32.png']);
    expect(pickFavicons([icon('/a.svg', undefined, 'image/svg+xml'), icon('/b.ico')], 'https://example.test/p')).toEqual(['https://example.test/b.ico']);
    expect(pickFavicons([icon('/b.ico', 'any'), icon('/a.svg', undefined, 'image/svg+xml')], 'https://example.test/p')).toEqual(['https://example.test/a.svg', 'https://example.test/b.ico']);
    expect(pickFavicons([], 'https://example.test/deep/page')).toEqual(['https://example.test/favicon.ico']);
    expect(pickFavicons([icon('data:,')], 'https://example.test/')).toEqual([]);
  });
  it('upgrades http images and media of an https page, blocks the rest, leaves loopback alone', () => {
    expect(mixedContentAction('https://a.test/', 'http://b.test/x.png', 'image')).toBe('upgrade');
    expect(mixedContentAction('https://a.test/', 'http://b.test/x.js', 'script')).toBe('block');
    expect(mixedContentAction('https://a.test/', 'http://127.0.0.1/x.js', 'script')).toBe('allow');
    expect(mixedContentAction('http://a.test/', 'http://b.test/x.js', 'script')).toBe('allow');
    const found = scanHtml('<img src="http://b.test/i.png"><script src="http://b.test/s.js"></script>', 'https://a.test/', { favicon: false });
    expect(found.map((r) => [r.url, r.mixedContent])).toEqual([['https://b.test/i.png', 'upgraded'], ['http://b.test/s.js', 'blocked']]);
  });
  it('sniffs the charset (BOM, header, meta) and encodes queries in it', () => {
    const meta = new TextEncoder().encode('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">');
    expect(sniffCharset(meta, 'text/html')).toBe('windows-1252');
    expect(sniffCharset(meta, 'text/html; charset=utf-8')).toBe('utf-8');
    expect(sniffCharset(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), 'text/html; charset=koi8-r')).toBe('utf-8');
    expect(withLegacyQuery('crème.php?q=crème&x=€', 'windows-1252')).toBe('crème.php?q=cr%E8me&x=%80');
    expect(urls('<img src="a.php?q=é">', 'https://example.test/', { encoding: 'windows-1252' })).toEqual(['a.php?q=%E9']);
    expect(urls('<img src="a.php?q=é">')).toEqual(['a.php?q=%C3%A9']);
  });
});
