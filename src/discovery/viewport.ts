import { DiscoveryError } from './errors';

/**
 * The screen a page is laid out for: CSS pixels and device pixel ratio. Everything that depends
 * on it — `srcset`/`sizes`, `<picture>` media, `@media`, `image-set()`, the lazy-loading margin —
 * reads this one value.
 */
export interface Viewport {
  /** Layout viewport width, CSS px. */
  width: number;
  /** Layout viewport height, CSS px. */
  height: number;
  /** Device pixels per CSS pixel. */
  dpr: number;
}

/** A desktop browser window: what the fidelity check loads Chromium at (docs/discovery.md, "How fidelity is checked"). */
export const DEFAULT_VIEWPORT: Readonly<Viewport> = Object.freeze({ width: 1280, height: 800, dpr: 1 });

/**
 * The viewport with defaults filled in, validated.
 *
 * @throws DiscoveryError `E_INVALID_OPTION` when a dimension is not a positive finite number
 */
export function viewportOf(partial: Partial<Viewport> | undefined): Viewport {
  const v = { ...DEFAULT_VIEWPORT, ...partial };
  for (const key of ['width', 'height', 'dpr'] as const) {
    const x = v[key];
    if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) {
      throw new DiscoveryError('E_INVALID_OPTION', `viewport ${key} must be a positive number, got ${String(x)}`);
    }
  }
  return v;
}
