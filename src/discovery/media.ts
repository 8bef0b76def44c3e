import { isAsciiWhitespace } from './ascii';

/**
 * Whether a media query list (a `media` attribute, or an `@import`'s list) only ever matches
 * print, so the sheet cannot block rendering on screen: every comma-separated query has media
 * type `print` (optionally after `only`). An absent or empty list means `all`, so false; `not
 * print` matches screens, so false. Anything we cannot judge counts as screen — blocking is the
 * safe assumption because under-prioritising a render-blocking sheet costs more than the reverse.
 */
export function isPrintOnly(media: string | undefined): boolean {
  if (media === undefined) return false;
  const queries = media.split(',');
  let sawQuery = false;
  for (const query of queries) {
    const words = splitWords(query.toLowerCase());
    if (words.length === 0) continue;
    sawQuery = true;
    const type = words[0] === 'only' ? words[1] : words[0];
    if (type !== 'print') return false;
  }
  return sawQuery;
}

/** Splits on ASCII whitespace and treats `(` as the start of a new word (`print and(…)`). */
function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isAsciiWhitespace(c) || c === 0x28) {
      if (current !== '') words.push(current);
      current = c === 0x28 ? '(' : '';
    } else {
      current += text.charAt(i);
    }
  }
  if (current !== '') words.push(current);
  return words;
}
