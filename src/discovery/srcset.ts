import { isAsciiDigit, isAsciiWhitespace } from './ascii';

/** One image candidate of a `srcset` / `imagesrcset` attribute. The URL is as written (relative). */
export interface SrcsetCandidate {
  url: string;
  /** `Nw` descriptor. */
  width?: number;
  /** `Nx` descriptor. */
  density?: number;
  /** `Nh` descriptor (future-compat; only valid together with `w`). */
  height?: number;
}

const COMMA = 0x2c;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;

/**
 * Parses a srcset attribute with the HTML Standard's algorithm ("parse a srcset attribute"), so
 * the candidate list matches what a browser sees:
 *
 * - a URL runs to the next whitespace, so it may contain commas (`a,b.png 1x` is one URL `a,b.png`);
 *   trailing commas end a URL without descriptors (`a.png, b.png`);
 * - descriptors run to the next comma outside parentheses;
 * - a candidate with an invalid or conflicting descriptor set (`1q`, `1x 2x`, `100w 2x`, `0w`,
 *   `h` without `w`) is dropped, as browsers drop it.
 *
 * Never throws; garbage yields fewer candidates.
 */
export function parseSrcset(input: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let pos = 0;
  const n = input.length;
  while (true) {
    // Splitting loop: skip whitespace and stray commas between candidates.
    while (pos < n && (isAsciiWhitespace(input.charCodeAt(pos)) || input.charCodeAt(pos) === COMMA)) pos++;
    if (pos >= n) return candidates;

    const urlStart = pos;
    while (pos < n && !isAsciiWhitespace(input.charCodeAt(pos))) pos++;
    let url = input.slice(urlStart, pos);

    let descriptors: string[] = [];
    if (url.charCodeAt(url.length - 1) === COMMA) {
      // `a.png,` — the comma ends the candidate; it has no descriptors.
      let end = url.length;
      while (end > 0 && url.charCodeAt(end - 1) === COMMA) end--;
      url = url.slice(0, end);
    } else {
      const tokenized = tokenizeDescriptors(input, pos);
      descriptors = tokenized.descriptors;
      pos = tokenized.next;
    }

    const candidate = parseDescriptors(url, descriptors);
    if (candidate) candidates.push(candidate);
  }
}

/** The descriptor tokenizer: from `start` up to and including the comma that ends the candidate. */
function tokenizeDescriptors(input: string, start: number): { descriptors: string[]; next: number } {
  const descriptors: string[] = [];
  const n = input.length;
  let pos = start;
  while (pos < n && isAsciiWhitespace(input.charCodeAt(pos))) pos++;
  let current = '';
  let state: 'in-descriptor' | 'in-parens' | 'after-descriptor' = 'in-descriptor';
  while (true) {
    const c = pos < n ? input.charCodeAt(pos) : -1;
    if (state === 'in-descriptor') {
      if (c !== -1 && isAsciiWhitespace(c)) {
        if (current !== '') {
          descriptors.push(current);
          current = '';
          state = 'after-descriptor';
        }
      } else if (c === COMMA) {
        if (current !== '') descriptors.push(current);
        return { descriptors, next: pos + 1 };
      } else if (c === OPEN_PAREN) {
        current += '(';
        state = 'in-parens';
      } else if (c === -1) {
        if (current !== '') descriptors.push(current);
        return { descriptors, next: pos };
      } else {
        current += input[pos];
      }
    } else if (state === 'in-parens') {
      if (c === CLOSE_PAREN) {
        current += ')';
        state = 'in-descriptor';
      } else if (c === -1) {
        descriptors.push(current);
        return { descriptors, next: pos };
      } else {
        current += input[pos];
      }
    } else {
      // after-descriptor
      if (c === -1) return { descriptors, next: pos };
      if (!isAsciiWhitespace(c)) {
        state = 'in-descriptor';
        continue; // reconsume this character in the new state
      }
    }
    pos++;
  }
}

/** The descriptor parser: `undefined` when the browser would drop the candidate. */
function parseDescriptors(url: string, descriptors: readonly string[]): SrcsetCandidate | undefined {
  let width: number | undefined;
  let density: number | undefined;
  let height: number | undefined;
  for (const descriptor of descriptors) {
    const suffix = descriptor[descriptor.length - 1];
    const value = descriptor.slice(0, -1);
    if (suffix === 'w') {
      if (width !== undefined || density !== undefined) return undefined;
      const parsed = parsePositiveInteger(value);
      if (parsed === undefined) return undefined;
      width = parsed;
    } else if (suffix === 'x') {
      if (width !== undefined || density !== undefined || height !== undefined) return undefined;
      const parsed = parseFloatingPoint(value);
      if (parsed === undefined || parsed < 0) return undefined;
      density = parsed;
    } else if (suffix === 'h') {
      if (height !== undefined || density !== undefined) return undefined;
      const parsed = parsePositiveInteger(value);
      if (parsed === undefined) return undefined;
      height = parsed;
    } else {
      return undefined;
    }
  }
  if (height !== undefined && width === undefined) return undefined;
  const candidate: SrcsetCandidate = { url };
  if (width !== undefined) candidate.width = width;
  if (density !== undefined) candidate.density = density;
  if (height !== undefined) candidate.height = height;
  return candidate;
}

/** A "valid non-negative integer" (ASCII digits only) that is greater than zero. */
function parsePositiveInteger(text: string): number | undefined {
  if (text === '') return undefined;
  for (let i = 0; i < text.length; i++) if (!isAsciiDigit(text.charCodeAt(i))) return undefined;
  const value = Number(text);
  return value > 0 ? value : undefined;
}

/**
 * A "valid floating-point number": `-`? then digits, `.digits`, or both, then an optional
 * exponent `e`/`E`, sign, digits. No leading `+`, no bare `1.`, no `Infinity`.
 */
function parseFloatingPoint(text: string): number | undefined {
  let i = 0;
  const n = text.length;
  const digitsFrom = (from: number): number => {
    let j = from;
    while (j < n && isAsciiDigit(text.charCodeAt(j))) j++;
    return j;
  };
  if (text[i] === '-') i++;
  const intEnd = digitsFrom(i);
  const hasInt = intEnd > i;
  i = intEnd;
  let hasFraction = false;
  if (text[i] === '.') {
    const fracEnd = digitsFrom(i + 1);
    if (fracEnd === i + 1) return undefined; // `1.` or `.`
    hasFraction = true;
    i = fracEnd;
  }
  if (!hasInt && !hasFraction) return undefined;
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '-' || text[i] === '+') i++;
    const expEnd = digitsFrom(i);
    if (expEnd === i) return undefined;
    i = expEnd;
  }
  if (i !== n) return undefined;
  return Number(text);
}
