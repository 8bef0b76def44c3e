import { extractCssUrls, type CssUrlReference } from './css-urls';

const BASE = 'https://example.test/css/site.css';
const urls = (css: string, base = BASE): string[] => extractCssUrls(css, base).map((r) => r.url);
const rel = (url: string): string => url.replace('https://example.test/css/', '');

describe('extractCssUrls', () => {
  it('finds url() in all its spellings and resolves against the base', () => {
    const css = `a { background: url(un.png) } b { background: url("dq.png") } c { background: url('sq.png') }
      d { background: url(  sp.png  ) } e { background: URL(upper.png) } f { background: url( "spq.png" ) }
      g { background: url(/root.png) } h { background: url(https://cdn.example.test/abs.png) }`;
    expect(urls(css)).toEqual([
      'https://example.test/css/un.png',
      'https://example.test/css/dq.png',
      'https://example.test/css/sq.png',
      'https://example.test/css/sp.png',
      'https://example.test/css/upper.png',
      'https://example.test/css/spq.png',
      'https://example.test/root.png',
      'https://cdn.example.test/abs.png',
    ]);
  });

  it('reports offsets of the url( token as UTF-16 indexes', () => {
    const css = '/* é */ a { b: url(x.png) } c { d: url("y.png") }';
    const found = extractCssUrls(css, BASE);
    expect(found.map((r) => r.offset)).toEqual([css.indexOf('url(x'), css.indexOf('url("y')]);
    expect(found.every((r) => r.kind === 'url' && !r.inFontFace)).toBe(true);
  });

  it('ignores comments and strings that merely contain url(', () => {
    const css = `/* url(c1.png) */ a { content: "url(s1.png)"; b: url(real.png) /* url(c2.png) */ }
      /* @import "c3.css"; */`;
    expect(urls(css).map(rel)).toEqual(['real.png']);
  });

  it('decodes escapes', () => {
    expect(urls('a{b:url(esc\\(aped\\).png)} c{d:url("quote\\"d.png")} e{f:url(hex\\2e png)}').map(rel)).toEqual([
      'esc(aped).png',
      'quote%22d.png',
      'hex.png',
    ]);
  });

  it('finds @import in string and url forms, with media lists', () => {
    const css = `@charset "utf-8";
      @import "a.css";
      @import 'b.css' screen;
      @import url(c.css) PRINT;
      @import url( "d.css" ) layer(base) supports(display: grid) print and (min-width: 10px);
      @import url("e.css") layer;
      a { b: c }`;
    const found = extractCssUrls(css, BASE);
    expect(found.map((r) => [rel(r.url), r.kind, r.media])).toEqual([
      ['a.css', 'import', undefined],
      ['b.css', 'import', 'screen'],
      ['c.css', 'import', 'print'],
      ['d.css', 'import', 'print and (min-width: 10px)'],
      ['e.css', 'import', undefined],
    ]);
    expect(found[0]?.offset).toBe(css.indexOf('@import "a.css"'));
  });

  it('ignores @import after other rules, inside blocks, or without a URL — and @namespace URLs', () => {
    const css = `@namespace svg url(http://www.w3.org/2000/svg);
      @import "after-namespace.css";`;
    expect(urls(css)).toEqual([]);
    expect(urls('a{} @import "late.css"; @import url(late2.css);')).toEqual([]);
    expect(urls('@media screen { @import "nested.css"; }')).toEqual([]);
    expect(urls('@layer base; @import "after-layer-statement.css";').map(rel)).toEqual(['after-layer-statement.css']);
    expect(urls('@layer base { } @import "after-layer-block.css";')).toEqual([]);
    expect(urls('@import ; a { b: url(ok.png) }').map(rel)).toEqual(['ok.png']);
  });

  it('marks url() inside @font-face', () => {
    const css = `@font-face { font-family: X; src: url(x.woff2) format("woff2"), url("x.woff") format("woff"), local("X"); }
      @media screen { @font-face { src: url(nested.woff2) } }
      body { background: url(bg.png) }`;
    const found = extractCssUrls(css, BASE);
    expect(found.map((r): [string, boolean] => [rel(r.url), r.inFontFace])).toEqual([
      ['x.woff2', true],
      ['x.woff', true],
      ['nested.woff2', true],
      ['bg.png', false],
    ]);
  });

  it('reads image-set() strings and src() functions', () => {
    expect(urls('a { b: image-set("s1.png" 1x, url(s2.png) 2x, \'s3.png\' type("image/avif")) }').map(rel)).toEqual([
      's1.png',
      's2.png',
      's3.png',
    ]);
    expect(urls('a { b: -webkit-image-set("w.png" 1x) }').map(rel)).toEqual(['w.png']);
    expect(urls('a { b: src("s.png") }').map(rel)).toEqual(['s.png']);
    expect(urls('a { content: counter(x, "y.png"); b: format("z.png") }')).toEqual([]);
  });

  it('skips fragment-only, non-http(s), empty and bad URLs', () => {
    expect(urls('a { filter: url(#f); b: url(data:image/png;base64,AA); c: url(""); d: url(bad url.png); e: url(javascript:x) }')).toEqual([]);
  });

  it('drops fragments but keeps queries', () => {
    expect(urls('a { b: url(sprite.svg#icon); c: url(x.png?v=1#y) }').map(rel)).toEqual(['sprite.svg', 'x.png?v=1']);
  });

  it('works on a style attribute (a declaration list)', () => {
    expect(urls('background: url(a.png), url( "b.png" ); mask: url(c.svg)', 'https://example.test/page.html')).toEqual([
      'https://example.test/a.png',
      'https://example.test/b.png',
      'https://example.test/c.svg',
    ]);
  });

  it('is total on junk', () => {
    const junk = ['url(', '@import', '@import url(', '"', '/*', '}}}{{{', ')))', '\\', 'url("', 'image-set(', '@font-face{'];
    for (const css of junk) expect(() => extractCssUrls(css, BASE)).not.toThrow();
  });

  it('throws E_INVALID_BASE_URL for a relative base', () => {
    expect(() => extractCssUrls('a{}', '/relative')).toThrow(expect.objectContaining({ code: 'E_INVALID_BASE_URL' }));
  });

  it('has the documented shape', () => {
    const [ref] = extractCssUrls('@import "x.css" print;', BASE);
    const expected: CssUrlReference = { url: 'https://example.test/css/x.css', kind: 'import', offset: 0, inFontFace: false, media: 'print' };
    expect(ref).toEqual(expected);
  });
});
