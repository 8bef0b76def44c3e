// Selector text as the style model needs it: nesting resolved, lists split, pseudo-elements
// removed, specificity. Approximations on the text; no selector is matched here (selector-match.ts).

/**
 * Selectors of a (possibly nested) rule as complete selectors: `&` stands for the parent list,
 * and a nested selector without `&` is a descendant of it (CSS Nesting 1).
 */
export function resolveNesting(selector: string, parents: string[] | undefined): string[] {
  const parts = splitSelectorList(selector);
  if (parents === undefined) return parts;
  const parent = parents.length === 1 ? (parents[0] as string) : `:is(${parents.join(', ')})`;
  return parts.map((p) => (p.includes('&') ? p.replace(/&/g, parent) : `${parent} ${p}`));
}

/** Splits a selector list on commas outside parentheses, brackets and strings. */
export function splitSelectorList(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(selector.slice(start).trim());
  return out.filter((s) => s !== '');
}

/**
 * The element part of a selector: pseudo-elements (`::before`, legacy `:after`, `::-webkit-…`)
 * style a box of their originating element, so they are removed. `undefined` when nothing is left.
 */
export function stripPseudoElements(selector: string): string | undefined {
  const s = selector
    .replace(/::?(before|after|first-line|first-letter)\b/gi, '')
    .replace(/::[a-z-]+(\([^)]*\))?/gi, '')
    .trim();
  if (s === '') return '*'; // `::selection { … }` styles every element
  return /[>+~]$/.test(s) ? undefined : s;
}

/**
 * Selectors Level 4 specificity, approximated on the text: ids; classes, attributes and
 * pseudo-classes; types and pseudo-elements. `:where()` counts nothing; `:is()`, `:not()`, `:has()`
 * count their arguments (as if the most specific one matched).
 */
export function specificity(selector: string): number {
  let s = selector.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""').replace(/:where\([^()]*(\([^()]*\)[^()]*)*\)/gi, '');
  s = s.replace(/:(is|not|has|matches|-webkit-any)\(/gi, ' (');
  const ids = (s.match(/#[\w-]+/g) ?? []).length;
  const classes = (s.match(/\.[\w-]+|\[[^\]]*\]|(?<!:):(?!:)[\w-]+/g) ?? []).length;
  const types = (s.replace(/\[[^\]]*\]/g, '').match(/(^|[\s>+~(,])[a-z][\w-]*|::[\w-]+/gi) ?? []).length;
  return ids * 1e6 + classes * 1e3 + types;
}
