import { parseSrcset } from './srcset';

const urls = (srcset: string): string[] => parseSrcset(srcset).map((c) => c.url);

describe('parseSrcset', () => {
  it('reads density descriptors', () => {
    expect(parseSrcset('a.png 1x, b.png 2x')).toEqual([
      { url: 'a.png', density: 1 },
      { url: 'b.png', density: 2 },
    ]);
  });

  it('reads width descriptors, with the future-compat h', () => {
    expect(parseSrcset('a.png 320w, b.png 640w 480h')).toEqual([
      { url: 'a.png', width: 320 },
      { url: 'b.png', width: 640, height: 480 },
    ]);
  });

  it('keeps commas inside a URL that is followed by whitespace', () => {
    expect(urls('image,1.png 1x, c.png 2x')).toEqual(['image,1.png', 'c.png']);
    expect(urls('data:image/png;base64,AAAA 1x, b.png 2x')).toEqual(['data:image/png;base64,AAAA', 'b.png']);
  });

  it('treats a comma-joined run without whitespace as one URL (as the spec does)', () => {
    expect(urls('a.png,b.png')).toEqual(['a.png,b.png']);
  });

  it('ends a URL at trailing commas and skips empty candidates', () => {
    expect(parseSrcset('a.png,, ,b.png 2x,')).toEqual([{ url: 'a.png' }, { url: 'b.png', density: 2 }]);
    expect(urls('  , ,  ')).toEqual([]);
    expect(urls('')).toEqual([]);
  });

  it('tolerates any ASCII whitespace, including newlines', () => {
    expect(urls('\n\t a.png\t1x,\r\n b.png\f2x \n')).toEqual(['a.png', 'b.png']);
  });

  it('drops candidates whose descriptors a browser rejects', () => {
    expect(urls('q.png 2q, ok1.png 1x')).toEqual(['ok1.png']);
    expect(urls('both.png 100w 2x, ok.png')).toEqual(['ok.png']);
    expect(urls('zero.png 0w, ok.png')).toEqual(['ok.png']);
    expect(urls('twice.png 1x 2x, ok.png')).toEqual(['ok.png']);
    expect(urls('h.png 50h, ok.png')).toEqual(['ok.png']);
    expect(urls('neg.png -1x, ok.png')).toEqual(['ok.png']);
    expect(urls('float-w.png 1.5w, ok.png')).toEqual(['ok.png']);
    expect(urls('dot.png 1.x, ok.png')).toEqual(['ok.png']);
    expect(urls('plus.png +1x, ok.png')).toEqual(['ok.png']);
  });

  it('parses the full floating-point grammar for x', () => {
    expect(parseSrcset('a.png .5x')).toEqual([{ url: 'a.png', density: 0.5 }]);
    expect(parseSrcset('a.png 1e1x')).toEqual([{ url: 'a.png', density: 10 }]);
    expect(parseSrcset('a.png 2.5E-1x')).toEqual([{ url: 'a.png', density: 0.25 }]);
    expect(parseSrcset('a.png 0x')).toEqual([{ url: 'a.png', density: 0 }]);
    expect(parseSrcset('a.png -0x')).toEqual([{ url: 'a.png', density: -0 }]);
  });

  it('keeps a comma inside parentheses in the descriptor, so the candidate is one (invalid) token', () => {
    expect(urls('p.png (junk, 1x), q.png 5x')).toEqual(['q.png']);
    expect(urls('p.png (unclosed, 1x')).toEqual([]);
  });
});
