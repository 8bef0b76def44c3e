import type { DiscoveredResource } from './types';
import { createHtmlScanner, DOC, fixtureBytes, scan } from '../../test/support/html-scan';

/** `[path, kind, priority, tag, attribute, extras]` rows, easy to read in a failing diff. */
function rows(found: DiscoveredResource[], origin = 'https://example.test'): Array<[string, string, string, string, string, string]> {
  return found.map((r) => [
    r.url.startsWith(origin) ? r.url.slice(origin.length) : r.url,
    r.kind,
    r.priority,
    r.tag,
    r.attribute,
    [r.scriptMode ?? '', r.lazy ? 'lazy' : ''].filter(Boolean).join(','),
  ]);
}

describe('scanHtml: every element type (all-elements.html)', () => {
  const bytes = fixtureBytes('all-elements.html');

  it('finds exactly the resources a browser would fetch, classified', () => {
    expect(rows(scan(bytes, DOC))).toEqual([
      ['/css/main.css', 'stylesheet', 'blocking', 'link', 'href', ''],
      ['/css/print.css', 'stylesheet', 'other', 'link', 'href', ''],
      ['/css/contrast.css', 'stylesheet', 'prefetch', 'link', 'href', ''],
      ['/fonts/body.woff2', 'font', 'font', 'link', 'href', ''],
      ['/css/late.css', 'stylesheet', 'blocking', 'link', 'href', ''],
      ['/js/preloaded.js', 'script', 'script', 'link', 'href', ''],
      ['/img/hero-preload.jpg', 'image', 'image', 'link', 'href', ''],
      ['/data/feed.json', 'preload', 'other', 'link', 'href', ''],
      ['/js/dep.mjs', 'script', 'script', 'link', 'href', 'module'],
      // Icons: only the favicon, reported at the end (with `favicon: true`); no apple-touch-icon.
      ['/next-page.html', 'other', 'prefetch', 'link', 'href', ''],
      ['/likely-next.html', 'other', 'prefetch', 'link', 'href', ''],
      ['/js/sync.js', 'script', 'blocking', 'script', 'src', 'sync'],
      ['/js/async.js', 'script', 'script', 'script', 'src', 'async'],
      ['/js/defer.js', 'script', 'script', 'script', 'src', 'defer'],
      ['/js/app.mjs', 'script', 'script', 'script', 'src', 'module'],
      ['/css/imported.css', 'stylesheet', 'blocking', 'style', '@import', ''],
      // No text is set in @font-face "Body": /fonts/inline.woff2 is never fetched.
      // srcset at DPR 1: `src` is the 1x candidate; <picture>: the first usable <source>'s choice.
      ['/img/a.png', 'image', 'image', 'img', 'src', ''],
      ['/img/hero.jpg', 'image', 'visible-image', 'img', 'src', ''],
      ['/img/lazy.jpg', 'image', 'image', 'img', 'src', 'lazy'],
      ['/img/pic.avif', 'image', 'image', 'source', 'srcset', ''],
      ['/img/poster.jpg', 'image', 'image', 'video', 'poster', ''],
      // A media element's `src` wins; its <source> children are never tried.
      ['/media/clip.mp4', 'media', 'other', 'video', 'src', ''],
      ['/media/captions.vtt', 'track', 'other', 'track', 'src', ''],
      ['/media/sound.mp3', 'media', 'other', 'audio', 'src', ''],
      ['/embed/widget.html', 'iframe', 'other', 'iframe', 'src', 'lazy'],
      ['/img/submit.png', 'image', 'image', 'input', 'src', ''],
      ['/media/doc.pdf', 'object', 'other', 'object', 'data', ''],
      ['/media/anim.swf', 'object', 'other', 'embed', 'src', ''],
      ['/img/div-bg.png', 'image', 'image', 'div', 'style', ''],
      ['https://other.example.test/frame.html', 'iframe', 'other', 'iframe', 'src', ''],
      // `body { background }` in <head>'s <style>: due once <body> exists, i.e. at the end here.
      ['/img/bg.png', 'image', 'image', 'style', 'url()', ''],
    ]);
  });

  it('guesses the first N images visible when asked; a <picture> takes one slot, lazy images none', () => {
    const priorities = (n: number): Record<string, string> =>
      Object.fromEntries(scan(bytes, DOC, { firstImagesVisible: n }).filter((r) => r.kind === 'image' && r.tag !== 'link').map((r) => [r.url.slice('https://example.test'.length), r.priority]));
    expect(priorities(3)).toEqual({
      '/img/a.png': 'visible-image', // slot 1
      '/img/hero.jpg': 'visible-image', // slot 2 (fetchpriority=high anyway)
      '/img/lazy.jpg': 'image', // lazy: no slot
      '/img/pic.avif': 'visible-image', // the picture: slot 3
      '/img/poster.jpg': 'image',
      '/img/submit.png': 'image',
      '/img/bg.png': 'image',
      '/img/div-bg.png': 'image',
    });
    expect(priorities(2)['/img/pic.avif']).toBe('image');
    expect(priorities(0)['/img/a.png']).toBe('image');
  });
});

