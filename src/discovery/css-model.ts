import { parseCss, tokensText, isDelim, type CssDeclaration, type CssRule } from './css-parser';
import type { CssToken } from './css-tokenizer';
import { isSupportedImageType } from './image-types';
import { resolveHttpUrl } from './resolve-url';
import { selectionIndex } from './srcset-select';

/**
 * What a style sheet can make a browser fetch, and under which conditions. A browser fetches a
 * rule's `url()` at style recalc, once the sheet and a matching element are both known; a font
 * when text is laid out in it. So this model keeps each fetch with what decides it: the selector,
 * the enclosing `@media` lists, the font family and the text it covers.
 */
export interface SheetModel {
  /** `@import`s where CSS honours them (top level, before other rules). Always fetched. */
  imports: Array<{ url: string; media: string | undefined }>;
  /**
   * One entry per selector of each style rule that sets an image-bearing property (`background`,
   * `list-style`, `content`, `mask`, `cursor`, `border-image`… — with or without a `url()`, since a
   * `background: none` that wins the cascade means no fetch).
   */
  imageRules: ImageRule[];
  /** `@font-face` rules with the one `src` a browser would try first. */
  fontFaces: FontFace[];
  /** Style rules that set a font or give a `::before`/`::after` text. */
  fontRules: FontRule[];
}

export interface RuleContext {
  /** Selector list with nesting resolved and pseudo-elements removed (they style their element). */
  selectors: string[];
  /** `@media` lists that must all match (the sheet's own media first). */
  media: string[];
}

export interface ImageRule {
  /** One selector, pseudo-elements removed. */
  selector: string;
  /** `''`, `before`, `after`… : the box the declarations style (the cascade is per box). */
  pseudo: string;
  /** Selector specificity as one comparable number (ids × 10⁶ + classes × 10³ + types). */
  specificity: number;
  media: string[];
  /** Per property group (`background-image`, `list-style-image`…), the URLs it fetches (maybe none). */
  declarations: Array<{ group: string; urls: string[] }>;
}

export interface FontRule extends RuleContext {
  /** The rule targets `::before` / `::after`; `content` is its generated text. */
  pseudo: boolean;
  families?: string[];
  weight?: number;
  italic?: boolean;
  /** Text of a string `content` (for `::before`/`::after`). */
  content?: string;
}

export interface FontFace {
  /** Lower-cased family name. */
  family: string;
  weight: [number, number];
  italic: boolean;
  /** Code point ranges (inclusive); `undefined` means all of Unicode. */
  ranges: Array<[number, number]> | undefined;
  /** The first `src` a browser would download; `undefined` when only `local()`/unsupported formats. */
  url: string | undefined;
  media: string[];
}

export interface ModelOptions {
  /** Absolute URL relative references resolve against. */
  baseUrl: string;
  /** Media list of the sheet itself (`<link media>`, `<style media>`, `@import … media`). */
  media?: string;
  /** Device pixel ratio, for `image-set()`. */
  dpr: number;
}

/** At-rules whose contents apply as if they were not there (their condition assumed true). */
const TRANSPARENT_AT_RULES: ReadonlySet<string> = new Set(['layer', 'container', 'scope', 'starting-style']);
/** Font formats Chromium downloads. */
const FONT_FORMATS: ReadonlySet<string> = new Set(['woff2', 'woff', 'truetype', 'opentype', 'collection', 'woff2-variations', 'woff-variations', 'truetype-variations', 'opentype-variations']);
/** Properties whose URLs are never fetched by a current browser. */
const NON_FETCHING_PROPERTIES: ReadonlySet<string> = new Set(['behavior', '-ms-behavior', 'src']);
/** Longhands and shorthands that set the same image, mapped to one cascade group. */
const IMAGE_GROUPS: ReadonlyMap<string, string> = new Map([
  ['background', 'background-image'],
  ['background-image', 'background-image'],
  ['list-style', 'list-style-image'],
  ['list-style-image', 'list-style-image'],
  ['content', 'content'],
  ['cursor', 'cursor'],
  ['mask', 'mask-image'],
  ['mask-image', 'mask-image'],
  ['-webkit-mask', 'mask-image'],
  ['-webkit-mask-image', 'mask-image'],
  ['border-image', 'border-image'],
  ['border-image-source', 'border-image'],
  ['-webkit-border-image', 'border-image'],
]);

/** Pseudo-elements that carry generated text when they have `content`. */
const GENERATED = /::?(before|after)\b/i;

