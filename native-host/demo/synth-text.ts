/**
 * Deterministic text for the corpus: prose for documents and filler for stylesheets and
 * scripts, padded to an exact byte size. All output is ASCII, so characters == bytes.
 */
import { Prng } from '../../src/core/prng';
import { SynthSizeError } from './synth-bytes';

const WORDS = [
  'network', 'latency', 'bandwidth', 'connection', 'request', 'response', 'server', 'client',
  'pipeline', 'persistent', 'handshake', 'window', 'segment', 'packet', 'round', 'trip',
  'browser', 'document', 'image', 'style', 'script', 'cache', 'proxy', 'queue', 'transfer',
  'slow', 'start', 'congestion', 'link', 'page', 'load', 'render', 'parallel', 'stream',
  'header', 'body', 'origin', 'socket', 'delay', 'timer', 'the', 'a', 'of', 'and', 'to', 'in',
  'with', 'for', 'on', 'each', 'every', 'more', 'less', 'than', 'while', 'after', 'before',
  'community', 'newsletter', 'members', 'event', 'program', 'mentor', 'women', 'technology',
];

/** `count` words, the first capitalised, ending with a full stop. */
export function sentence(rng: Prng, count = rng.int(6, 16)): string {
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(rng.pick(WORDS));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** A paragraph of at least `minChars` characters. */
export function paragraph(rng: Prng, minChars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < minChars) {
    const s = sentence(rng);
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(' ');
}

/** A short title-case heading. */
export function heading(rng: Prng, count = rng.int(2, 6)): string {
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = rng.pick(WORDS);
    words.push(w.charAt(0).toUpperCase() + w.slice(1));
  }
  return words.join(' ');
}

/**
 * Pads `text` to exactly `size` bytes with a trailing `/* ... *\/` comment (valid in both CSS
 * and JavaScript). Falls back to spaces when fewer than 6 bytes remain.
 */
export function padWithComment(text: string, size: number, rng: Prng): string {
  const room = size - text.length;
  if (room < 0) throw new SynthSizeError(`content is ${text.length} bytes, over its ${size}-byte budget`);
  if (room < 6) return text + ' '.repeat(room);
  let filler = '';
  const fillerSize = room - 5; // "\n/*" + filler + "*/"
  while (filler.length < fillerSize) filler += rng.pick(WORDS) + ' ';
  return `${text}\n/*${filler.slice(0, fillerSize)}*/`;
}

/** CSS rules that look like a site's stylesheet, at most `budget` bytes. */
export function cssRules(rng: Prng, prefix: string, budget: number): string {
  const props = ['margin', 'padding', 'color', 'border', 'line-height', 'font-size', 'width'];
  const rules: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const decls: string[] = [];
    for (let d = rng.int(2, 5); d > 0; d--) {
      const prop = rng.pick(props);
      const value = prop === 'color' ? `#${rng.int(0, 0xfff).toString(16).padStart(3, '0')}` : `${rng.int(0, 40)}px`;
      decls.push(`${prop}:${value}`);
    }
    const rule = `.${prefix}-${rng.pick(WORDS)}-${i}{${decls.join(';')}}\n`;
    if (length + rule.length > budget) break;
    rules.push(rule);
    length += rule.length;
  }
  return rules.join('');
}

/** JavaScript function declarations, at most `budget` bytes. */
export function jsFunctions(rng: Prng, prefix: string, budget: number): string {
  const fns: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const fn = `function ${prefix}_${rng.pick(WORDS)}_${i}(a,b){return (a*${rng.int(2, 97)}+b)%${rng.int(101, 9973)};}\n`;
    if (length + fn.length > budget) break;
    fns.push(fn);
    length += fn.length;
  }
  return fns.join('');
}
