import { CssTokenizer } from './css-tokenizer';

/** Statements allowed before `@import` (CSS Cascade 5 §2.1: `@charset` and `@layer` statements). */
const PRELUDE_AT_RULES = new Set(['charset', 'import', 'layer']);

/** One-character tokens that stay what they are whatever follows (unlike `@`, `/`, `-` or `\\`). */
const CLOSED_DELIMS = new Set([';', '{', '}', '(', ')', '[', ']', ',', ':']);

export interface ImportPrefix {
  /**
   * The sheet's text up to the end of its last complete top-level statement among its leading
   * `@charset` / `@import` / `@layer` statements: the `@import`s in it are final, whatever bytes
   * come later. `''` when none is complete yet.
   */
  prefix: string;
  /** No `@import` can follow: a rule, a block or any other statement has started. */
  done: boolean;
}

/**
 * Where a style sheet's `@import`s can be read before the rest of it arrives. CSS honours
 * `@import` only before every other rule, so they all sit in the first bytes; a statement counts
 * once its top-level `;` has arrived (a `;` inside a string, `url()` or parentheses does not end
 * it, and a token that reaches the end of the bytes so far may still grow). Pure; never throws.
 */
export function importPrefix(css: string): ImportPrefix {
  const tokenizer = new CssTokenizer(css);
  let end = 0;
  let inStatement = false;
  let depth = 0;
  for (let t = tokenizer.next(); t !== undefined; t = tokenizer.next()) {
    // A token that runs to the end of the bytes so far may go on in the next chunk (`@imp|ort`).
    if (t.end === css.length && t.type !== 'whitespace' && !(t.type === 'delim' && CLOSED_DELIMS.has(t.value))) break;
    if (!inStatement) {
      if (t.type === 'whitespace' || t.type === 'cdo' || t.type === 'cdc') continue;
      if (t.type === 'at-keyword' && PRELUDE_AT_RULES.has(t.value.toLowerCase())) {
        inStatement = true;
        depth = 0;
        continue;
      }
      if (t.type === 'delim' && t.value === ';') continue;
      return { prefix: css.slice(0, end), done: true };
    }
    if (t.type === 'function' || (t.type === 'delim' && (t.value === '(' || t.value === '['))) depth += 1;
    else if (t.type === 'delim' && (t.value === ')' || t.value === ']')) depth = Math.max(0, depth - 1);
    else if (t.type === 'delim' && t.value === '{' && depth === 0) return { prefix: css.slice(0, end), done: true };
    else if (t.type === 'delim' && t.value === ';' && depth === 0) {
      inStatement = false;
      end = t.end;
    }
  }
  return { prefix: css.slice(0, end), done: false };
}
