import type { CssToken } from './css-tokenizer';
import { closingIndex, splitCommas } from './css-token-lists';
import { isSupportedImageType } from './image-types';
import { resolveHttpUrl } from './resolve-url';
import { selectionIndex } from './srcset-select';

// The URLs one declaration value makes a browser fetch, `image-set()` reduced to its one choice.

/** URLs a declaration value fetches: every `url()`, and the one chosen candidate of each `image-set()`. */
export function declarationUrls(css: string, value: readonly CssToken[], options: { baseUrl: string; dpr: number }): string[] {
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
