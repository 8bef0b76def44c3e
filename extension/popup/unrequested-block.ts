import type { PageRecord } from '../../src/page/model/page-record';
import { unrequestedDiscoveries } from '../../src/page/model/replay-list';
import { h } from '../ui/dom';

/**
 * The discovery claims the browser never acted on (a `srcset` candidate it did not pick, a lazy
 * image it never reached): found in the page, never requested (no webRequest request for the
 * URL), so a replay does not fetch them. Nothing to say, nothing rendered (null). The list is
 * collapsed; each entry is `li[data-url]` with the element that named it.
 */
export function unrequestedBlock(page: PageRecord): HTMLElement | null {
  const unrequested = unrequestedDiscoveries(page);
  if (unrequested.length === 0) return null;
  const n = unrequested.length;
  return h(
    'section',
    { class: 'block', 'data-testid': 'unrequested' },
    h(
      'details',
      {},
      h('summary', { 'data-testid': 'unrequested-summary' }, `${n} discovered but never requested by the browser — not replayed`),
      h('ul', { class: 'unrequested-list' }, ...unrequested.map((d) => h('li', { 'data-url': d.url, title: d.url }, h('code', {}, `<${d.tag}>`), ' ', d.url))),
    ),
  );
}
