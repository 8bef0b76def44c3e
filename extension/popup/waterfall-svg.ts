import type { PageRecord } from '../../src/page/model/page-record';
import { formatMs, layoutWaterfall } from '../../src/page/views/waterfall';
import { h, svg } from '../ui/dom';

const WIDTH = 380;
const ROW = 8;

/** The `waterfall` block: one `rect.bar` per request, discovery ticks, a time axis. */
export function waterfallBlock(page: PageRecord): HTMLElement {
  const layout = layoutWaterfall(page, { width: WIDTH, rowHeight: ROW });
  const root = svg('svg', {
    width: layout.width,
    height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    role: 'img',
    'aria-label': `Waterfall of ${layout.bars.length} requests over ${formatMs(layout.spanMs)}`,
  });
  for (const t of layout.ticks) root.append(svg('line', { class: 'grid', x1: t.x, x2: t.x, y1: 0, y2: layout.axisY }));
  for (const b of layout.bars) {
    const title = `${b.url}\nstart ${formatMs(b.startMs)}${b.endMs === undefined ? ', still loading' : `, end ${formatMs(b.endMs)} (${formatMs(b.endMs - b.startMs)})`}` +
      (b.discoveryMs === undefined ? '' : `\ndiscovered in the DOM at ${formatMs(b.discoveryMs)}`);
    const cls = `bar type-${b.type.replace(/[^a-z_]/gi, '')}${b.failed ? ' failed' : ''}`;
    root.append(svg('rect', { class: cls, x: b.x, y: b.y + 1, width: b.width, height: ROW - 2, 'data-url': b.url }, svg('title', {}, title)));
    if (b.discoveryX !== undefined) {
      root.append(svg('line', { class: 'tick-discovery', x1: b.discoveryX, x2: b.discoveryX, y1: b.y, y2: b.y + ROW }));
    }
  }
  root.append(svg('line', { class: 'axis', x1: 0, x2: layout.width, y1: layout.axisY + 0.5, y2: layout.axisY + 0.5 }));
  layout.ticks.forEach((t, i) => {
    const anchor = i === 0 ? 'start' : i === layout.ticks.length - 1 ? 'end' : 'middle';
    root.append(svg('text', { class: 'axis-label', x: t.x, y: layout.axisY + 12, 'text-anchor': anchor }, t.label));
  });
  return h(
    'section',
    { class: 'block' },
    h('h2', {}, 'Waterfall'),
    h(
      'p',
      { class: 'legend' },
      ...['document', 'stylesheet', 'script', 'font', 'image', 'other'].map((t) => h('span', { class: `key type-${t}` }, t)),
      h('span', { class: 'key discovery' }, 'discovered'),
    ),
    layout.bars.length === 0 ? h('p', { class: 'muted' }, 'No requests recorded yet.') : null,
    h('div', { class: 'waterfall', 'data-testid': 'waterfall' }, root),
  );
}
