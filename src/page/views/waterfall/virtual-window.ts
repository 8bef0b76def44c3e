/** The slice of a long list of fixed-height rows that a scrolled viewport shows. */
export interface VirtualWindow {
  /** Index of the first row to render. */
  first: number;
  /** One past the last row to render (`first ≤ end ≤ count`). */
  end: number;
  /** Height of all rows, for the scroll area's spacer. */
  totalPx: number;
}

/**
 * Which rows to render so that every row intersecting `[scrollTop, scrollTop + viewportPx)` is
 * drawn, plus `overscan` rows either side (so a fast scroll does not flash empty space).
 * Out-of-range scroll positions (overscroll bounce, a list that shrank) are clamped.
 */
export function virtualWindow(scrollTop: number, viewportPx: number, rowPx: number, count: number, overscan = 6): VirtualWindow {
  const totalPx = count * rowPx;
  if (count === 0 || rowPx <= 0) return { first: 0, end: 0, totalPx: Math.max(0, totalPx) };
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, totalPx - 1));
  const firstVisible = Math.floor(top / rowPx);
  const lastVisible = Math.ceil((top + Math.max(0, viewportPx)) / rowPx);
  return { first: Math.max(0, firstVisible - overscan), end: Math.min(count, lastVisible + overscan), totalPx };
}
