import { createHtmlScanner, DOC, scan } from '../../test/support/html-scan';

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
