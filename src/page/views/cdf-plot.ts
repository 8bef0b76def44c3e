import type { CdfPoint } from '../../stats/histogram';
import { formatMs, niceStep } from './waterfall';

export interface CdfSeries {
  /** Legend name and CSS class suffix (`dns`, `tcp`, `tls`, `total`). */
  name: string;
  points: readonly Pick<CdfPoint, 'ms' | 'cdf'>[];
}

export interface CdfPlotOptions {
  /** @default 560 */
  width?: number;
  /** @default 320 */
  height?: number;
  /** @default { top: 12, right: 16, bottom: 36, left: 44 } */
  margin?: { top: number; right: number; bottom: number; left: number };
  /** Log-scaled time axis (handshakes span 1 ms … seconds). @default 'linear' */
  scale?: 'linear' | 'log';
}

export interface CdfPlotLayout {
  width: number;
  height: number;
  /** The plot area. */
  plot: { left: number; top: number; right: number; bottom: number };
  /** One SVG path per series with points, in input order. */
  lines: Array<{ name: string; d: string }>;
  /** The two axis lines as one path. */
  axes: string;
  xTicks: Array<{ x: number; label: string }>;
  yTicks: Array<{ y: number; label: string }>;
  /** Largest ms shown. */
  maxMs: number;
}

const DEFAULT_MARGIN = { top: 12, right: 16, bottom: 36, left: 44 };

/**
 * Lays out CDF lines as SVG path data. A CDF is drawn as a step function: flat until a point's
 * `ms`, then up to its `cdf` (each point is a histogram bucket's upper edge with the cumulative
 * fraction so far), starting from 0 at the first point. y runs 0 → 1 bottom to top.
 */
export function layoutCdfPlot(series: readonly CdfSeries[], options: CdfPlotOptions = {}): CdfPlotLayout {
  const width = options.width ?? 560;
  const height = options.height ?? 320;
  const m = options.margin ?? DEFAULT_MARGIN;
  const plot = { left: m.left, top: m.top, right: width - m.right, bottom: height - m.bottom };
  const log = options.scale === 'log';

  const all = series.flatMap((s) => s.points.map((p) => p.ms)).filter((v) => Number.isFinite(v) && v >= 0);
  const dataMax = all.length > 0 ? Math.max(...all) : 1;
  const dataMin = all.length > 0 ? Math.min(...all) : 1;

  let xOf: (ms: number) => number;
  let xTicks: CdfPlotLayout['xTicks'];
  let maxMs: number;
  if (log) {
    const lo = 10 ** Math.floor(Math.log10(Math.max(0.1, dataMin)));
    const hi = 10 ** Math.ceil(Math.log10(Math.max(lo * 10, dataMax)));
    maxMs = hi;
    const span = Math.log10(hi) - Math.log10(lo);
    xOf = (ms) => plot.left + ((Math.log10(Math.max(lo, ms)) - Math.log10(lo)) / span) * (plot.right - plot.left);
    xTicks = [];
    for (let v = lo; v <= hi * 1.0001; v *= 10) xTicks.push({ x: xOf(v), label: formatMs(v) });
  } else {
    const step = niceStep(Math.max(dataMax, 1) / 5);
    maxMs = Math.ceil(Math.max(dataMax, 1) / step) * step;
    xOf = (ms) => plot.left + (Math.max(0, ms) / maxMs) * (plot.right - plot.left);
    xTicks = [];
    for (let v = 0; v <= maxMs + 1e-9; v += step) xTicks.push({ x: xOf(v), label: formatMs(v) });
  }
  const yOf = (cdf: number) => plot.bottom - Math.min(1, Math.max(0, cdf)) * (plot.bottom - plot.top);

  const lines = series
    .filter((s) => s.points.length > 0)
    .map((s) => {
      const first = s.points[0] as CdfPoint;
      const parts = [`M${f(xOf(first.ms))},${f(yOf(0))}`];
      for (const p of s.points) parts.push(`H${f(xOf(p.ms))}`, `V${f(yOf(p.cdf))}`);
      parts.push(`H${f(plot.right)}`);
      return { name: s.name, d: parts.join('') };
    });
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((v) => ({ y: yOf(v), label: String(v) }));
  const axes = `M${f(plot.left)},${f(plot.top)}V${f(plot.bottom)}H${f(plot.right)}`;
  return { width, height, plot, lines, axes, xTicks, yTicks, maxMs };
}

/** Two decimals are sub-pixel; shorter path strings. */
function f(v: number): string {
  return String(Math.round(v * 100) / 100);
}
