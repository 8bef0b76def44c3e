import { evaluateLength } from './css-length';
import type { Viewport } from './viewport';

/**
 * What the media features say about the browser we stand in for: a desktop screen with a mouse,
 * light scheme, no reduced motion, scripting on. Features not listed here are unknown and make
 * their query false (Media Queries 4 §3.2: an unknown feature is "unknown", which a query treats
 * as false).
 */
const DISCRETE: ReadonlyMap<string, readonly string[]> = new Map([
  ['orientation', []], // computed from the viewport
  ['prefers-color-scheme', ['light']],
  ['prefers-reduced-motion', ['no-preference']],
  ['prefers-reduced-transparency', ['no-preference']],
  ['prefers-reduced-data', ['no-preference']],
  ['prefers-contrast', ['no-preference']],
  ['forced-colors', ['none']],
  ['inverted-colors', ['none']],
  ['hover', ['hover']],
  ['any-hover', ['hover']],
  ['pointer', ['fine']],
  ['any-pointer', ['fine']],
  ['scripting', ['enabled']],
  ['display-mode', ['browser']],
  ['update', ['fast']],
  ['overflow-block', ['scroll']],
  ['overflow-inline', ['scroll']],
  ['color-gamut', ['srgb']],
  ['dynamic-range', ['standard']],
  ['video-dynamic-range', ['standard']],
  ['scan', ['progressive']],
]);

/** Numeric features and their value for `viewport`; resolution features are in dppx. */
function numericFeature(name: string, viewport: Viewport): number | undefined {
  switch (name) {
    case 'width':
    case 'device-width':
      return viewport.width;
    case 'height':
    case 'device-height':
      return viewport.height;
    case 'aspect-ratio':
    case 'device-aspect-ratio':
      return viewport.width / viewport.height;
    case 'resolution':
    case '-webkit-device-pixel-ratio':
    case 'device-pixel-ratio':
      return viewport.dpr;
    case 'color':
      return 8;
    case 'color-index':
    case 'monochrome':
    case 'grid':
      return 0;
    default:
      return undefined;
  }
}

/**
 * Whether a media query list matches `viewport` on a screen (Media Queries 4): comma-separated
 * queries, any of which may match; each is `[not|only] type [and (…)]*` or a condition with
 * `and` / `or` / `not` and parentheses. An absent or blank list is `all`. Supported features:
 * width/height (also `min-`/`max-` and range syntax `(400px <= width < 800px)`), aspect-ratio,
 * orientation, resolution (`dppx`, `x`, `dpi`, `dpcm`, and `-webkit-…-device-pixel-ratio`), and
 * the preference features in `DISCRETE`. A query this parser cannot read is false, as an invalid
 * query is `not all`.
 */
export function matchesMedia(list: string | undefined, viewport: Viewport): boolean {
  if (list === undefined || list.trim() === '') return true;
  return splitTopLevel(list.toLowerCase(), ',').some((q) => matchesQuery(q.trim(), viewport));
}

function matchesQuery(query: string, viewport: Viewport): boolean {
  if (query === '') return false; // `a, , b`: the empty query is `not all`
  const m = /^(?:(not|only)\s+)?([a-z-]+)(?:\s+and\s+([\s\S]*))?$/.exec(query);
  if (m && m[2] !== 'not' && m[2] !== 'only') {
    const type = m[2] as string;
    const typeOk = type === 'all' || type === 'screen';
    const conditionOk = m[3] === undefined ? true : evaluateCondition(m[3], viewport);
    if (conditionOk === undefined) return false;
    const result = typeOk && conditionOk;
    return m[1] === 'not' ? !result : result;
  }
  return evaluateCondition(query, viewport) ?? false;
}

/** A `<media-condition>`; `undefined` when it cannot be parsed. */
function evaluateCondition(text: string, viewport: Viewport): boolean | undefined {
  const s = text.trim();
  if (s.startsWith('not ') || s.startsWith('not(')) {
    const inner = evaluateCondition(s.slice(3), viewport);
    return inner === undefined ? undefined : !inner;
  }
  const parts: string[] = [];
  const ops: string[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i] as string)) i++;
    if (s[i] !== '(') return undefined;
    const end = matchingParen(s, i);
    if (end < 0) return undefined;
    parts.push(s.slice(i + 1, end));
    i = end + 1;
    const op = /^\s*(and|or)\s*/.exec(s.slice(i));
    if (op) {
      ops.push(op[1] as string);
      i += op[0].length;
    } else if (s.slice(i).trim() !== '') {
      return undefined;
    }
  }
  if (parts.length === 0 || ops.length !== parts.length - 1 || new Set(ops).size > 1) return undefined;
  const values = parts.map((p) => (/^\s*(not\b|\()/.test(p) ? evaluateCondition(p, viewport) : evaluateFeature(p.trim(), viewport)));
  if (values.some((v) => v === undefined)) return undefined;
  return ops[0] === 'or' ? values.some(Boolean) : values.every(Boolean);
}

