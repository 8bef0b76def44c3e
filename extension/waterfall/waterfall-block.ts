import type { PageRecord } from '../../src/page/model/page-record';
import { buildWaterfallModel, TYPE_CLASSES } from '../../src/page/views/waterfall';
import { h } from '../ui/dom';
import { LEGEND_PHASES, WaterfallView, type WaterfallMode, type WaterfallState } from './waterfall-view';

export interface WaterfallBlockOptions {
  height: number;
  labelWidth: number;
  rowHeight?: number;
  /** Shown in the popup: opens the full-page view for this tab. */
  onOpenFull?: () => void;
}

/** The user's choices, kept while the page (popup or full view) is open. */
const state: WaterfallState = { mode: 'requests', source: 'observed', scrollTop: 0 };

/**
 * The waterfall with its controls: request view (one source at a time: the observed load or a
 * replayed strategy) or connection view (every source, one lane per connection, on one axis).
 */
export function waterfallBlock(page: PageRecord, options: WaterfallBlockOptions): HTMLElement {
  const model = buildWaterfallModel(page);
  if (!model.sources.some((s) => s.id === state.source)) state.source = 'observed';
  const view = new WaterfallView(model, state, options);

  const modeButton = (mode: WaterfallMode, label: string) => {
    const b = h('button', { type: 'button', class: 'seg-button', 'data-testid': `waterfall-mode-${mode}`, 'aria-pressed': String(state.mode === mode) }, label);
    b.addEventListener('click', () => {
      state.mode = mode;
      state.scrollTop = 0;
      for (const other of modes.children) other.setAttribute('aria-pressed', String(other === b));
      select.disabled = mode === 'connections';
      view.render();
    });
    return b;
  };
  const modes = h('div', { class: 'seg', role: 'group', 'aria-label': 'Waterfall view' }, modeButton('requests', 'Requests'), modeButton('connections', 'Connections'));
  const select = h('select', { 'data-testid': 'waterfall-source', 'aria-label': 'Which load to show', disabled: state.mode === 'connections' });
  for (const s of model.sources) {
    const o = h('option', { value: s.id }, `${s.title} · ${s.rows.length}`);
    o.selected = s.id === state.source;
    select.append(o);
  }
  select.addEventListener('change', () => {
    state.source = select.value;
    state.scrollTop = 0;
    view.render();
  });
  let full: HTMLButtonElement | null = null;
  if (options.onOpenFull) {
    full = h('button', { type: 'button', class: 'link-button', 'data-testid': 'waterfall-open-full', title: 'Open the waterfall in a tab of its own' }, 'Full view ↗');
    full.addEventListener('click', options.onOpenFull);
  }

  const observed = model.sources[0];
  const summary = observed
    ? `${observed.rows.length} requests` + (model.sources.length > 1 ? ` · ${model.sources.length - 1} replays` : '')
    : '';
  // Lay out once the element has a size, and again whenever it changes (the full view resizes).
  new ResizeObserver(() => view.render()).observe(view.el);
  return h(
    'section',
    { class: 'block wf', 'data-testid': 'waterfall-block' },
    h('div', { class: 'wf-title' }, h('h2', {}, 'Waterfall'), h('span', { class: 'muted wf-summary' }, summary), full),
    h('div', { class: 'wf-toolbar' }, modes, select),
    legend(),
    observed && observed.rows.length === 0 ? h('p', { class: 'muted' }, 'No requests recorded yet.') : null,
    view.el,
  );
}

function legend(): HTMLElement {
  return h(
    'div',
    { class: 'wf-legend' },
    h('span', { class: 'wf-legend-group' }, ...LEGEND_PHASES.map(([kind, label]) => h('span', { class: `key ph-${kind}` }, label.replace(' (TTFB)', '')))),
    h('span', { class: 'wf-legend-group' }, ...TYPE_CLASSES.filter((t) => t !== 'media').map((t) => h('span', { class: `key t-${t}` }, t === 'stylesheet' ? 'css' : t === 'document' ? 'doc' : t))),
    h('span', { class: 'wf-legend-group' }, h('span', { class: 'key mk-dcl' }, 'DCL'), h('span', { class: 'key mk-load' }, 'load'), h('span', { class: 'key mk-discovery' }, 'found')),
  );
}
