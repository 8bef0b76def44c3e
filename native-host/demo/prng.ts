/**
 * Seeded pseudo-random numbers for the demo corpus.
 *
 * Invariant: everything the corpus generates is a pure function of a seed string (a page name
 * or a resource path), so two builds — on any machine, in any order — produce identical bytes.
 * Never use `Math.random()` in the corpus.
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

/** A small deterministic generator (mulberry32). Period 2^32, ample for synthetic pages. */
export class Prng {
  private state: number;

  constructor(seed: number | string) {
    this.state = (typeof seed === 'string' ? hashSeed(seed) : seed) >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
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
