import puppeteer from 'puppeteer-core';
import { describeE2e, requireBrowser } from '../e2e/harness/browsers';
import { CHROMIUM_QUIET_FLAGS } from '../../bench/run/chromium-flags';
import { gifBytes, gifPictureBytes, lzwEncode, minGifPictureSize, SynthSizeError } from '../../native-host/demo/synth-bytes';

/** A GIF LZW decoder written from GIF89a appendix F, independent of the encoder under test. */
function lzwDecode(data: Buffer, minCodeSize: number): number[] {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  let table: number[][] = [];
  const reset = () => {
    table = Array.from({ length: clear + 2 }, (_, i) => (i < clear ? [i] : []));
  };
  reset();
  let codeSize = minCodeSize + 1;
  let bitPos = 0;
  const read = (): number => {
    let code = 0;
    for (let i = 0; i < codeSize; i++, bitPos++) code |= (((data[bitPos >> 3] ?? 0) >> (bitPos & 7)) & 1) << i;
    return code;
  };
  const out: number[] = [];
  let prev: number[] | undefined;
  for (;;) {
    if (bitPos + codeSize > data.length * 8) throw new Error('LZW data ended without an end code');
    const code = read();
    if (code === clear) {
      reset();
      codeSize = minCodeSize + 1;
      prev = undefined;
      continue;
    }
    if (code === end) return out;
    let entry: number[];
    if (code < table.length) entry = table[code] as number[];
    else if (code === table.length && prev) entry = [...prev, prev[0] as number];
    else throw new Error(`LZW code ${code} is not in a table of ${table.length}`);
    out.push(...entry);
    if (prev) table.push([...prev, entry[0] as number]);
    prev = entry;
    if (table.length === 1 << codeSize && codeSize < 12) codeSize++;
  }
}