/** Builds the model of one style sheet. Never throws on bad CSS. */
export function modelStylesheet(css: string, options: ModelOptions): SheetModel {
  const model: SheetModel = { imports: [], imageRules: [], fontFaces: [], fontRules: [] };
  const rules = parseCss(css);
  const sheetMedia = options.media !== undefined && options.media.trim() !== '' ? [options.media] : [];
  let importsAllowed = true;
  for (const rule of rules) {
    if (rule.type === 'at' && rule.name === 'import' && importsAllowed) {
      const imp = parseImport(css, rule.prelude, options.baseUrl);
      if (imp) model.imports.push({ url: imp.url, media: [...sheetMedia, ...(imp.media ? [imp.media] : [])].join(' and ') || undefined });
      continue;
    }
    if (!(rule.type === 'at' && (rule.name === 'charset' || (rule.name === 'layer' && !rule.block)))) importsAllowed = false;
  }
  const walk = (list: CssRule[], media: string[], parents: string[] | undefined): void => {
    for (const rule of list) {
      if (rule.type === 'style') {
        const selectors = resolveNesting(rule.selector, parents);
        addStyleRule(css, model, rule.declarations, rule.selector, selectors, media, options);
        walk(rule.rules, media, selectors);
        continue;
      }
      if (!rule.block) continue;
      const prelude = tokensText(css, rule.prelude);
      if (rule.name === 'media') walk(rule.rules, [...media, prelude], parents);
      else if (rule.name === 'supports') {
        if (!/^not\b/i.test(prelude)) walk(rule.rules, media, parents);
      } else if (TRANSPARENT_AT_RULES.has(rule.name)) walk(rule.rules, media, parents);
      else if (rule.name === 'font-face') addFontFace(css, model, rule.declarations, media, options);
      // @keyframes, @page, @document, @font-feature-values…: nothing fetched at load.
      if (parents !== undefined && rule.declarations.length > 0 && (rule.name === 'media' || rule.name === 'supports')) {
        addStyleRule(css, model, rule.declarations, '&', parents, [...media, prelude], options);
      }
    }
  };
  walk(rules, sheetMedia, undefined);
  return model;
}

function addStyleRule(css: string, model: SheetModel, declarations: CssDeclaration[], rawSelector: string, selectors: string[], media: string[], options: ModelOptions): void {
  const imageDecls: Array<{ group: string; urls: string[] }> = [];
  const font: FontRule = { selectors: [], media, pseudo: false };
  let fontSet = false;
  for (const d of declarations) {
    if (d.name.startsWith('--')) continue; // a custom property fetches nothing until used
    if (!NON_FETCHING_PROPERTIES.has(d.name)) {
      const urls = declarationUrls(css, d.value, options);
      const group = IMAGE_GROUPS.get(d.name) ?? (urls.length > 0 ? d.name : undefined);
      if (group !== undefined) {
        const i = imageDecls.findIndex((x) => x.group === group);
        // Within one rule the later declaration of a group wins, as in the cascade.
        if (i >= 0) imageDecls.splice(i, 1);
        imageDecls.push({ group, urls });
      }
    }
    if (d.name === 'font-family') {
      font.families = parseFamilies(css, d.value);
      fontSet = true;
    } else if (d.name === 'font') {
      const parsed = parseFontShorthand(css, d.value);
      if (parsed) {
        Object.assign(font, parsed);
        fontSet = true;
      }
    } else if (d.name === 'font-weight') {
      const w = parseWeight(tokensText(css, d.value));
      if (w !== undefined) {
        font.weight = w;
        fontSet = true;
      }
    } else if (d.name === 'font-style') {
      font.italic = /^(italic|oblique)/i.test(tokensText(css, d.value));
      fontSet = true;
    } else if (d.name === 'content') {
      const text = d.value.filter((t) => t.type === 'string').map((t) => (t as { value: string }).value).join('');
      if (text !== '') {
        font.content = text;
        fontSet = true;
      }
    }
  }
  const cleaned = selectors.map(stripPseudoElements).filter((s): s is string => s !== undefined);
  if (cleaned.length === 0) return;
  if (imageDecls.length > 0) {
    for (const selector of selectors) {
      const element = stripPseudoElements(selector);
      if (element === undefined) continue;
      const pseudo = /::?(before|after|marker|first-letter|first-line|placeholder|backdrop|selection)\b/i.exec(selector)?.[1]?.toLowerCase() ?? '';
      model.imageRules.push({ selector: element, pseudo, specificity: specificity(selector), media, declarations: imageDecls });
    }
  }
  if (fontSet) {
    font.selectors = cleaned;
    font.pseudo = GENERATED.test(rawSelector);
    if (!font.pseudo) delete font.content;
    model.fontRules.push(font);
  }
}

