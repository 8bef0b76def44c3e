import type { Detail } from '../../src/page/views/waterfall';
import { h } from '../ui/dom';

/** One floating tooltip per waterfall, showing every number of the row under the pointer. */
export class Tooltip {
  readonly el: HTMLElement;

  constructor() {
    this.el = h('div', { class: 'wf-tip', role: 'tooltip', 'data-testid': 'waterfall-tooltip', hidden: true });
  }

  show(title: string, details: readonly Detail[], x: number, y: number): void {
    const list = h('dl', {});
    for (const [label, value] of details) list.append(h('dt', {}, label), h('dd', {}, value));
    this.el.replaceChildren(h('strong', {}, title), list);
    this.el.hidden = false;
    // Keep it inside the window: flip left/up when it would overflow.
    const { innerWidth: w, innerHeight: hh } = window;
    const rect = this.el.getBoundingClientRect();
    const left = x + 14 + rect.width > w ? Math.max(4, x - 14 - rect.width) : x + 14;
    const top = y + 14 + rect.height > hh ? Math.max(4, y - 14 - rect.height) : y + 14;
    this.el.style.left = `${left}px`;
    this.el.style.top = `${top}px`;
  }

  hide(): void {
    this.el.hidden = true;
  }
}