/** Reads a GIF89a: its screen size, its one image's size and the image's colour indices. */
function parseGif(b: Buffer): { screen: [number, number]; image: [number, number]; indices: number[]; colours: number[] } {
  expect(b.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  const screen: [number, number] = [b.readUInt16LE(6), b.readUInt16LE(8)];
  const tableSize = b[10]! & 0x80 ? 2 << (b[10]! & 7) : 0;
  const colours = [...b.subarray(13, 13 + 3 * tableSize)];
  let at = 13 + 3 * tableSize;
  for (;;) {
    const kind = b[at];
    if (kind === 0x21) {
      at += 2;
      while (b[at] !== 0) at += (b[at] as number) + 1;
      at++;
    } else if (kind === 0x2c) {
      const image: [number, number] = [b.readUInt16LE(at + 5), b.readUInt16LE(at + 7)];
      const minCodeSize = b[at + 10] as number;
      at += 11;
      const parts: Buffer[] = [];
      while (b[at] !== 0) {
        parts.push(b.subarray(at + 1, at + 1 + (b[at] as number)));
        at += (b[at] as number) + 1;
      }
      expect(b[at + 1]).toBe(0x3b);
      expect(at + 2).toBe(b.length);
      return { screen, image, indices: lzwDecode(Buffer.concat(parts), minCodeSize), colours };
    } else {
      throw new Error(`unexpected GIF block 0x${(kind ?? 0).toString(16)} at ${at}`);
    }
  }
}

/** The picture's expected indices: eight horizontal bands, alternating. */
const bands = (w: number, h: number): number[] => Array.from({ length: w * h }, (_, i) => Math.floor((Math.floor(i / w) * 8) / h) % 2);

describe('gifPictureBytes: a picture of a real size at an exact byte count', () => {
  test.each([
    [4_800, 320, 200],
    [58_000, 800, 450],
    [2_544, 32, 32],
    [16_000, 640, 640],
    [300, 16, 16],
  ])('%i bytes, %i×%i: exact size, the declared dimensions, every pixel decodes', (size, w, h) => {
    const b = gifPictureBytes(size, `p${size}`, { width: w, height: h });
    expect(b.length).toBe(size);
    const g = parseGif(b);
    expect(g.screen).toEqual([w, h]);
    expect(g.image).toEqual([w, h]);
    expect(g.indices).toEqual(bands(w, h));
    expect(g.colours).toHaveLength(6);
    // The same seed gives the same bytes; another seed other colours and padding.
    expect(gifPictureBytes(size, `p${size}`, { width: w, height: h }).equals(b)).toBe(true);
    expect(gifPictureBytes(size, 'other', { width: w, height: h }).equals(b)).toBe(false);
  });

  test('every size from the smallest that holds the picture up is exact', () => {
    let smallest = 0;
    for (let size = 1; size < 400 && smallest === 0; size++) {
      try {
        gifPictureBytes(size, 's', { width: 64, height: 40 });
        smallest = size;
      } catch (err) {
        expect(err).toBeInstanceOf(SynthSizeError);
        expect((err as SynthSizeError).code).toBe('E_DEMO_BODY_SIZE');
      }
    }
    expect(smallest).toBe(minGifPictureSize({ width: 64, height: 40 }));
    for (let size = smallest; size < smallest + 300; size++) {
      const b = gifPictureBytes(size, `s${size}`, { width: 64, height: 40 });
      expect(b.length).toBe(size);
      expect(parseGif(b).indices).toEqual(bands(64, 40));
    }
  });

  test('too small a body, or no picture size, is a clear error', () => {
    expect(() => gifPictureBytes(100, 'x', { width: 800, height: 450 })).toThrow(/a 800×450 GIF needs at least \d+ bytes, got 100/);
    expect(() => gifPictureBytes(5_000, 'x', { width: 0, height: 10 })).toThrow(SynthSizeError);
    expect(() => gifPictureBytes(5_000, 'x', { width: 70_000, height: 10 })).toThrow(SynthSizeError);
    expect(() => minGifPictureSize({ width: 10, height: 4_001 })).toThrow(/1..4000/);
    expect(minGifPictureSize({ width: 64, height: 40 })).toBeGreaterThan(40);
    expect(() => gifPictureBytes(5_000, 'x', { width: 3.5, height: 10 })).toThrow(SynthSizeError);
  });

  test('the LZW stream round-trips through table resets (more than 4,096 codes)', () => {
    // A picture that does not compress: its codes fill the 12-bit table and clear it again.
    let x = 7;
    const noise = Uint8Array.from({ length: 60_000 }, () => ((x = (x * 1_103_515_245 + 12_345) >>> 0), (x >>> 16) & 3));
    expect(lzwDecode(lzwEncode(noise, 2), 2)).toEqual([...noise]);
    expect(lzwDecode(lzwEncode(new Uint8Array(0), 2), 2)).toEqual([]);
  });

  test('without a picture size the 1×1 GIF is unchanged', () => {
    const b = gifBytes(2_544, 'seed');
    const g = parseGif(b);
    expect(g.screen).toEqual([1, 1]);
    expect(g.indices).toEqual([0]);
  });
});

describeE2e('gifPictureBytes in a real decoder (Chromium)', () => {
  test('Chromium decodes each picture at its declared size with its two colours in their bands', async () => {
    const browser = await puppeteer.launch({ executablePath: requireBrowser('chromium'), headless: true, args: [...CHROMIUM_QUIET_FLAGS], timeout: 20_000, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    try {
      const page = await browser.newPage();
      for (const [size, width, height] of [[4_800, 320, 200], [58_000, 800, 450], [16_000, 640, 640]] as const) {
        const b = gifPictureBytes(size, `c${size}`, { width, height });
        const colours = parseGif(b).colours;
        // The page's own decoder and canvas; a string, as the tests' TypeScript has no DOM types.
        const seen = (await page.evaluate(`(async () => {
          const img = new Image();
          img.src = ${JSON.stringify(`data:image/gif;base64,${b.toString('base64')}`)};
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.naturalWidth;
          c.height = img.naturalHeight;
          const ctx = c.getContext('2d');
          ctx.drawImage(img, 0, 0);
          const px = (x, y) => [...ctx.getImageData(x, y, 1, 1).data].slice(0, 3);
          const h = img.naturalHeight;
          return { w: img.naturalWidth, h, band0: px(0, 0), band1: px(img.naturalWidth - 1, Math.floor((h * 1.5) / 8)), band7: px(0, h - 1) };
        })()`)) as { w: number; h: number; band0: number[]; band1: number[]; band7: number[] };
        expect(seen).toEqual({ w: width, h: height, band0: colours.slice(0, 3), band1: colours.slice(3, 6), band7: colours.slice(3, 6) });
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});