function addFontFace(css: string, model: SheetModel, declarations: CssDeclaration[], media: string[], options: ModelOptions): void {
  let family: string | undefined;
  let weight: [number, number] = [400, 400];
  let italic = false;
  let ranges: Array<[number, number]> | undefined;
  let url: string | undefined;
  for (const d of declarations) {
    if (d.name === 'font-family') family = parseFamilies(css, d.value)[0];
    else if (d.name === 'font-weight') {
      const parts = tokensText(css, d.value).split(/\s+/).map(parseWeight).filter((x): x is number => x !== undefined);
      if (parts.length > 0) weight = [parts[0] as number, (parts[1] ?? parts[0]) as number];
    } else if (d.name === 'font-style') italic = /^(italic|oblique)/i.test(tokensText(css, d.value));
    else if (d.name === 'unicode-range') ranges = parseUnicodeRange(tokensText(css, d.value));
    else if (d.name === 'src') url = chooseFontSrc(d.value, options.baseUrl);
  }
  if (family !== undefined) model.fontFaces.push({ family, weight, italic, ranges, url, media });
}

/** The first `src` entry with a URL in a format the browser takes; `local()` fonts are assumed absent. */
function chooseFontSrc(value: CssToken[], baseUrl: string): string | undefined {
  for (const entry of splitCommas(value)) {
    let raw: string | undefined;
    let formatOk = true;
    for (let i = 0; i < entry.length; i++) {
      const t = entry[i] as CssToken;
      if (t.type === 'url' && !t.bad) raw = t.value;
      else if (t.type === 'function') {
        const name = t.value.toLowerCase();
        const arg = entry.slice(i + 1).find((x) => x.type === 'string' || x.type === 'ident') as { value: string } | undefined;
        if ((name === 'url' || name === 'src') && arg) raw = arg.value;
        else if (name === 'format') formatOk = arg !== undefined && FONT_FORMATS.has(arg.value.toLowerCase());
        else if (name === 'local') raw = undefined;
      }
    }
    if (raw !== undefined && formatOk && !raw.trim().startsWith('#')) {
      const url = resolveHttpUrl(raw, baseUrl);
      if (url !== undefined) return url;
    }
  }
  return undefined;
}

/** URLs a declaration value fetches: every `url()`, and the one chosen candidate of each `image-set()`. */
export function declarationUrls(css: string, value: readonly CssToken[], options: Pick<ModelOptions, 'baseUrl' | 'dpr'>): string[] {
  const out: string[] = [];
  const add = (raw: string): void => {
    if (raw.trim().startsWith('#')) return;
    const url = resolveHttpUrl(raw, options.baseUrl);
    if (url !== undefined) out.push(url);
  };
  for (let i = 0; i < value.length; i++) {
    const t = value[i] as CssToken;
    if (t.type === 'url' && !t.bad) add(t.value);
    else if (t.type === 'function') {
      const name = t.value.toLowerCase();
      if (name === 'url' || name === 'src') {
        const arg = value.slice(i + 1).find((x) => x.type !== 'whitespace');
        if (arg?.type === 'string' && !arg.bad) add(arg.value);
      } else if (name === 'image-set' || name === '-webkit-image-set') {
        const end = closingIndex(value, i);
        const chosen = chooseImageSet(css, value.slice(i + 1, end), options.dpr);
        if (chosen !== undefined) add(chosen);
        i = end;
      }
    }
  }
  return out;
}

/** `image-set()` options → the URL a browser picks (same density rule as srcset; unsupported `type()`s skipped). */
function chooseImageSet(css: string, args: CssToken[], dpr: number): string | undefined {
  const options: Array<{ url: string; density: number }> = [];
  for (const option of splitCommas(args)) {
    let url: string | undefined;
    let density = 1;
    let supported = true;
    for (let i = 0; i < option.length; i++) {
      const t = option[i] as CssToken;
      if (t.type === 'url' && !t.bad) url = t.value;
      else if (t.type === 'string' && url === undefined) url = t.value;
      else if (t.type === 'function') {
        const name = t.value.toLowerCase();
        const arg = option.slice(i + 1).find((x) => x.type === 'string') as { value: string } | undefined;
        if (name === 'url' && arg) url = arg.value;
        else if (name === 'type') supported = isSupportedImageType(arg?.value ?? '');
        i = closingIndex(option, i);
      } else if (t.type === 'number') {
        const m = /^([\d.]+)(x|dppx|dpi|dpcm)$/i.exec(css.slice(t.start, t.end));
        if (m) density = (m[2] as string).toLowerCase() === 'dpi' ? Number(m[1]) / 96 : (m[2] as string).toLowerCase() === 'dpcm' ? (Number(m[1]) * 2.54) / 96 : Number(m[1]);
      }
    }
    if (url !== undefined && supported && !options.some((o) => o.density === density)) options.push({ url, density });
  }
  if (options.length === 0) return undefined;
  options.sort((a, b) => a.density - b.density);
  return options[selectionIndex(options.map((o) => o.density), dpr)]?.url;
}

