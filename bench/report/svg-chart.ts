/**
 * A dependency-free SVG line chart: panels with axes, ticks, labels, one polyline per series and a
 * legend, in the manner of Padmanabhan & Mogul's figure 6-1. Pure string building.
 *
 * Invariants: points with a missing or non-finite y are skipped (the line joins its neighbours);
 * points are drawn in increasing x; every text node is XML-escaped.
 */

export interface ChartPoint {
  x: number;
  y: number | null | undefined;
}

export interface ChartSeries {
  name: string;
  points: readonly ChartPoint[];
  /** Drawn dashed and without markers (used for the lower bound). */
  dashed?: boolean;
  /** Stroke colour; defaults to the next palette colour (black when dashed). */
  color?: string;
  /** Drawn thicker, for the series the figure is about. */
  emphasis?: boolean;
}

export interface PanelSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Tick positions on x; defaults to the distinct x of the data. */
  xTicks?: readonly number[];
  series: readonly ChartSeries[];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Colour-blind-safe palette (Okabe & Ito); the bound series is drawn in black. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#882255', '#999999', '#44AA99', '#332288'];
const MARGIN = { left: 64, right: 170, top: 28, bottom: 44 };

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const r1 = (v: number): string => String(Math.round(v * 10) / 10);

/** 0 … a "nice" maximum ≥ max, in about `count` steps of 1, 2 or 5 × 10ⁿ. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 1e-9; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  if ((ticks[ticks.length - 1] ?? 0) < max) ticks.push(Math.round(((ticks[ticks.length - 1] ?? 0) + step) * 1e6) / 1e6);
  return ticks;
}

const tickText = (v: number): string => (Math.abs(v) >= 1000 ? v.toLocaleString('en-US') : String(v));

/** Drawn points of a series: finite y only, sorted by x. */
export function drawnPoints(s: ChartSeries): { x: number; y: number }[] {
  return s.points
    .filter((p): p is { x: number; y: number } => typeof p.y === 'number' && Number.isFinite(p.y) && Number.isFinite(p.x))
    .sort((a, b) => a.x - b.x);
}

/** One panel as an SVG `<g>`, drawn inside `box`. */
export function linePanel(spec: PanelSpec, box: Box): string {
  const series = spec.series.map((s) => ({ s, pts: drawnPoints(s) }));
  const xs = series.flatMap(({ pts }) => pts.map((p) => p.x));
  const xTicks = [...(spec.xTicks ?? [...new Set(xs)].sort((a, b) => a - b))];
  const xMin = Math.min(...xTicks, ...xs, 0);
  const xMax = Math.max(...xTicks, ...xs, xMin + 1);
  const yTicks = niceTicks(Math.max(0, ...series.flatMap(({ pts }) => pts.map((p) => p.y))));
  const yMax = yTicks[yTicks.length - 1] ?? 1;
  const plot = { x: box.x + MARGIN.left, y: box.y + MARGIN.top, w: box.width - MARGIN.left - MARGIN.right, h: box.height - MARGIN.top - MARGIN.bottom };
  const px = (x: number) => plot.x + ((x - xMin) / (xMax - xMin || 1)) * plot.w;
  const py = (y: number) => plot.y + plot.h - (y / (yMax || 1)) * plot.h;

  const out: string[] = [`<g class="panel">`];
  out.push(`<text x="${r1(plot.x + plot.w / 2)}" y="${r1(box.y + 16)}" text-anchor="middle" font-weight="bold">${escapeXml(spec.title)}</text>`);
  for (const t of yTicks) {
    out.push(`<line x1="${r1(plot.x)}" y1="${r1(py(t))}" x2="${r1(plot.x + plot.w)}" y2="${r1(py(t))}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${r1(plot.x - 6)}" y="${r1(py(t) + 4)}" text-anchor="end">${escapeXml(tickText(t))}</text>`);
  }
  for (const t of xTicks) {
    out.push(`<line x1="${r1(px(t))}" y1="${r1(plot.y + plot.h)}" x2="${r1(px(t))}" y2="${r1(plot.y + plot.h + 5)}" stroke="#000"/>`);
    out.push(`<text x="${r1(px(t))}" y="${r1(plot.y + plot.h + 18)}" text-anchor="middle">${escapeXml(tickText(t))}</text>`);
  }
  out.push(`<line x1="${r1(plot.x)}" y1="${r1(plot.y + plot.h)}" x2="${r1(plot.x + plot.w)}" y2="${r1(plot.y + plot.h)}" stroke="#000"/>`);
  out.push(`<line x1="${r1(plot.x)}" y1="${r1(plot.y)}" x2="${r1(plot.x)}" y2="${r1(plot.y + plot.h)}" stroke="#000"/>`);
  out.push(`<text x="${r1(plot.x + plot.w / 2)}" y="${r1(box.y + box.height - 6)}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(${r1(box.x + 16)} ${r1(plot.y + plot.h / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);

  let colour = 0;
  series.forEach(({ s, pts }, i) => {
    const stroke = s.color ?? (s.dashed ? '#000' : (PALETTE[colour++ % PALETTE.length] as string));
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    const width = s.emphasis ? 3.5 : 2;
    if (pts.length > 0) {
      out.push(`<polyline class="series" data-series="${escapeXml(s.name)}" fill="none" stroke="${stroke}" stroke-width="${width}"${dash} points="${pts.map((p) => `${r1(px(p.x))},${r1(py(p.y))}`).join(' ')}"/>`);
      if (!s.dashed) for (const p of pts) out.push(`<circle cx="${r1(px(p.x))}" cy="${r1(py(p.y))}" r="3" fill="${stroke}"/>`);
    }
    const ly = plot.y + 8 + i * 18;
    const lx = plot.x + plot.w + 14;
    out.push(`<line x1="${r1(lx)}" y1="${r1(ly)}" x2="${r1(lx + 22)}" y2="${r1(ly)}" stroke="${stroke}" stroke-width="${width}"${dash}/>`);
    out.push(`<text x="${r1(lx + 28)}" y="${r1(ly + 4)}">${escapeXml(pts.length ? s.name : `${s.name} (no data)`)}</text>`);
  });
  out.push('</g>');
  return out.join('\n');
}

/** A standalone SVG document holding `panels` stacked vertically, each `panelHeight` tall. */
export function svgDocument(title: string, panels: readonly PanelSpec[], width = 760, panelHeight = 340, footnote?: string): string {
  const foot = footnote ? 22 : 0;
  const height = Math.max(1, panels.length) * panelHeight + foot;
  const body = panels.map((p, i) => linePanel(p, { x: 0, y: i * panelHeight, width, height: panelHeight }));
  if (footnote) body.push(`<text x="8" y="${height - 7}" font-size="11" fill="#555">${escapeXml(footnote)}</text>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
