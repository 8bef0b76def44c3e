import { CssTokenizer, type CssToken } from './css-tokenizer';
import { DiscoveryError } from './errors';
import { isAbsoluteUrl, resolveHttpUrl } from './resolve-url';

/** A URL referenced by CSS text. */
export interface CssUrlReference {
  /** Absolute http(s) URL, fragment removed. */
  url: string;
  /** `import` for an `@import` rule's sheet, `url` for everything else. */
  kind: 'import' | 'url';
  /** UTF-16 index into the CSS text of the `@import`, `url(` or (in `image-set()`) string token. */
  offset: number;
  /** The reference sits inside an `@font-face` block: it is a font. */
  inFontFace: boolean;
  /** For an `@import` with a media query list (`@import "p.css" print`), that list, normalized. */
  media?: string;
}

/** Functions whose bare string arguments are image URLs (`image-set("a.png" 1x)`). */
const IMAGE_SET_FUNCTIONS: ReadonlySet<string> = new Set(['image-set', '-webkit-image-set']);
/** Functions that take their URL as a string (`url("a.png")`, `src("a.png")`). */
const URL_FUNCTIONS: ReadonlySet<string> = new Set(['url', 'src']);
/** Top-level at-rules that may precede `@import`; any other rule ends the import prelude. */
const BEFORE_IMPORT_AT_RULES: ReadonlySet<string> = new Set(['charset', 'import', 'layer']);
/** At-rules whose URLs are names, not resources (`@namespace svg url(http://www.w3.org/2000/svg)`), or ignored `@import`s. */
const NON_FETCHING_AT_RULES: ReadonlySet<string> = new Set(['namespace', 'import']);

type ImportState =
  /** Just after `@import`: the next significant token must be the URL. */
  | { phase: 'url'; offset: number }
  /** After `@import url(`: the next significant token must be the string. */
  | { phase: 'url-string'; offset: number }
  /** URL known; collecting the media list up to `;`. `skipDepth` > 0 inside `url(`/`layer(`/`supports(`. */
  | { phase: 'media'; offset: number; url: string | undefined; media: string[]; skipDepth: number };

/**
 * Finds the URLs a style sheet, a `<style>` element's text or a `style=""` attribute refers to:
 * `url(…)` in both forms (quoted and unquoted, escapes decoded), `src("…")`, bare strings inside
 * `image-set()`, and `@import` (string or url form). Comments, strings and escapes are handled by a
 * real CSS tokenizer, so `/* url(x) *\/` and `content: "url(x)"` are not references.
 *
 * `@import` only counts where CSS honours it: at the top level, before any rule other than
 * `@charset` and `@layer` statements. Fragment-only references (`url(#clip)`) point into the
 * document itself and are skipped, as are non-http(s) URLs (`data:`…). Duplicates are all
 * returned; de-duplication is the caller's job.
 *
 * @param css     the CSS text
 * @param baseUrl absolute URL relative references resolve against (the sheet's own URL for an
 *                external sheet, the document base URL for inline CSS)
 * @throws DiscoveryError `E_INVALID_BASE_URL` when `baseUrl` is not absolute
 */
