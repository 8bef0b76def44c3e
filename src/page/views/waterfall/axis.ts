export interface AxisTick {
  ms: number;
  /** Position on the plot, 0 (left edge) … 1 (right edge). */
  frac: number;
  label: string;
}

export interface TimeAxis {
  /** The span drawn: the data's end rounded up to a whole tick. */
  spanMs: number;
  ticks: AxisTick[];
}

/**
 * A time axis from 0 to at least `lastMs` with ticks at 1, 2 or 5 × 10ⁿ ms, spaced at least
 * `minTickPx` apart on a plot `plotPx` wide (so a 260 px popup gets fewer ticks than a full page).
 * The last tick is the span's end, so the right-most label is a round number, never cut data.
 */
export function timeAxis(lastMs: number, plotPx: number, minTickPx = 56): TimeAxis {
  const end = Number.isFinite(lastMs) && lastMs > 0 ? lastMs : 1;
  const maxTicks = Math.max(1, Math.floor(plotPx / minTickPx));
  let step = niceStep(end / maxTicks);
  while (Math.ceil(end / step) > maxTicks) step = niceStep(step * 1.01);
  const spanMs = Math.ceil(end / step - 1e-9) * step;
  const ticks: AxisTick[] = [];
  for (let i = 0; i * step <= spanMs + 1e-9; i++) ticks.push({ ms: i * step, frac: (i * step) / spanMs, label: formatMs(i * step) });
  return { spanMs, ticks };
}

/** 1, 2 or 5 × a power of ten, ≥ `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** `850 ms`, `1.2 s`, `12 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}
