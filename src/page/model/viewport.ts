/** A box in viewport coordinates (what `getBoundingClientRect()` returns). */
export interface ViewportRect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * Whether `rect` overlaps the viewport `[0, width) × [0, height)` by a positive area. An empty box
 * (`display: none`, not laid out yet) never does: 0×0 at the origin is not "visible".
 */
export function intersectsViewport(rect: ViewportRect, viewport: { width: number; height: number }): boolean {
  if (!(rect.width > 0 && rect.height > 0)) return false;
  const right = rect.left + rect.width;
  const bottom = rect.top + rect.height;
  return rect.left < viewport.width && right > 0 && rect.top < viewport.height && bottom > 0;
}
