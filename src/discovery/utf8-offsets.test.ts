import { ChunkDecoder } from './chunk-decoder';
import { Utf8OffsetMap, utf8Length } from './utf8-offsets';
import { DiscoveryError } from './errors';

const encoder = new TextEncoder();

describe('utf8Length', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['日本', 6],
    ['😀', 4],
    ['a😀b', 6],
    ['\ud800', 3], // lone high surrogate → U+FFFD
    ['\udc00x', 4], // lone low surrogate → U+FFFD
    ['\ud83d\ud83d\ude00', 7], // high, then a pair
  ])('%j is %d bytes', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(encoder.encode(text).length);
  });

  it('measures a slice', () => {
    expect(utf8Length('aé😀z', 1, 4)).toBe(6);
  });
});

describe('Utf8OffsetMap', () => {
  it('maps UTF-16 indexes to byte offsets across appends', () => {
    const map = new Utf8OffsetMap();
    map.append('aé');
    map.append('😀<x');
    expect(map.byteOffsetOf(0)).toBe(0);
    expect(map.byteOffsetOf(2)).toBe(3); // after "aé"
    expect(map.byteOffsetOf(2)).toBe(3); // same index again is fine
    expect(map.byteOffsetOf(4)).toBe(7); // after the emoji (2 UTF-16 units, 4 bytes)
    expect(map.byteOffsetOf(6)).toBe(9);
  });

  it('refuses out-of-order and beyond-input lookups with E_OFFSET_ORDER', () => {
    const map = new Utf8OffsetMap();
    map.append('abcdef');
    map.byteOffsetOf(4);
    expect(() => map.byteOffsetOf(3)).toThrow(expect.objectContaining({ code: 'E_OFFSET_ORDER' }));
    expect(() => map.byteOffsetOf(7)).toThrow(DiscoveryError);
  });
});

describe('ChunkDecoder', () => {
  it('reassembles a character split across byte chunks', () => {
    const bytes = encoder.encode('a😀b');
    const decoder = new ChunkDecoder();
    const parts = [bytes.subarray(0, 2), bytes.subarray(2, 3), bytes.subarray(3)].map((b) => decoder.decode(b));
    expect(parts).toEqual(['a', '', '😀b']);
    expect(decoder.flush()).toBe('');
  });

  it('keeps a byte order mark so offsets still count its bytes', () => {
    const decoder = new ChunkDecoder();
    expect(decoder.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c]))).toBe('\ufeff<');
  });

  it('turns an unfinished character into U+FFFD when a string or the end follows', () => {
    const decoder = new ChunkDecoder();
    expect(decoder.decode(new Uint8Array([0x61, 0xe6]))).toBe('a');
    expect(decoder.decode('b')).toBe('\ufffdb');
    expect(decoder.decode(new Uint8Array([0xe6, 0x97]))).toBe('');
    expect(decoder.flush()).toBe('\ufffd');
  });
});
