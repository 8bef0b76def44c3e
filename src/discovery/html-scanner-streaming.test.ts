import type { DiscoveredResource } from './types';
import { mulberry32 as prng } from '../core/prng';
import { createHtmlScanner, DOC, fixtureBytes, fixtureNames, scan, scanInChunks } from '../../test/support/html-scan';

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
