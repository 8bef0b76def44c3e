import { mulberry32 } from '../core/prng';
import { ChunkAssembler, splitIntoChunks, utf8Length } from './chunks';
import { ProtocolError } from './errors';
import type { ChunkMessage } from './replies';
import { MAX_CHUNKS } from './version';

/** Characters that cost 1, 2, 3, 4 and 6 bytes inside a JSON string, escapes included. */
const ALPHABET = ['a', 'Z', '7', ' ', '"', '\\', '\n', '\t', '\u0001', '\u007f', 'é', 'ß', 'Ω', '€', '中', '\u2028', '\ud83d\ude00', '🖼', '\ud800', '\udfff'];

function randomString(rand: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return s;
}

const bytesOf = (s: string) => new TextEncoder().encode(s).length;

describe('splitIntoChunks', () => {
  test('property: every chunk frame is under the limit, no surrogate pair is split, and the slices join to the exact text', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = mulberry32(seed);
      const json = JSON.stringify({ type: 'replay-result', id: seed % 2 ? `id-"${seed}"` : seed, text: randomString(rand, Math.floor(rand() * 3000)) });
      const maxBytes = 160 + Math.floor(rand() * 600);
      const chunks = splitIntoChunks(seed % 2 ? `id-"${seed}"` : seed, json, maxBytes);
      expect(chunks.map((c) => c.data).join('')).toBe(json);
      let at = 0;
      for (const [i, c] of chunks.entries()) {
        expect({ seed, i, seq: c.seq, total: c.total }).toEqual({ seed, i, seq: i, total: chunks.length });
        const frameBytes = bytesOf(JSON.stringify(c));
        if (frameBytes >= maxBytes) throw new Error(`seed ${seed}: chunk ${i} is ${frameBytes} bytes, limit ${maxBytes}`);
        at += c.data.length;
        const before = json.charCodeAt(at - 1);
        const after = json.charCodeAt(at);
        const splitsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
        if (splitsPair) throw new Error(`seed ${seed}: chunk ${i} ends inside a surrogate pair`);
      }
    }
  });

  test('chunks are filled: all but the last come within a few bytes of the limit', () => {
    const json = JSON.stringify({ s: 'x'.repeat(10_000) });
    const chunks = splitIntoChunks('a', json, 1000);
    for (const c of chunks.slice(0, -1)) expect(bytesOf(JSON.stringify(c))).toBeGreaterThan(1000 - 40);
  });

  test('a text needing more than MAX_CHUNKS chunks is refused with E_INTERNAL', () => {
    const json = 'x'.repeat(200 * (MAX_CHUNKS + 1));
    expect(() => splitIntoChunks(1, json, 256)).toThrow(expect.objectContaining({ code: 'E_INTERNAL' }));
  });

  test('utf8Length agrees with TextEncoder on well-formed text', () => {
    const rand = mulberry32(99);
    for (let i = 0; i < 200; i++) {
      const s = randomString(rand, 50).replace(/[\ud800-\udfff]/g, (c, at, all: string) => {
        const code = c.charCodeAt(0);
        const pairOk = code <= 0xdbff ? /[\udc00-\udfff]/.test(all[at + 1] ?? '') : /[\ud800-\udbff]/.test(all[at - 1] ?? '');
        return pairOk ? c : '?';
      });
      expect(utf8Length(s)).toBe(bytesOf(s));
    }
  });
});

describe('ChunkAssembler', () => {
  const chunksOf = (id: string | number, text: string, parts: number): ChunkMessage[] => {
    const size = Math.ceil(text.length / parts);
    return Array.from({ length: parts }, (_, seq) => ({ type: 'chunk', id, seq, total: parts, data: text.slice(seq * size, (seq + 1) * size) }));
  };

  test('reassembles in any order, with other ids interleaved; 1 and "1" are different ids', () => {
    const a = chunksOf(1, '{"type":"pong","id":1,"pad":"aaaaaaaaaaaa"}', 4);
    const b = chunksOf('1', '{"type":"pong","id":"1"}', 3);
    const asm = new ChunkAssembler();
    const order = [a[2], b[0], a[0], b[2], a[3], b[1], a[1]] as ChunkMessage[];
    const done = order.map((c) => asm.accept(c)).filter((x) => x !== undefined);
    expect(done).toEqual(['{"type":"pong","id":"1"}', '{"type":"pong","id":1,"pad":"aaaaaaaaaaaa"}']);
    expect(asm.pendingCount).toBe(0);
  });

  test('the same id can carry another chunked message once the first is complete', () => {
    const asm = new ChunkAssembler();
    for (const text of ['{"n":1}', '{"n":22}']) {
      const parts = chunksOf('r', text, 2);
      expect(asm.accept(parts[0] as ChunkMessage)).toBeUndefined();
      expect(asm.accept(parts[1] as ChunkMessage)).toBe(text);
    }
  });

  test.each([
    ['a repeated seq', [{ seq: 0, total: 2 }, { seq: 0, total: 2 }], /chunk 0 arrived twice/],
    ['a changed total', [{ seq: 0, total: 3 }, { seq: 1, total: 2 }], /announced with 3 chunks, now 2/],
    ['a seq out of range', [{ seq: 2, total: 2 }], /seq: expected an integer from 0 to 1, got 2/],
    ['a total of 0', [{ seq: 0, total: 0 }], /total: expected an integer from 1 to 256/],
    ['too many chunks', [{ seq: 0, total: MAX_CHUNKS + 1 }], /total: /],
  ])('%s is rejected with E_INVALID_FIELD and drops the partial message', (_name, parts, message) => {
    const asm = new ChunkAssembler();
    let thrown: unknown;
    try {
      for (const p of parts) asm.accept({ type: 'chunk', id: 'x', data: 'd', ...p });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: 'E_INVALID_FIELD', id: 'x', message: expect.stringMatching(message) });
    expect(asm.pendingCount).toBe(0);
  });
});
