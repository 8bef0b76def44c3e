import { compile } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { findOne } from 'domutils';

/**
 * Selector matching on the scanner's DOM (htmlparser2's `domhandler` tree) with css-select, the
 * selector engine of the htmlparser2 family.
 *
 * The page is matched as it stands right after loading, with nobody interacting: user-action and
 * navigation states never match; states that need layout or scripting are taken as their
 * at-rest value.
 */
const AT_REST_PSEUDOS: Record<string, string | ((el: Element, value?: string | null) => boolean)> = {
  focus: () => false,
  'focus-within': () => false,
  'focus-visible': () => false,
  target: () => false,
  'target-within': () => false,
  autofill: () => false,
  '-webkit-autofill': () => false,
  fullscreen: () => false,
  '-webkit-full-screen': () => false,
  modal: () => false,
  'popover-open': () => false,
  'user-invalid': () => false,
  'user-valid': () => false,
  playing: () => false,
  paused: () => false,
  'picture-in-picture': () => false,
  'placeholder-shown': (el) => el.attribs['placeholder'] !== undefined && !el.attribs['value'],
  defined: () => true,
  dir: () => true,
  'any-link': (el) => (el.name === 'a' || el.name === 'area') && el.attribs['href'] !== undefined,
};

/** A compiled selector; `undefined` when css-select cannot read it (treated as matching nothing). */
export type CompiledSelector = ((el: AnyNode) => boolean) | undefined;

const cache = new Map<string, CompiledSelector>();
const MAX_CACHE = 20_000;

export function compileSelector(selector: string): CompiledSelector {
  let hit = cache.get(selector);
  if (hit !== undefined || cache.has(selector)) return hit;
  try {
    hit = compile<AnyNode, Element>(selector, { pseudos: AT_REST_PSEUDOS, xmlMode: false, quirksMode: false, cacheResults: false });
  } catch {
    hit = undefined;
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(selector, hit);
  return hit;
}

/** Whether any element of `root` matches any of `selectors`. */
export function anyMatch(selectors: readonly string[], root: Document): boolean {
  for (const s of selectors) {
    const test = compileSelector(s);
    if (test !== undefined && findOne((el) => test(el), root.children, true) !== null) return true;
  }
  return false;
}
