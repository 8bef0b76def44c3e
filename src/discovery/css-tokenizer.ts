import { isAsciiDigit, isHexDigit } from './ascii';

/**
 * A CSS token, after CSS Syntax Level 3 §4 ("Tokenization"), reduced to what URL discovery needs.
 * `start`/`end` are UTF-16 indexes into the tokenized text (`end` exclusive). Escapes are decoded
 * in `value`.
 */
export type CssToken =
  /** Whitespace and comments (a comment separates tokens exactly like whitespace here). */
  | { type: 'whitespace'; start: number; end: number }
  /** `function`'s value is the name without the `(`; `hash`'s is the name without the `#`. */
  | { type: 'ident' | 'function' | 'at-keyword' | 'hash'; value: string; start: number; end: number }
  /** `bad` when an unescaped newline ended the string. */
  | { type: 'string'; value: string; bad: boolean; start: number; end: number }
  /** An unquoted `url(...)`; `bad` when it held a quote, paren, whitespace or control character. */
  | { type: 'url'; value: string; bad: boolean; start: number; end: number }
  /** A number, percentage or dimension (`12`, `50%`, `1.5em`). */
  | { type: 'number'; start: number; end: number }
  /** `<!--` and `-->`, tolerated in style sheets for ancient pages. */
  | { type: 'cdo' | 'cdc'; start: number; end: number }
  /** Any other single code point, including `{ } ( ) [ ] ; : ,`. */
  | { type: 'delim'; value: string; start: number; end: number };

const EOF = -1;
const REPLACEMENT = '\uFFFD';

function isNewline(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x0c;
}

function isCssWhitespace(c: number): boolean {
  return isNewline(c) || c === 0x20 || c === 0x09;
}

function isIdentStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0x80;
}

function isIdentChar(c: number): boolean {
  return isIdentStart(c) || isAsciiDigit(c) || c === 0x2d;
}

/** Characters that make an unquoted `url(` bad (CSS "non-printable code point"). */
function isNonPrintable(c: number): boolean {
  return (c >= 0 && c <= 0x08) || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === 0x7f;
}

/**
 * A pull tokenizer over one CSS text. The input is not preprocessed (CRLF, NUL are left as they
 * are) so that token positions stay true indexes into the caller's string; the few places where
 * preprocessing matters (a CRLF after an escape) are handled inline.
 */
export class CssTokenizer {
  private pos = 0;

  constructor(private readonly css: string) {}

  /** Where the next token starts. */
  get position(): number {
    return this.pos;
  }

  /** Goes on from `pos`, whatever lies between (a caller that knows that text is not wanted). */
  skipTo(pos: number): void {
    this.pos = Math.max(this.pos, Math.min(pos, this.css.length));
  }

  /** The next token, or `undefined` at the end of the input. */
  next(): CssToken | undefined {
    const start = this.pos;
    const c = this.at(0);
    if (c === EOF) return undefined;
    if (isCssWhitespace(c) || (c === 0x2f && this.at(1) === 0x2a)) return this.whitespace(start);
    if (c === 0x22 || c === 0x27) return this.string(start, c);
    if (c === 0x23) {
      if (isIdentChar(this.at(1)) || this.isValidEscape(1)) {
        this.pos++;
        return { type: 'hash', value: this.name(), start, end: this.pos };
      }
      return this.delim(start);
    }
    if (c === 0x2b || c === 0x2e) return this.startsNumber(0) ? this.number(start) : this.delim(start);
    if (c === 0x2d) {
      if (this.startsNumber(0)) return this.number(start);
      if (this.at(1) === 0x2d && this.at(2) === 0x3e) {
        this.pos += 3;
        return { type: 'cdc', start, end: this.pos };
      }
      return this.startsIdent(0) ? this.identLike(start) : this.delim(start);
    }
    if (c === 0x3c && this.css.startsWith('<!--', this.pos)) {
      this.pos += 4;
      return { type: 'cdo', start, end: this.pos };
    }
    if (c === 0x40) {
      if (this.startsIdent(1)) {
        this.pos++;
        return { type: 'at-keyword', value: this.name(), start, end: this.pos };
      }
      return this.delim(start);
    }
    if (c === 0x5c) return this.isValidEscape(0) ? this.identLike(start) : this.delim(start);
    if (isAsciiDigit(c)) return this.number(start);
    if (isIdentStart(c)) return this.identLike(start);
    return this.delim(start);
  }