describe('<base href> (base-href.html)', () => {
  it('resolves URLs before the first base against the document, after it against the base', () => {
    const found = scan(fixtureBytes('base-href.html'), 'https://example.test/docs/guide/page.html');
    expect(found.map((r) => r.url)).toEqual([
      'https://example.test/docs/guide/before.css',
      'https://example.test/docs/up-before.png',
      'https://static.example.test/assets/v2/after.css',
      'https://static.example.test/assets/v2/img/after.png', // `src` is the 1x candidate at DPR 1
      'https://static.example.test/root-relative.png',
      'https://protocol-relative.example.test/x.png',
      'https://absolute.example.test/y.png',
      'https://static.example.test/assets/v2/div.png',
      // The <style> in <head> resolved against the base in effect there; due once <body> exists.
      'https://static.example.test/assets/v2/bg.png',
    ]);
  });

  it('exposes the current base URL while streaming', () => {
    const scanner = createHtmlScanner({ documentUrl: 'https://example.test/a/b.html', onResource: () => undefined });
    expect(scanner.baseUrl).toBe('https://example.test/a/b.html');
    scanner.write('<head><base href="../c/">');
    expect(scanner.baseUrl).toBe('https://example.test/c/');
    scanner.write('<base href="https://elsewhere.test/">');
    expect(scanner.baseUrl).toBe('https://example.test/c/');
  });

  it('ignores a javascript: or data: base, and a base without href does not count', () => {
    const urls = (html: string): string[] => scan(html, 'https://example.test/d/p.html').map((r) => r.url);
    expect(urls('<base href="javascript:alert(1)"><img src="x.png">')).toEqual(['https://example.test/d/x.png']);
    expect(urls('<base target="_blank"><base href="/e/"><img src="x.png">')).toEqual(['https://example.test/e/x.png']);
    expect(urls('<template><base href="/t/"></template><img src="x.png">')).toEqual(['https://example.test/d/x.png']);
  });
});

describe('srcset (srcset-edge-cases.html)', () => {
  it('reports the one candidate a browser picks from every srcset (1280 px, DPR 1), and the chosen <picture> source', () => {
    const found = scan(fixtureBytes('srcset-edge-cases.html'), 'https://example.test/');
    expect(found.map((r) => r.url.replace('https://example.test/', ''))).toEqual([
      'density-1.png',
      'width-1280.png', // 1280w at sizes=100vw is exactly 1x
      'comma,in,url.png',
      'trailing-comma-a.png,trailing-comma-b.png',
      'padded.png', // 1.5x: the lowest density ≥ 1
      'no-descriptor.png', // 1x beats 100w (0.08x at 100vw)
      'ok-after-bad.png', // the only valid candidate
      'paren-ok.png',
      // `data:` is the 1x choice: nothing goes to the network, and after-data.png is not fetched.
      'https://cdn.example.test/img/a.png?w=1,2',
      'newline-1.png',
      'wider.webp', // media matches; 800w is 0.625x, 1600w is 1.25x → the geometric-mean rule picks 1600w
    ]);
    expect(new Set(found.map((r) => `${r.kind}/${r.priority}`))).toEqual(new Set(['image/image']));
  });
});

