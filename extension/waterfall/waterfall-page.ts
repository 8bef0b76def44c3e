/**
 * The full-page waterfall (`waterfall.html?tabId=N`), opened from the popup for pages too large
 * for it: the same view with room for long names and a wider axis.
 */
import { h } from '../ui/dom';
import { applyTheme, themeToggle } from '../ui/theme';
import { ask } from '../ui/ui-client';
import { waterfallBlock } from './waterfall-block';

applyTheme();
const app = document.getElementById('app') as HTMLElement;
document.getElementById('toolbar')?.append(themeToggle());

async function main(): Promise<void> {
  const param = new URLSearchParams(location.search).get('tabId');
  if (param === null || !/^\d+$/.test(param)) {
    app.replaceChildren(h('p', { class: 'empty-state' }, 'Open this view from the getlist popup of a tab.'));
    return;
  }
  const reply = await ask({ type: 'get-page', tabId: Number(param) });
  if (reply.type === 'error') {
    app.replaceChildren(h('p', { class: 'empty-state error-text' }, `getlist’s background did not answer: ${reply.message} (${reply.code})`));
    return;
  }
  if (!reply.page) {
    app.replaceChildren(h('p', { class: 'empty-state' }, 'That tab has no page recorded (closed, or not loaded since getlist started).'));
    return;
  }
  document.title = `getlist waterfall · ${reply.page.url}`;
  const height = Math.max(240, window.innerHeight - 190);
  app.replaceChildren(h('p', { class: 'page-url', 'data-testid': 'page-url', title: reply.page.url }, reply.page.url), waterfallBlock(reply.page, { height, labelWidth: 320, rowHeight: 20 }));
}

main().catch((e: unknown) => app.replaceChildren(h('p', { class: 'empty-state error-text' }, `getlist waterfall error: ${e instanceof Error ? e.message : String(e)}`)));