function parseImport(css: string, prelude: CssToken[], baseUrl: string): { url: string; media: string | undefined } | undefined {
  const sig = prelude.filter((t) => t.type !== 'whitespace');
  const first = sig[0];
  let raw: string | undefined;
  let rest = 1;
  if (first?.type === 'string' && !first.bad) raw = first.value;
  else if (first?.type === 'url' && !first.bad) raw = first.value;
  else if (first?.type === 'function' && first.value.toLowerCase() === 'url' && sig[1]?.type === 'string') {
    raw = (sig[1] as { value: string }).value;
    rest = 3;
  }
  if (raw === undefined) return undefined;
  const url = resolveHttpUrl(raw, baseUrl);
  if (url === undefined) return undefined;
  // Media list: what follows, without `layer`/`layer()`/`supports()`.
  const firstRest = sig[rest];
  const from = firstRest === undefined ? prelude.length : prelude.indexOf(firstRest);
  const media = tokensText(css, prelude.slice(from)).replace(/\b(layer|supports)\([^)]*\)|\blayer\b/gi, '').trim();
  return { url, media: media === '' ? undefined : media };
}

/** `font-family` names, lower-cased; quoted names kept whole, unquoted idents joined by spaces. */
export function parseFamilies(css: string, value: readonly CssToken[]): string[] {
  return splitCommas(value)
    .map((entry) => {
      const str = entry.find((t) => t.type === 'string') as { value: string } | undefined;
      if (str) return str.value.trim().toLowerCase();
      return tokensText(css, entry).toLowerCase();
    })
    .filter((f) => f !== '');
}

/** `font: [style] [variant] [weight] size[/line-height] family, …` → its families, weight, style. */
function parseFontShorthand(css: string, value: readonly CssToken[]): Pick<FontRule, 'families' | 'weight' | 'italic'> | undefined {
  const sig = value.filter((t) => t.type !== 'whitespace');
  // The size is the last dimension/percentage before the families, optionally followed by `/ line-height`.
  let sizeAt = -1;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i] as CssToken;
    if (t.type === 'delim' && t.value === ',') break;
    if (t.type === 'number' && /[a-z%]$/i.test(css.slice(t.start, t.end))) sizeAt = i;
    if (t.type === 'ident' && /^(xx-small|x-small|small|medium|large|x-large|xx-large|larger|smaller)$/i.test(t.value)) sizeAt = i;
  }
  if (sizeAt < 0) return undefined; // system fonts (`font: menu`) or invalid
  let familyStart = sizeAt + 1;
  if (sig[familyStart] && isDelim(sig[familyStart] as CssToken, '/')) familyStart += 2;
  const out: Pick<FontRule, 'families' | 'weight' | 'italic'> = { families: parseFamilies(css, sig.slice(familyStart)), weight: 400, italic: false };
  for (const t of sig.slice(0, sizeAt)) {
    const text = css.slice(t.start, t.end).toLowerCase();
    const w = parseWeight(text);
    if (w !== undefined && text !== 'normal') out.weight = w;
    if (text === 'italic' || text === 'oblique') out.italic = true;
  }
  return out;
}

function parseWeight(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'normal') return 400;
  if (t === 'bold' || t === 'bolder') return 700;
  if (t === 'lighter') return 300;
  const n = Number(t);
  return Number.isFinite(n) && n >= 1 && n <= 1000 && t !== '' ? n : undefined;
}

/** `U+0000-00FF, U+0131, U+4??` → inclusive ranges. */
export function parseUnicodeRange(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const part of text.split(',')) {
    const m = /^\s*u\+([0-9a-f?]{1,6})(?:-([0-9a-f]{1,6}))?\s*$/i.exec(part);
    if (!m) continue;
    const a = m[1] as string;
    if (a.includes('?')) out.push([parseInt(a.replace(/\?/g, '0'), 16), parseInt(a.replace(/\?/g, 'f'), 16)]);
    else out.push([parseInt(a, 16), m[2] !== undefined ? parseInt(m[2], 16) : parseInt(a, 16)]);
  }
  return out;
}

/**
 * Selectors of a (possibly nested) rule as complete selectors: `&` stands for the parent list,
 * and a nested selector without `&` is a descendant of it (CSS Nesting 1).
 */
function resolveNesting(selector: string, parents: string[] | undefined): string[] {
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
function stripPseudoElements(selector: string): string | undefined {
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

function splitCommas(tokens: readonly CssToken[]): CssToken[][] {
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
function closingIndex(tokens: readonly CssToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as CssToken;
    if (t.type === 'function' || isDelim(t, '(') || isDelim(t, '[')) depth++;
    else if ((isDelim(t, ')') || isDelim(t, ']')) && --depth === 0) return i;
  }
  return tokens.length;
}