describe('CSS in <style> and style="" (css-urls.html)', () => {
  it('finds url() and @import with quotes, without, escaped, and not in comments or strings', () => {
    const found = scan(fixtureBytes('css-urls.html'), 'https://example.test/');
    expect(rows(found)).toEqual([
      ['/double-quoted.css', 'stylesheet', 'blocking', 'style', '@import', ''],
      ['/single-quoted.css', 'stylesheet', 'blocking', 'style', '@import', ''],
      ['/unquoted-import.css', 'stylesheet', 'blocking', 'style', '@import', ''],
      ['/url-quoted-import.css', 'stylesheet', 'other', 'style', '@import', ''],
      // @import in the print-only <style>: fetched (at low priority); its `url()`s never apply on screen.
      ['/print-sheet-import.css', 'stylesheet', 'other', 'style', '@import', ''],
      ['/attr-entity.png', 'image', 'image', 'div', 'style', ''],
      ['/attr-double.png', 'image', 'image', 'div', 'style', ''],
      ['/attr-second.png', 'image', 'image', 'div', 'style', ''],
      // Inside an unquoted url( ) `/*` does not start a comment (CSS Syntax §4.3.6): it is URL text.
      ['/attr/*comment*/.png', 'image', 'image', 'div', 'style', ''],
      // The rules of the first <style>, once the <p> they all match exists.
      ['/unquoted.png', 'image', 'image', 'style', 'url()', ''],
      ['/double.png', 'image', 'image', 'style', 'url()', ''],
      ['/single.png', 'image', 'image', 'style', 'url()', ''],
      ['/spaced.png', 'image', 'image', 'style', 'url()', ''],
      ['/esc(aped).png', 'image', 'image', 'style', 'url()', ''],
      ['/quote%22d.png', 'image', 'image', 'style', 'url()', ''],
      ['/hex.png', 'image', 'image', 'style', 'url()', ''],
      ['/upper.png', 'image', 'image', 'style', 'url()', ''],
      ['/set-1x.png', 'image', 'image', 'style', 'url()', ''], // image-set() at DPR 1: the 1x option only
      // The first src of @font-face "Icons" a browser takes (woff2), for the text set in it.
      ['/fonts/icons.woff2', 'font', 'font', 'style', 'url()', ''],
    ]);
  });

  it('reports <style> URLs at the offset of the style text', () => {
    const html = 'é<style>style{b:url(x.png)}</style>';
    expect(scan(html, DOC)[0]?.offset).toBe(2 + '<style>'.length);
  });

  it('ignores <style> that is not CSS, and @import in a style attribute', () => {
    expect(scan('<style type="text/less">a{b:url(x.png)}</style><p style="@import \'y.css\'; b:url(z.png)">', DOC).map((r) => r.url)).toEqual([
      'https://example.test/shop/z.png',
    ]);
  });
});

describe('de-duplication (duplicates.html)', () => {
  it('reports each absolute URL once; the first discovery wins', () => {
    const found = scan(fixtureBytes('duplicates.html'), 'https://example.test/page.html');
    expect(rows(found)).toEqual([
      ['/img/shared.png', 'other', 'prefetch', 'link', 'href', ''], // later fetchpriority=high <img> does not re-report
      ['/css/site.css', 'stylesheet', 'blocking', 'link', 'href', ''],
      ['/img/one.png', 'image', 'image', 'img', 'srcset', ''], // the 1x candidate; 2x/3x are never fetched at DPR 1
    ]);
    // `page.html` and `#top` resolve to the document itself, which is never reported.
  });
});

describe('inert and raw-text content', () => {
  it('skips template, noscript, iframe and noembed content but not what follows', () => {
    const html = `<template><img src="t.png"><style>a{b:url(ts.png)}</style></template>
      <noscript><link rel=stylesheet href="ns.css"><img src="ns.png"></noscript>
      <iframe src="f.html"><img src="if.png"></iframe><noembed><img src="ne.png"></noembed>
      <template><template><img src="tt.png"></template><img src="t2.png"></template>
      <img src="after.png">`;
    expect(scan(html, 'https://example.test/').map((r) => r.url)).toEqual(['https://example.test/f.html', 'https://example.test/after.png']);
  });

  it('does not read tags inside scripts, comments, textarea or title', () => {
    const html = `<script>document.write('<img src="s.png">')</script><!-- <img src="c.png"> -->
      <textarea><img src="ta.png"></textarea><title><img src="ti.png"></title><img src="real.png">`;
    expect(scan(html, 'https://example.test/').map((r) => r.url)).toEqual(['https://example.test/real.png']);
  });
});
