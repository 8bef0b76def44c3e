import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHtmlScanner as createScanner, scanHtml } from './html-scanner';
import type { DiscoveredResource } from './types';
import { mulberry32 as prng } from '../core/prng';

const FIXTURES = join(__dirname, '../../test/fixtures/discovery');
const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));
const fixtureNames = readdirSync(FIXTURES).filter((n) => n.endsWith('.html')).sort();
const DOC = 'https://example.test/shop/page.html';

/**
 * The scanner without the end-of-load favicon (`/favicon.ico` for a page without icon links), so
 * these tests see only what the markup names; the favicon has its own tests.
 */
const scan = (html: string | Uint8Array, url: string, options: Parameters<typeof scanHtml>[2] = {}) => scanHtml(html, url, { favicon: false, ...options });
const createHtmlScanner = (options: Parameters<typeof createScanner>[0]) => createScanner({ favicon: false, ...options });

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

/** Feeds `bytes` in the given chunk lengths (cycled) and collects what is reported. */
function scanInChunks(bytes: Uint8Array, chunkSize: number, documentUrl = DOC): DiscoveredResource[] {
  const found: DiscoveredResource[] = [];
  const scanner = createHtmlScanner({ documentUrl, onResource: (r) => found.push(r) });
  for (let i = 0; i < bytes.length; i += chunkSize) scanner.write(bytes.subarray(i, i + chunkSize));
  scanner.end();
  return found;
}


