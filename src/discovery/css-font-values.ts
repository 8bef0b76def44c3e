import { isDelim, tokensText } from './css-parser';
import type { CssToken } from './css-tokenizer';
import { splitCommas } from './css-token-lists';
import { resolveHttpUrl } from './resolve-url';

// Font values of a style sheet: `font-family`, the `font` shorthand, weights, `unicode-range`, and
// the one `@font-face` `src` a browser downloads.

/** Font formats Chromium downloads. */
const FONT_FORMATS: ReadonlySet<string> = new Set(['woff2', 'woff', 'truetype', 'opentype', 'collection', 'woff2-variations', 'woff-variations', 'truetype-variations', 'opentype-variations']);

/** The first `src` entry with a URL in a format the browser takes; `local()` fonts are assumed absent. */
export function chooseFontSrc(value: CssToken[], baseUrl: string): string | undefined {
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

/** What the `font` shorthand sets of a font rule. */
export interface FontShorthand {
  families: string[];
  weight: number;
  italic: boolean;
}

/** `font: [style] [variant] [weight] size[/line-height] family, …` → its families, weight, style. */
export function parseFontShorthand(css: string, value: readonly CssToken[]): FontShorthand | undefined {
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
  const out: FontShorthand = { families: parseFamilies(css, sig.slice(familyStart)), weight: 400, italic: false };
  for (const t of sig.slice(0, sizeAt)) {
    const text = css.slice(t.start, t.end).toLowerCase();
    const w = parseWeight(text);
    if (w !== undefined && text !== 'normal') out.weight = w;
    if (text === 'italic' || text === 'oblique') out.italic = true;
  }
  return out;
}

export function parseWeight(text: string): number | undefined {
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