/** One `(feature)`, `(feature: value)` or range `(value op feature op value)`. */
function evaluateFeature(text: string, viewport: Viewport): boolean | undefined {
  const colon = text.indexOf(':');
  if (colon >= 0) {
    const name = text.slice(0, colon).trim();
    const value = text.slice(colon + 1).trim();
    const prefix = /^(min-|max-|-webkit-min-|-webkit-max-)/.exec(name)?.[1];
    const base = prefix ? `${prefix.startsWith('-webkit') ? '-webkit-' : ''}${name.slice(prefix.length)}` : name;
    const discrete = DISCRETE.get(base);
    if (discrete !== undefined && !prefix) {
      if (base === 'orientation') return value === (viewport.height >= viewport.width ? 'portrait' : 'landscape');
      return discrete.includes(value);
    }
    const actual = numericFeature(base, viewport);
    const wanted = featureValue(base, value, viewport);
    if (actual === undefined || wanted === undefined) return undefined;
    if (prefix?.includes('min')) return actual >= wanted;
    if (prefix?.includes('max')) return actual <= wanted;
    return Math.abs(actual - wanted) < 1e-9;
  }
  const range = /^(.+?)\s*(<=|>=|<|>|=)\s*([a-z-]+)\s*(?:(<=|>=|<|>|=)\s*(.+))?$|^([a-z-]+)\s*(<=|>=|<|>|=)\s*(.+)$/.exec(text);
  if (range) {
    if (range[6] !== undefined) {
      const actual = numericFeature(range[6], viewport);
      const v = featureValue(range[6], range[8] as string, viewport);
      return actual === undefined || v === undefined ? undefined : compare(actual, range[7] as string, v);
    }
    const name = range[3] as string;
    const actual = numericFeature(name, viewport);
    const left = featureValue(name, range[1] as string, viewport);
    if (actual === undefined || left === undefined) return undefined;
    if (!compare(left, range[2] as string, actual)) return false;
    if (range[4] === undefined) return true;
    const right = featureValue(name, range[5] as string, viewport);
    return right === undefined ? undefined : compare(actual, range[4], right);
  }
  // `(feature)`: true when the feature's value is not zero / none.
  if (DISCRETE.has(text)) return text !== 'forced-colors' && text !== 'inverted-colors' && text !== 'prefers-reduced-motion' && text !== 'prefers-contrast';
  const n = numericFeature(text, viewport);
  return n === undefined ? undefined : n !== 0;
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b + 1e-9;
    case '>':
      return a > b;
    case '>=':
      return a + 1e-9 >= b;
    default:
      return Math.abs(a - b) < 1e-9;
  }
}

/** A feature's value in the unit `numericFeature` uses (px, dppx or a ratio). */
function featureValue(name: string, raw: string, viewport: Viewport): number | undefined {
  const value = raw.trim();
  if (name.includes('aspect-ratio')) {
    const m = /^(\d+(?:\.\d+)?)\s*(?:\/\s*(\d+(?:\.\d+)?))?$/.exec(value);
    return m ? Number(m[1]) / Number(m[2] ?? 1) : undefined;
  }
  if (name.includes('pixel-ratio')) return /^\d*\.?\d+$/.test(value) ? Number(value) : undefined;
  if (name === 'resolution') {
    const m = /^(\d*\.?\d+)(dppx|x|dpi|dpcm)$/.exec(value);
    if (!m) return undefined;
    const n = Number(m[1]);
    return m[2] === 'dpi' ? n / 96 : m[2] === 'dpcm' ? (n * 2.54) / 96 : n;
  }
  if (name === 'color' || name === 'color-index' || name === 'monochrome' || name === 'grid') return /^\d+$/.test(value) ? Number(value) : undefined;
  // Lengths in media queries: `em` is the initial font size (16px), never the page's.
  const px = evaluateLength(value, viewport);
  if (px !== undefined && px !== 0 && /^[\d.]+$/.test(value)) return undefined; // a bare number is not a length
  return px;
}

/** Index of the `)` closing the `(` at `open`, or -1. */
function matchingParen(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Splits on `sep` outside parentheses. */
export function splitTopLevel(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === sep && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}