export function extractCssUrls(css: string, baseUrl: string): CssUrlReference[] {
  if (!isAbsoluteUrl(baseUrl)) throw new DiscoveryError('E_INVALID_BASE_URL', `not an absolute URL: ${baseUrl}`);
  const found: CssUrlReference[] = [];
  const tokenizer = new CssTokenizer(css);

  const blocks: Array<'font-face' | 'other'> = [];
  /** Lower-cased names of the open functions (`''` for a plain `(` or `[`), innermost last. */
  let parens: string[] = [];
  /** The current statement's first significant token: an at-rule name, `rule`, or none yet. */
  let statement: string | undefined;
  let importsAllowed = true;
  let importState: ImportState | undefined;
  /** Set after a `url(`/`src(` function token: the string that follows is its URL. */
  let urlFunctionOffset: number | undefined;

  const add = (raw: string, kind: CssUrlReference['kind'], offset: number, media?: string): void => {
    if (raw.trim().startsWith('#')) return;
    const url = resolveHttpUrl(raw, baseUrl);
    if (url === undefined) return;
    const ref: CssUrlReference = { url, kind, offset, inFontFace: blocks.includes('font-face') };
    if (media !== undefined && media !== '') ref.media = media;
    found.push(ref);
  };

  const finishImport = (): void => {
    if (importState?.phase === 'media' && importState.url !== undefined) {
      add(importState.url, 'import', importState.offset, importState.media.join('').replace(/\s+/g, ' ').trim());
    }
    importState = undefined;
  };

  /** Feeds one token to the `@import` parser; true when it consumed the token. */
  const feedImport = (token: CssToken): boolean => {
    const state = importState;
    if (state === undefined) return false;
    if (token.type === 'whitespace' || token.type === 'cdo' || token.type === 'cdc') {
      if (state.phase === 'media' && state.skipDepth === 0) state.media.push(' ');
      return true;
    }
    if (state.phase === 'url') {
      if (token.type === 'string' && !token.bad) importState = { phase: 'media', offset: state.offset, url: token.value, media: [], skipDepth: 0 };
      else if (token.type === 'url' && !token.bad) importState = { phase: 'media', offset: state.offset, url: token.value, media: [], skipDepth: 0 };
      else if (token.type === 'function' && token.value.toLowerCase() === 'url') importState = { phase: 'url-string', offset: state.offset };
      else importState = undefined; // not a valid @import; let the token be handled normally
      return importState !== undefined;
    }
    if (state.phase === 'url-string') {
      // The closing `)` of `url(` is skipped as part of the media phase (skipDepth 1).
      importState = token.type === 'string' && !token.bad
        ? { phase: 'media', offset: state.offset, url: token.value, media: [], skipDepth: 1 }
        : undefined;
      return importState !== undefined;
    }
    // media phase
    if (token.type === 'delim' && token.value === ';' && state.skipDepth === 0) {
      finishImport();
      return false; // the `;` also ends the statement
    }
    if (token.type === 'delim' && (token.value === '{' || token.value === '}')) {
      importState = undefined; // `@import … {` is invalid
      return false;
    }
    if (state.skipDepth > 0) {
      if (token.type === 'function' || (token.type === 'delim' && (token.value === '(' || token.value === '['))) state.skipDepth++;
      else if (token.type === 'delim' && (token.value === ')' || token.value === ']')) state.skipDepth--;
      return true;
    }
    if (token.type === 'function' && (token.value.toLowerCase() === 'layer' || token.value.toLowerCase() === 'supports')) {
      state.skipDepth = 1;
      return true;
    }
    if (token.type === 'ident' && token.value.toLowerCase() === 'layer') return true;
    state.media.push(css.slice(token.start, token.end).toLowerCase());
    return true;
  };

  for (let token = tokenizer.next(); token !== undefined; token = tokenizer.next()) {
    if (feedImport(token)) continue;

    const significant = token.type !== 'whitespace' && token.type !== 'cdo' && token.type !== 'cdc';
    if (urlFunctionOffset !== undefined && significant) {
      if (token.type === 'string' && !token.bad) add(token.value, 'url', urlFunctionOffset);
      urlFunctionOffset = undefined;
    }
    if (!significant) continue;

    if (statement === undefined && !(token.type === 'delim' && (token.value === ';' || token.value === '}'))) {
      statement = token.type === 'at-keyword' ? token.value.toLowerCase() : 'rule';
      if (blocks.length === 0 && !BEFORE_IMPORT_AT_RULES.has(statement)) importsAllowed = false;
      if (statement === 'import' && blocks.length === 0 && importsAllowed) {
        importState = { phase: 'url', offset: token.start };
        continue;
      }
    }

    switch (token.type) {
      case 'url':
        if (!token.bad && !(statement !== undefined && NON_FETCHING_AT_RULES.has(statement))) add(token.value, 'url', token.start);
        break;
      case 'function': {
        const name = token.value.toLowerCase();
        parens.push(name);
        if (URL_FUNCTIONS.has(name) && !(statement !== undefined && NON_FETCHING_AT_RULES.has(statement))) urlFunctionOffset = token.start;
        break;
      }
      case 'string': {
        const inner = parens[parens.length - 1];
        if (!token.bad && inner !== undefined && IMAGE_SET_FUNCTIONS.has(inner)) add(token.value, 'url', token.start);
        break;
      }
      case 'delim':
        if (token.value === '(' || token.value === '[') {
          parens.push('');
        } else if (token.value === ')' || token.value === ']') {
          parens.pop();
        } else if (token.value === '{') {
          if (blocks.length === 0 && statement === 'layer') importsAllowed = false; // `@layer x { … }` is a rule
          blocks.push(statement === 'font-face' ? 'font-face' : 'other');
          statement = undefined;
          parens = []; // unbalanced parens in a prelude must not leak into the block
        } else if (token.value === '}') {
          blocks.pop();
          statement = undefined;
          parens = [];
        } else if (token.value === ';') {
          statement = undefined;
          parens = [];
        }
        break;
      default:
        break;
    }
  }
  finishImport();
  return found;
}
