import {
  connectionViewItems,
  laneDetails,
  laneSegments,
  PHASE_LABELS,
  rowDetails,
  timeAxis,
  virtualWindow,
  type ConnectionViewItem,
  type Phase,
  type TimeAxis,
  type WaterfallModel,
  type WaterfallRow,
} from '../../src/page/views/waterfall';
import { h } from '../ui/dom';
import { Tooltip } from './tooltip';

/** Height of the sticky axis header (waterfall.css `.wf-head`). */
const HEAD_PX = 21;

export type WaterfallMode = 'requests' | 'connections';

export interface WaterfallViewOptions {
  /** Height of the scroll area in px. */
  height: number;
  /** Width of the name column in px. */
  labelWidth: number;
  /** @default 18 */
  rowHeight?: number;
}

/** What the user chose, kept across re-renders of the popup. */
export interface WaterfallState {
  mode: WaterfallMode;
  /** The request view's source: `observed` or a strategy. */
  source: string;
  scrollTop: number;
}

/**
 * The waterfall's DOM: a scroll area with a sticky time axis, grid lines and the browser's
 * DOMContentLoaded and load markers, and only the rows in view (plus a few) as elements, so a
 * page of thousands of requests scrolls as smoothly as one of ten. All layout numbers come from
 * src/page/views/waterfall; this file only turns them into elements.
 */
export class WaterfallView {
  readonly el: HTMLElement;
  private readonly scroll: HTMLElement;
  private readonly head: HTMLElement;
  private readonly body: HTMLElement;
  private readonly rowsLayer: HTMLElement;
  private readonly tip = new Tooltip();
  private readonly rowHeight: number;
  private items: Array<WaterfallRow | ConnectionViewItem> = [];
  private axis: TimeAxis = { spanMs: 1, ticks: [] };
  private frame = 0;