  /** Code unit at `pos + ahead`, or EOF. */
  private at(ahead: number): number {
    const i = this.pos + ahead;
    return i < this.css.length ? this.css.charCodeAt(i) : EOF;
  }

  private delim(start: number): CssToken {
    this.pos++;
    return { type: 'delim', value: this.css.slice(start, this.pos), start, end: this.pos };
  }

  private whitespace(start: number): CssToken {
    while (true) {
      const c = this.at(0);
      if (isCssWhitespace(c)) {
        this.pos++;
      } else if (c === 0x2f && this.at(1) === 0x2a) {
        const close = this.css.indexOf('*/', this.pos + 2);
        this.pos = close < 0 ? this.css.length : close + 2; // an unclosed comment runs to EOF
      } else {
        return { type: 'whitespace', start, end: this.pos };
      }
    }
  }

  /** §4.3.8: a backslash not followed by a newline starts an escape. */
  private isValidEscape(ahead: number): boolean {
    return this.at(ahead) === 0x5c && !isNewline(this.at(ahead + 1));
  }

  /** §4.3.9, for the code points at `pos + ahead`. */
  private startsIdent(ahead: number): boolean {
    const c = this.at(ahead);
    if (c === 0x2d) {
      const d = this.at(ahead + 1);
      return isIdentStart(d) || d === 0x2d || this.isValidEscape(ahead + 1);
    }
    if (isIdentStart(c)) return true;
    return this.isValidEscape(ahead);
  }

  /** §4.3.10. */
  private startsNumber(ahead: number): boolean {
    const c = this.at(ahead);
    if (c === 0x2b || c === 0x2d) {
      const d = this.at(ahead + 1);
      return isAsciiDigit(d) || (d === 0x2e && isAsciiDigit(this.at(ahead + 2)));
    }
    if (c === 0x2e) return isAsciiDigit(this.at(ahead + 1));
    return isAsciiDigit(c);
  }

