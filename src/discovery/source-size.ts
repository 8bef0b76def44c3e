import { evaluateLength } from './css-length';
import { matchesMedia, splitTopLevel } from './media-query';
import type { Viewport } from './viewport';

/**
 * The source size of a `sizes` attribute (HTML "parse a sizes attribute"): the length of the first
 * entry whose media condition matches, or whose condition is absent; `100vw` when none does or the
 * attribute is absent. Entries that do not parse (negative, percentages, unknown units) are skipped,
 * as the standard says. `auto` (only meaningful with `loading=lazy`) needs layout we do not have:
 * the `width` attribute when given, else `100vw` — the largest the image can be.
 */
export function sourceSizePx(sizes: string | undefined, viewport: Viewport, widthAttr?: string): number {
  if (sizes === undefined) return viewport.width;
  for (const raw of splitTopLevel(sizes, ',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const { condition, length } = splitEntry(entry);
    if (length.toLowerCase() === 'auto') {
      const w = widthAttr !== undefined && /^\s*\d+/.test(widthAttr) ? parseInt(widthAttr, 10) : NaN;
      if (condition === '' || matchesMedia(condition, viewport)) return w > 0 ? w : viewport.width;
      continue;
    }
    const px = evaluateLength(length, viewport);
    if (px === undefined || px < 0) continue;
    if (px !== 0 && /^[+-]?[\d.]+$/.test(length.trim())) continue; // a unitless non-zero number is invalid
    if (condition === '' || matchesMedia(condition, viewport)) return px;
  }
  return viewport.width;
}

/** The last component value is the length; everything before it is the media condition. */
function splitEntry(entry: string): { condition: string; length: string } {
  if (entry.endsWith(')')) {
    // A function (`calc(...)`): find its opening name.
    let depth = 0;
    for (let i = entry.length - 1; i >= 0; i--) {
      if (entry[i] === ')') depth++;
      else if (entry[i] === '(' && --depth === 0) {
        let start = i;
        while (start > 0 && /[a-zA-Z-]/.test(entry[start - 1] as string)) start--;
        if (start === i) return { condition: entry, length: '' }; // `(min-width: 1px)` alone
        return { condition: entry.slice(0, start).trim(), length: entry.slice(start) };
      }
    }
  }
  const cut = entry.search(/\S+$/);
  return { condition: entry.slice(0, cut).trim(), length: entry.slice(cut) };
}