  constructor(
    private model: WaterfallModel,
    private readonly state: WaterfallState,
    private readonly options: WaterfallViewOptions,
  ) {
    this.rowHeight = options.rowHeight ?? 18;
    this.head = h('div', { class: 'wf-head' });
    this.rowsLayer = h('div', { class: 'wf-rows' });
    this.body = h('div', { class: 'wf-body' }, this.rowsLayer);
    this.scroll = h('div', { class: 'wf-scroll', 'data-testid': 'waterfall', tabindex: 0 }, this.head, this.body);
    this.scroll.style.height = `${options.height}px`;
    this.el = h('div', { class: 'wf-view' }, this.scroll, this.tip.el);
    this.el.style.setProperty('--wf-label', `${options.labelWidth}px`);
    this.el.style.setProperty('--wf-row', `${this.rowHeight}px`);
    this.scroll.addEventListener('scroll', () => {
      this.state.scrollTop = this.scroll.scrollTop;
      this.tip.hide();
      if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.drawRows()));
    });
    this.scroll.addEventListener('mousemove', (e) => this.hover(e));
    this.scroll.addEventListener('mouseleave', () => this.tip.hide());
  }

  /** Lays out for the current size and state; call after the element is in the document. */
  render(model: WaterfallModel = this.model): void {
    this.model = model;
    const source = model.sources.find((s) => s.id === this.state.source) ?? model.sources[0];
    this.items = this.state.mode === 'connections' ? connectionViewItems(model) : (source?.rows ?? []);
    this.el.dataset.mode = this.state.mode;
    this.scroll.dataset.source = this.state.mode === 'requests' ? (source?.id ?? '') : 'all';
    const plotPx = Math.max(60, this.scroll.clientWidth - this.options.labelWidth - 12);
    this.axis = timeAxis(model.lastMs, plotPx);
    this.drawFrame();
    // Short lists take only the room they need; long ones scroll within `height`.
    this.scroll.style.height = `${Math.min(this.options.height, HEAD_PX + Math.max(1, this.items.length) * this.rowHeight + 2)}px`;
    this.scroll.scrollTop = this.state.scrollTop;
    this.drawRows();
  }

  /** The axis, grid and markers: everything that does not scroll with the rows. */
  private drawFrame(): void {
    const { spanMs, ticks } = this.axis;
    this.head.replaceChildren(
      h('div', { class: 'wf-head-label' }, this.state.mode === 'connections' ? 'Connection' : 'Name'),
      h('div', { class: 'wf-head-axis' }, ...ticks.map((t, i) => h('span', { class: `wf-tick${i === 0 ? ' first' : i === ticks.length - 1 ? ' last' : ''}`, style: `left:${pct(t.frac)}` }, t.label))),
    );
    const total = this.items.length * this.rowHeight;
    this.body.style.height = `${Math.max(total, this.rowHeight)}px`;
    const overlay = h('div', { class: 'wf-overlay' }, ...ticks.map((t) => h('span', { class: 'wf-grid', style: `left:${pct(t.frac)}` })));
    const { domContentLoadedMs: dcl, loadMs: load } = this.model.markers;
    if (dcl !== null) overlay.append(h('span', { class: 'wf-marker dcl', 'data-testid': 'marker-dcl', style: `left:${pct(dcl / spanMs)}`, title: `DOMContentLoaded ${Math.round(dcl)} ms (browser)` }));
    if (load !== null) overlay.append(h('span', { class: 'wf-marker load', 'data-testid': 'marker-load', style: `left:${pct(load / spanMs)}`, title: `load ${Math.round(load)} ms (browser)` }));
    this.body.replaceChildren(overlay, this.rowsLayer);
  }

  private drawRows(): void {
    const win = virtualWindow(this.scroll.scrollTop, this.scroll.clientHeight, this.rowHeight, this.items.length);
    const nodes: HTMLElement[] = [];
    for (let i = win.first; i < win.end; i++) {
      const item = this.items[i];
      if (!item) continue;
      const node = 'kind' in item ? this.connectionItem(item) : this.requestRow(item);
      node.style.top = `${i * this.rowHeight}px`;
      node.dataset.index = String(i);
      if (i % 2 === 1) node.classList.add('alt');
      nodes.push(node);
    }
    this.rowsLayer.replaceChildren(...nodes);
  }

  private requestRow(row: WaterfallRow): HTMLElement {
    const track = h('div', { class: 'wf-track' }, ...row.phases.map((p) => this.segment(p, row)));
    if (row.discoveredMs !== null && row.discoveredMs <= row.startMs) {
      track.append(h('span', { class: 'wf-discovery', style: `left:${pct(row.discoveredMs / this.axis.spanMs)}` }));
    }
    return h(
      'div',
      { class: `wf-row t-${row.type}${row.error ? ' failed' : ''}`, 'data-url': row.url, 'data-start': row.startMs, 'data-end': row.endMs ?? '' },
      h('div', { class: 'wf-label' }, h('span', { class: 'wf-swatch' }), h('span', { class: 'wf-name' }, row.name), row.origin ? h('span', { class: 'wf-origin' }, hostOf(row.origin)) : null),
      track,
    );
  }

  private connectionItem(item: ConnectionViewItem): HTMLElement {
    if (item.kind === 'heading') {
      const s = item.source;
      const note = s.id === 'observed' ? 'connections inferred from Resource Timing' : 'the host’s connections';
      return h(
        'div',
        { class: `wf-row wf-heading${s.valid ? '' : ' invalid'}`, 'data-source': s.id },
        h('div', { class: 'wf-label' }, h('strong', {}, s.title)),
        h('div', { class: 'wf-heading-note' }, `${s.lanes.length} connections · ${note}${s.valid ? '' : ' · invalid: requests failed'}`),
      );
    }
    const { lane } = item;
    const label = lane.source === 'not-exposed' ? 'hidden' : lane.source === 'cache' ? 'cache' : `#${lane.n}`;
    return h(
      'div',
      { class: `wf-row wf-lane src-${lane.source}`, 'data-connection': lane.key, 'data-source': item.source.id, 'data-requests': lane.rows.length },
      h('div', { class: 'wf-label', title: `${lane.origin} ${label}${lane.protocol ? ` · ${lane.protocol}` : ''}` }, h('span', { class: 'wf-conn' }, label), h('span', { class: 'wf-name' }, hostOf(lane.origin))),
      h('div', { class: 'wf-track' }, ...laneSegments(lane).map((s) => this.segment(s, s.row))),
    );
  }

  private segment(p: Phase, row: WaterfallRow): HTMLElement {
    const span = this.axis.spanMs;
    return h('span', {
      class: `wf-seg ph-${p.kind} t-${row.type}`,
      'data-key': row.key,
      style: `left:${pct(p.startMs / span)};width:max(${pct((p.endMs - p.startMs) / span)},1px)`,
    });
  }

  private hover(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    const rowEl = target?.closest<HTMLElement>('.wf-row');
    const item = rowEl?.dataset.index === undefined ? undefined : this.items[Number(rowEl.dataset.index)];
    if (!item) return this.tip.hide();
    if (!('kind' in item)) return this.tip.show(item.name, rowDetails(item), e.clientX, e.clientY);
    if (item.kind === 'heading') return this.tip.hide();
    const key = target?.closest<HTMLElement>('.wf-seg')?.dataset.key;
    const row = key === undefined ? undefined : item.lane.rows.find((r) => r.key === key);
    if (row) this.tip.show(row.name, rowDetails(row), e.clientX, e.clientY);
    else this.tip.show(hostOf(item.lane.origin), laneDetails(item.lane), e.clientX, e.clientY);
  }
}

/** The phase names for the legend. */
export const LEGEND_PHASES = (['queued', 'dns', 'connect', 'tls', 'wait', 'download'] as const).map((k) => [k, PHASE_LABELS[k]] as const);

function pct(frac: number): string {
  return `${(Math.min(Math.max(frac, 0), 1) * 100).toFixed(3)}%`;
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
