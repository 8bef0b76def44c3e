import type { HintList } from '../../src/hints/hint-types';
import type { ContentHintsReply } from '../../src/page/messages';
import { browser } from '../platform/browser-api';

/**
 * Where the browser ignores a DNR-added `Link` header (Firefox ESR), the hints go in as `<link>`
 * elements, from document_start: before the parser reaches the document's own references. Each
 * element carries exactly the `as`, `type` and `crossorigin` of the request that will consume it.
 */
export function insertHintLinks(doc: Document): void {
  let reply: Promise<ContentHintsReply | undefined>;
  try {
    reply = browser.runtime.sendMessage({ channel: 'content', type: 'hints' }) as Promise<ContentHintsReply | undefined>;
  } catch {
    return;
  }
  reply.then((r) => r?.list && insert(doc, r.list)).catch(() => undefined);
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