  /** §4.3.7, positioned just after the backslash. */
  private escapedCodePoint(): string {
    const c = this.at(0);
    if (c === EOF) return REPLACEMENT;
    if (isHexDigit(c)) {
      const hexStart = this.pos;
      while (this.pos - hexStart < 6 && isHexDigit(this.at(0))) this.pos++;
      const value = parseInt(this.css.slice(hexStart, this.pos), 16);
      // One whitespace after a hex escape belongs to the escape (CRLF counts as one).
      if (this.at(0) === 0x0d && this.at(1) === 0x0a) this.pos += 2;
      else if (isCssWhitespace(this.at(0))) this.pos++;
      if (value === 0 || (value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return REPLACEMENT;
      return String.fromCodePoint(value);
    }
    const cp = this.css.codePointAt(this.pos) ?? c;
    const ch = String.fromCodePoint(cp);
    this.pos += ch.length;
    return ch;
  }

  /** §4.3.12: an ident sequence, escapes decoded. */
  private name(): string {
    let out = '';
    while (true) {
      const c = this.at(0);
      if (isIdentChar(c)) {
        out += this.css.charAt(this.pos);
        this.pos++;
      } else if (this.isValidEscape(0)) {
        this.pos++;
        out += this.escapedCodePoint();
      } else {
        return out;
      }
    }
  }

  /** §4.3.3 (numbers, percentages and dimensions are one token type here). */
  private number(start: number): CssToken {
    if (this.at(0) === 0x2b || this.at(0) === 0x2d) this.pos++;
    while (isAsciiDigit(this.at(0))) this.pos++;
    if (this.at(0) === 0x2e && isAsciiDigit(this.at(1))) {
      this.pos++;
      while (isAsciiDigit(this.at(0))) this.pos++;
    }
    const e = this.at(0);
    if (e === 0x45 || e === 0x65) {
      const s = this.at(1);
      const signed = s === 0x2b || s === 0x2d;
      if (isAsciiDigit(this.at(signed ? 2 : 1))) {
        this.pos += signed ? 2 : 1;
        while (isAsciiDigit(this.at(0))) this.pos++;
      }
    }
    // A unit is part of the token, so `12url(` is a dimension and never a `url(`.
    if (this.startsIdent(0)) this.name();
    else if (this.at(0) === 0x25) this.pos++;
    return { type: 'number', start, end: this.pos };
  }

  /** §4.3.4: ident, function, or `url(` in either of its two forms. */
  private identLike(start: number): CssToken {
    const value = this.name();
    if (this.at(0) !== 0x28) return { type: 'ident', value, start, end: this.pos };
    this.pos++; // the `(`
    if (value.toLowerCase() === 'url') {
      let ahead = 0;
      while (isCssWhitespace(this.at(ahead))) ahead++;
      const q = this.at(ahead);
      // `url("…")` is a function token followed by a string token; `url(…)` is one url token.
      if (q !== 0x22 && q !== 0x27) return this.url(start);
    }
    return { type: 'function', value, start, end: this.pos };
  }

  /** §4.3.5: the string token; positioned on the opening quote. */
  private string(start: number, quote: number): CssToken {
    this.pos++;
    let value = '';
    while (true) {
      const c = this.at(0);
      if (c === EOF) return { type: 'string', value, bad: false, start, end: this.pos };
      if (c === quote) {
        this.pos++;
        return { type: 'string', value, bad: false, start, end: this.pos };
      }
      if (isNewline(c)) return { type: 'string', value, bad: true, start, end: this.pos }; // newline not consumed
      if (c === 0x5c) {
        const next = this.at(1);
        if (next === EOF) {
          this.pos++;
        } else if (isNewline(next)) {
          // An escaped newline continues the string and adds nothing to it.
          this.pos += next === 0x0d && this.at(2) === 0x0a ? 3 : 2;
        } else {
          this.pos++;
          value += this.escapedCodePoint();
        }
        continue;
      }
      value += this.css.charAt(this.pos);
      this.pos++;
    }
  }

  /** §4.3.6: an unquoted url; positioned just after `url(`. */
  private url(start: number): CssToken {
    while (isCssWhitespace(this.at(0))) this.pos++;
    let value = '';
    while (true) {
      const c = this.at(0);
      if (c === 0x29) {
        this.pos++;
        return { type: 'url', value, bad: false, start, end: this.pos };
      }
      if (c === EOF) return { type: 'url', value, bad: false, start, end: this.pos };
      if (isCssWhitespace(c)) {
        while (isCssWhitespace(this.at(0))) this.pos++;
        const d = this.at(0);
        if (d === 0x29 || d === EOF) continue; // trailing whitespace before `)` is allowed
        return this.badUrl(start, value);
      }
      if (c === 0x22 || c === 0x27 || c === 0x28 || isNonPrintable(c)) return this.badUrl(start, value);
      if (c === 0x5c) {
        if (!this.isValidEscape(0)) return this.badUrl(start, value);
        this.pos++;
        value += this.escapedCodePoint();
        continue;
      }
      value += this.css.charAt(this.pos);
      this.pos++;
    }
  }

  /** §4.3.14: skip the rest of a bad url so a `)` inside it does not close anything else. */
  private badUrl(start: number, value: string): CssToken {
    while (true) {
      const c = this.at(0);
      if (c === EOF) break;
      if (c === 0x29) {
        this.pos++;
        break;
      }
      if (this.isValidEscape(0)) {
        this.pos++;
        this.escapedCodePoint();
      } else {
        this.pos++;
      }
    }
    return { type: 'url', value, bad: true, start, end: this.pos };
  }
}
