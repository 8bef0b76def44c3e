import type { HintList } from '../../src/hints/hint-types';
import type { ContentHintsReply } from '../../src/extension-messages/messages';
import { contentRuntime } from '../platform/content-runtime';

/**
 * Lean capture's early hints: without Detailed capture there is no declarativeNetRequest to add a
 * `Link` header, so content-start.js asks the background (one message, answered from the learned
 * state it holds in memory) and inserts `<link>` elements as soon as the answer arrives — before
 * the parser reaches most of the document (commit dbf5982 measured this about as early as the
 * header; test/e2e/hints.test.ts checks it against the test server's log). Each element carries
 * exactly the `as`, `type` and `crossorigin` of the request that will consume it, so the page's
 * own request matches it (no second fetch).
 */
export function insertHintLinks(doc: Document): void {
  // Hints are for HTML pages: a style sheet, image or text opened as the document gets none (its
  // site's template list would otherwise be preloaded into it, and hold its load event).
  if (doc.contentType !== 'text/html' && doc.contentType !== 'application/xhtml+xml') return;
  const runtime = contentRuntime();
  if (!runtime) return;
  let reply: Promise<unknown>;
  try {
    reply = runtime.sendMessage({ channel: 'content', type: 'hints' });
  } catch {
    return; // the extension was reloaded under this page
  }
  reply.then((r) => {
    const list = (r as ContentHintsReply | undefined)?.list;
    if (list) insert(doc, list);
  }).catch(() => undefined);
}

function insert(doc: Document, list: HintList): void {
  const links = [...list.preconnects, ...list.preloads].map((hint) => {
    const link = doc.createElement('link');
    link.rel = hint.rel;
    link.href = hint.href;
    if (hint.crossorigin) link.crossOrigin = hint.crossorigin;
    if (hint.rel === 'preload') {
      link.as = hint.as;
      if (hint.type) link.type = hint.type;
      if (hint.fetchpriority) link.setAttribute('fetchpriority', hint.fetchpriority);
    }
    link.dataset.getlistHint = '';
    return link;
  });
  const parent = doc.head ?? doc.documentElement;
  if (parent) parent.append(...links);
}
