import { isDelim } from './css-parser';
import type { CssToken } from './css-tokenizer';

// Token-list helpers for CSS values: top-level comma splitting and matching parentheses.

/** Splits a value's tokens on top-level commas; entries of only whitespace are dropped. */
export function splitCommas(tokens: readonly CssToken[]): CssToken[][] {
  const out: CssToken[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.type === 'function' || isDelim(t, '(') || isDelim(t, '[')) depth++;
    else if (isDelim(t, ')') || isDelim(t, ']')) depth--;
    if (depth === 0 && isDelim(t, ',')) out.push([]);
    else (out[out.length - 1] as CssToken[]).push(t);
  }
  return out.filter((e) => e.some((t) => t.type !== 'whitespace'));
}

/** Index of the `)` that closes the function or paren at `open`. */
export function closingIndex(tokens: readonly CssToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as CssToken;
    if (t.type === 'function' || isDelim(t, '(') || isDelim(t, '[')) depth++;
    else if ((isDelim(t, ')') || isDelim(t, ']')) && --depth === 0) return i;
  }
  return tokens.length;
}