/** Byte index of the `>` that ends the tag starting at `start` (quote-aware). */
function tagEnd(bytes: Uint8Array, start: number): number {
  let quote = 0;
  for (let i = start + 1; i < bytes.length; i++) {
    const c = bytes[i];
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if ((c === 0x22 || c === 0x27) && bytes[i - 1] === 0x3d) {
      quote = c;
    } else if (c === 0x3e) {
      return i;
    }
  }
  return -1;
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

describe('streaming', () => {
  it('an external sheet\'s @imports are due at its first bytes, each once; its rules only when it is complete', () => {
    const found: Array<[string, string]> = [];
    const scanner = createHtmlScanner({ documentUrl: DOC, onResource: (r) => found.push([r.url.replace('https://example.test', ''), r.priority]) });
    scanner.write('<!doctype html><html><head><link rel=stylesheet href="/a.css"><link rel=stylesheet href="/p.css" media=print></head><body><p class=x>t');
    found.length = 0;
    const sheet = '@import "i1.css";\n@import url(i2.css) print;\n.x{background:url(/bg.png)}';
    // `@import "i1.css"` without its `;` is not complete yet; then it is, and the second with it.
    expect(scanner.addStylesheetStart('https://example.test/a.css', sheet.slice(0, 16))).toBe(true);
    expect(found).toEqual([]);
    expect(scanner.addStylesheetStart('https://example.test/a.css', sheet.slice(0, 45))).toBe(true);
    expect(found).toEqual([['/i1.css', 'blocking'], ['/i2.css', 'other']]);
    // Once a rule starts, no @import can follow.
    expect(scanner.addStylesheetStart('https://example.test/a.css', sheet.slice(0, 50))).toBe(false);
    scanner.addStylesheet('https://example.test/a.css', sheet);
    expect(found).toEqual([['/i1.css', 'blocking'], ['/i2.css', 'other'], ['/bg.png', 'image']]);
    // A sheet the scanner did not report (or whose body was added) is ignored.
    expect(scanner.addStylesheetStart('https://example.test/other.css', '@import "z.css";')).toBe(false);
    expect(scanner.addStylesheetStart('https://example.test/a.css', '@import "z.css";')).toBe(false);
    expect(found).toHaveLength(3);
  });

  it('reports a resource as soon as its tag ends, before later chunks are written', () => {
    const found: string[] = [];
    const scanner = createHtmlScanner({ documentUrl: DOC, onResource: (r) => found.push(r.url) });
    scanner.write('<!doctype html><html><head><link rel=stylesheet href="/a.css">');
    expect(found).toEqual(['https://example.test/a.css']);
    scanner.write('<body><img src="/b.png"');
    expect(found).toHaveLength(1); // the tag is not finished: more attributes may follow
    scanner.write(' alt="b">');
    expect(found).toEqual(['https://example.test/a.css', 'https://example.test/b.png']);
    // A rule's url() is due once the sheet is complete and an element matches: <body> already does.
    scanner.write('<style>body { background: url(/c.png) }');
    expect(found).toHaveLength(2); // <style> text is reported at </style>
    scanner.write('</style><p>');
    expect(found).toHaveLength(3);
    scanner.end();
    expect(found).toHaveLength(3);
  });

  it('reports each tag of all-elements.html in the very write that completes it', () => {
    const bytes = fixtureBytes('all-elements.html');
    const chunkSize = 7;
    let written = 0;
    const reportedAfterByte: Array<{ r: DiscoveredResource; writtenBytes: number }> = [];
    const scanner = createHtmlScanner({ documentUrl: DOC, onResource: (r) => reportedAfterByte.push({ r, writtenBytes: written }) });
    for (let i = 0; i < bytes.length; i += chunkSize) {
      written = Math.min(i + chunkSize, bytes.length);
      scanner.write(bytes.subarray(i, written));
    }
    const beforeEnd = reportedAfterByte.length;
    scanner.end();
    // Held back for end() only: the `body { background }` of a <style> in <head>, whose element
    // (<body>) had not been parsed when </style> was.
    expect(reportedAfterByte.slice(beforeEnd).map((x) => x.r.url)).toEqual(['https://example.test/img/bg.png']);
    expect(beforeEnd).toBe(30);

    const text = new TextDecoder().decode(bytes);
    for (const { r, writtenBytes } of reportedAfterByte.slice(0, beforeEnd)) {
      // The byte that completes the tag: its `>` — for <style> text, the `>` of `</style>`; for a
      // <picture>'s chosen <source>, the `>` of the picture's <img> (the browser chooses there).
      const completing =
        r.tag === 'style' ? Buffer.byteLength(text.slice(0, text.indexOf('</style>'))) + '</style'.length
        : r.tag === 'source' && r.attribute === 'srcset' ? tagEnd(bytes, Buffer.from(bytes).indexOf('<img', r.offset))
        : tagEnd(bytes, r.offset);
      expect(completing).toBeGreaterThan(0);
      const chunkOfCompletion = Math.floor(completing / chunkSize);
      expect({ url: r.url, chunk: Math.ceil(writtenBytes / chunkSize) - 1 }).toEqual({ url: r.url, chunk: chunkOfCompletion });
    }
  });

  it('finds an image that is the very last tag of the document, before end() and after it', () => {
    const bytes = fixtureBytes('last-image-at-end.html');
    expect(bytes[bytes.length - 1]).toBe(0x3e); // the fixture really ends with the image's `>`
    const found: string[] = [];
    const scanner = createHtmlScanner({ documentUrl: 'https://example.test/blog/post', onResource: (r) => found.push(r.url) });
    scanner.write(bytes);
    expect(found).toEqual(['https://example.test/blog/first.png', 'https://example.test/images/the-last-one.png']);
    scanner.end();
    expect(found).toHaveLength(2);
    expect(scan(bytes, 'https://example.test/blog/post').map((r) => r.url)).toEqual(found);
  });

  it('finds the last image when its final `>` arrives alone', () => {
    const bytes = fixtureBytes('last-image-at-end.html');
    const found: string[] = [];
    const scanner = createHtmlScanner({ documentUrl: 'https://example.test/', onResource: (r) => found.push(r.url) });
    scanner.write(bytes.subarray(0, bytes.length - 1));
    expect(found).toEqual(['https://example.test/first.png']);
    scanner.write(bytes.subarray(bytes.length - 1));
    expect(found).toEqual(['https://example.test/first.png', 'https://example.test/images/the-last-one.png']);
  });

  it('drops a tag cut off by the end of the document, as the HTML tokenizer does', () => {
    expect(scan('<img src="a.png"><img src="cut.png"', DOC).map((r) => r.url)).toEqual(['https://example.test/shop/a.png']);
  });

  it.each(fixtureNames)('%s: byte chunks of every size 1..16 give the one-shot result', (name) => {
    const bytes = fixtureBytes(name);
    const oneShot = scan(bytes, DOC);
    expect(oneShot.length).toBeGreaterThan(0);
    for (let size = 1; size <= 16; size++) expect({ size, found: scanInChunks(bytes, size) }).toEqual({ size, found: oneShot });
  });

  it.each(fixtureNames)('%s: random byte and string splits give the one-shot result', (name) => {
    const bytes = fixtureBytes(name);
    const text = new TextDecoder().decode(bytes);
    const oneShot = scan(text, DOC);
    expect(scan(bytes, DOC)).toEqual(oneShot);
    for (let seed = 1; seed <= 25; seed++) {
      const random = prng(seed);
      const found: DiscoveredResource[] = [];
      const scanner = createHtmlScanner({ documentUrl: DOC, onResource: (r) => found.push(r) });
      // Strings are split only between UTF-16 units of whole characters; bytes anywhere.
      const asBytes = seed % 2 === 0;
      const source = asBytes ? bytes : Array.from(text);
      for (let i = 0; i < source.length; ) {
        const n = 1 + Math.floor(random() * 40);
        if (asBytes) scanner.write(bytes.subarray(i, i + n));
        else scanner.write((source as string[]).slice(i, i + n).join(''));
        i += n;
      }
      scanner.end();
      expect({ seed, found }).toEqual({ seed, found: oneShot });
    }
  });
});

describe('byte offsets', () => {
  it.each(fixtureNames)('%s: every offset points at its tag (or the first byte of <style> text)', (name) => {
    const bytes = fixtureBytes(name);
    const decoder = new TextDecoder();
    for (const r of scan(bytes, DOC)) {
      if (r.tag === 'style' && r.attribute !== 'style') {
        const before = decoder.decode(bytes.subarray(0, r.offset));
        expect(before.slice(before.lastIndexOf('<')).toLowerCase()).toMatch(/^<style[^>]*>$/);
      } else {
        expect(decoder.decode(bytes.subarray(r.offset, r.offset + 1 + r.tag.length)).toLowerCase()).toBe(`<${r.tag}`);
      }
    }
  });

  it('counts bytes, not UTF-16 units, after non-ASCII text (non-ascii.html)', () => {
    const bytes = fixtureBytes('non-ascii.html');
    const text = new TextDecoder().decode(bytes);
    const found = scan(bytes, 'https://example.test/');
    const byteOffsetOf = (marker: string): number => Buffer.byteLength(text.slice(0, text.indexOf(marker)));
    expect(found.map((r) => [decodeURI(r.url), r.offset])).toEqual([
      ['https://example.test/スタイル.css', byteOffsetOf('<link')],
      ['https://example.test/画像/猫.png', byteOffsetOf('<img src="/画像')],
      ['https://example.test/after-emoji.png', byteOffsetOf('<img src="after-emoji')],
      ['https://example.test/résumé.png', byteOffsetOf('/* ü */')],
    ]);
    // The fixture must make UTF-16 and byte positions differ, or this test proves nothing.
    expect(found[2]?.offset).toBeGreaterThan(text.indexOf('<img src="after-emoji') + 40);
  });

  it('counts a byte order mark and characters split across chunks', () => {
    const html = '\ufeff<p>é😀</p><img src="x.png">';
    const bytes = new TextEncoder().encode(html);
    expect(bytes.subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    const expected = 3 + '<p>'.length + 2 + 4 + '</p>'.length;
    expect(scan(bytes, DOC)[0]?.offset).toBe(expected);
    expect(scanInChunks(bytes, 1)[0]?.offset).toBe(expected);
    expect(scan(html, DOC)[0]?.offset).toBe(expected); // a string is measured as its UTF-8 encoding
  });

  it('is exact for offsets past a stray </> and entities', () => {
    const html = '<p>&eacute;&amp;</><img src="a.png"><b>x</b ><img src=b.png>';
    const found = scan(html, DOC);
    expect(found.map((r) => r.offset)).toEqual([html.indexOf('<img'), html.lastIndexOf('<img')]);
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

describe('scanner contract', () => {
  it('ignores non-http(s), empty and unparsable URLs', () => {
    const html = `<img src="data:image/gif;base64,R0lGOD"><img src="javascript:void(0)"><img src="about:blank">
      <img src="blob:https://x.test/1"><img src=""><img src="   "><img src="http://[::1"><img src="ftp://x.test/a.png"><img src="mailto:a@b">`;
    expect(scan(html, DOC)).toEqual([]);
  });

  it('drops fragments and decodes entities in attributes', () => {
    expect(scan('<img src="/a.svg#frag"><img src="/b.png?x=1&amp;y=2">', DOC).map((r) => r.url)).toEqual([
      'https://example.test/a.svg',
      'https://example.test/b.png?x=1&y=2',
    ]);
  });

  it('counts bytesSeen over bytes and strings', () => {
    const scanner = createHtmlScanner({ documentUrl: DOC, onResource: () => undefined });
    scanner.write(new Uint8Array([0x3c, 0x70, 0xc3]));
    scanner.write(new Uint8Array([0xa9]));
    scanner.write('é😀');
    expect(scanner.bytesSeen).toBe(4 + 2 + 4);
  });

  it('rejects bad options and writes after end with coded errors; end() is idempotent', () => {
    expect(() => createHtmlScanner({ documentUrl: 'not a url', onResource: () => undefined })).toThrow(expect.objectContaining({ code: 'E_INVALID_DOCUMENT_URL' }));
    expect(() => createHtmlScanner({ documentUrl: DOC, onResource: () => undefined, firstImagesVisible: -1 })).toThrow(expect.objectContaining({ code: 'E_INVALID_OPTION' }));
    expect(() => createHtmlScanner({ documentUrl: DOC, onResource: () => undefined, firstImagesVisible: 1.5 })).toThrow(expect.objectContaining({ code: 'E_INVALID_OPTION' }));
    const scanner = createHtmlScanner({ documentUrl: DOC, onResource: () => undefined });
    scanner.end();
    expect(() => scanner.end()).not.toThrow();
    expect(() => scanner.write('<p>')).toThrow(expect.objectContaining({ code: 'E_SCANNER_ENDED', name: 'DiscoveryError' }));
  });

  it('loses nothing when onResource throws; the rest arrive on the next call', () => {
    const seen: string[] = [];
    let throwOnce = true;
    const scanner = createHtmlScanner({
      documentUrl: 'https://example.test/',
      onResource: (r) => {
        if (throwOnce) {
          throwOnce = false;
          throw new Error('consumer failed');
        }
        seen.push(r.url);
      },
    });
    expect(() => scanner.write('<img src="a.png"><img src="b.png">')).toThrow('consumer failed');
    scanner.write('<img src="c.png">');
    scanner.end();
    expect(seen).toEqual(['https://example.test/b.png', 'https://example.test/c.png']);
  });

  it('reports script modes and skips data-block scripts', () => {
    const html = `<script src="a.js"></script><script src="b.js" async></script><script src="c.js" defer></script>
      <script type="module" src="d.js"></script><script type="module" async src="e.js"></script>
      <script type="text/template" src="f.html"></script><script nomodule src="g.js"></script><script>inline()</script>`;
    expect(scan(html, 'https://example.test/').map((r) => [r.url.slice('https://example.test/'.length), r.scriptMode, r.priority])).toEqual([
      ['a.js', 'sync', 'blocking'],
      ['b.js', 'async', 'script'],
      ['c.js', 'defer', 'script'],
      ['d.js', 'module', 'script'],
      ['e.js', 'module', 'script'],
    ]);
  });
});
