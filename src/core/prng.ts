/**
 * Seeded pseudo-random numbers: property tests reproduce a failure from its seed, the benches
 * resample with it, and the demo corpus is a pure function of its seed strings (a page name or a
 * resource path), so two builds, on any machine and in any order, produce identical bytes.
 */

/** FNV-1a over the UTF-16 code units of `text`: a stable 32-bit seed from a name. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32 (T. Ettinger): uniform 32-bit unsigned integers from a 32-bit seed, period 2^32. */
export function mulberry32Uint32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** mulberry32 as floats, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  const next = mulberry32Uint32(seed);
  return () => next() / 0x1_0000_0000;
}

/** A seeded generator with the helpers synthetic pages need, on mulberry32. */
export class Prng {
  /** Uniform 32-bit unsigned integer. */
  readonly nextUint32: () => number;

  constructor(seed: number | string) {
    this.nextUint32 = mulberry32Uint32(typeof seed === 'string' ? hashSeed(seed) : seed);
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new RangeError('Prng.pick: empty list');
    return item;
  }

  /** Fisher–Yates shuffle into a new array; the input is left untouched. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** Fills `target` with pseudo-random bytes and returns it. */
  fillBytes(target: Uint8Array): Uint8Array {
    let i = 0;
    for (; i + 4 <= target.length; i += 4) {
      const v = this.nextUint32();
      target[i] = v & 0xff;
      target[i + 1] = (v >>> 8) & 0xff;
      target[i + 2] = (v >>> 16) & 0xff;
      target[i + 3] = v >>> 24;
    }
    if (i < target.length) {
      let v = this.nextUint32();
      for (; i < target.length; i++, v >>>= 8) target[i] = v & 0xff;
    }
    return target;
  }
}
