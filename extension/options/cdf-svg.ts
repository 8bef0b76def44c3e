import { layoutCdfPlot, type CdfSeries } from '../../src/page/views/cdf-plot';
import { svg } from '../ui/dom';

/** Draws the handshake CDF (`data-testid="cdf-plot"`) from pure layout. */
export function cdfSvg(series: CdfSeries[], scale: 'linear' | 'log'): SVGSVGElement {
  const layout = layoutCdfPlot(series, { width: 600, height: 320, scale });
  const { plot } = layout;
  const root = svg('svg', {
    'data-testid': 'cdf-plot',
    class: 'cdf-plot',
    width: layout.width,
    height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    role: 'img',
    'aria-label': `Handshake time CDF: ${series.map((s) => s.name).join(', ') || 'no data'}`,
  });
  for (const t of layout.yTicks) {
    root.append(svg('line', { class: 'grid', x1: plot.left, x2: plot.right, y1: t.y, y2: t.y }));
    root.append(svg('text', { class: 'axis-label', x: plot.left - 6, y: t.y + 3, 'text-anchor': 'end' }, t.label));
  }
  for (const t of layout.xTicks) {
    root.append(svg('line', { class: 'grid', x1: t.x, x2: t.x, y1: plot.top, y2: plot.bottom }));
    root.append(svg('text', { class: 'axis-label', x: t.x, y: plot.bottom + 14, 'text-anchor': 'middle' }, t.label));
  }
  root.append(svg('path', { class: 'axes', d: layout.axes }));
  root.append(svg('text', { class: 'axis-title', x: (plot.left + plot.right) / 2, y: layout.height - 4, 'text-anchor': 'middle' }, 'handshake time'));
  const midY = (plot.top + plot.bottom) / 2;
  root.append(svg('text', { class: 'axis-title', x: 10, y: midY, 'text-anchor': 'middle', transform: `rotate(-90 10 ${midY})` }, 'CDF'));
  for (const line of layout.lines) {
    root.append(svg('path', { class: `line phase-${line.name}`, d: line.d, 'data-phase': line.name }, svg('title', {}, line.name)));
  }
  if (layout.lines.length === 0) {
    root.append(svg('text', { class: 'empty', x: (plot.left + plot.right) / 2, y: (plot.top + plot.bottom) / 2, 'text-anchor': 'middle' }, 'No handshakes recorded for this selection yet'));
  }
  return root;
}
