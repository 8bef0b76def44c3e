import { chooseFontSrc, parseFamilies, parseFontShorthand, parseUnicodeRange, parseWeight } from './css-font-values';
import { parseCss, tokensText, type CssDeclaration, type CssRule } from './css-parser';
import { resolveNesting, specificity, stripPseudoElements } from './css-selectors';
import type { CssToken } from './css-tokenizer';
import { declarationUrls } from './css-value-urls';
import { resolveHttpUrl } from './resolve-url';

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

/**
 * Whether a block's text may hold a declaration this model reads: an image property, a font
 * property (`@font-face`'s descriptors included) or `content`, or a value naming a URL. The text
 * has no escape, string or comment (parseCss's `keepBlock`), so names read as they tokenize;
 * a false match only costs a full parse.
 */
const MAY_FETCH = new RegExp(
  `(?:^|[\\s;])(?:${[...IMAGE_GROUPS.keys(), 'font', 'font-family', 'font-weight', 'font-style', 'unicode-range', 'src'].join('|')})\\s*:|url\\(|src\\(|image-set\\(`,
  'i',
);
const keepBlock = (text: string): boolean => MAY_FETCH.test(text);

/** Pseudo-elements that carry generated text when they have `content`. */
const GENERATED = /::?(before|after)\b/i;

/** Builds the model of one style sheet. Never throws on bad CSS. */
export function modelStylesheet(css: string, options: ModelOptions): SheetModel {
  const model: SheetModel = { imports: [], imageRules: [], fontFaces: [], fontRules: [] };
  const rules = parseCss(css, { keepBlock });
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
