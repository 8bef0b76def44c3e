import { DOC, fixtureBytes, fixtureNames, scan, scanInChunks } from '../../test/support/html-scan';

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
