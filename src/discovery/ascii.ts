/** Character tests shared by the hand-written tokenizers (HTML's and CSS's definitions). */

/** HTML "ASCII whitespace": TAB, LF, FF, CR, SPACE. */
export function isAsciiWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

export function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

export function isHexDigit(code: number): boolean {
  return isAsciiDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** Splits on ASCII whitespace and lower-cases, e.g. a `rel` attribute into its keywords. */
export function asciiTokens(value: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= value.length; i++) {
    const boundary = i === value.length || isAsciiWhitespace(value.charCodeAt(i));
    if (boundary) {
      if (start >= 0) out.push(value.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    }
  }
  return out;
}

/** Lower-cases and trims ASCII whitespace, the normal form of enumerated HTML attributes. */
export function normalizeKeyword(value: string | undefined): string {
  if (value === undefined) return '';
  let start = 0;
  let end = value.length;
  while (start < end && isAsciiWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end).toLowerCase();
}

/** Every code unit is ASCII (so lower-casing keeps the length). */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
