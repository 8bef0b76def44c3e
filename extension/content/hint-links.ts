import type { HintList } from '../../src/page/hints/hint-types';

/**
 * Lean capture's early hints: without Detailed capture there is no declarativeNetRequest to add a
 * `Link` header, so the background pushes the page's learned list at commit (hint-push.ts,
 * `scripting.executeScript` with `injectImmediately`) and this function inserts it as `<link>`
 * elements, while the parser is still early in the document (test/e2e/hints.test.ts checks the
 * hinted requests against the test server's log). Each element carries exactly the `as`, `type`
 * and `crossorigin` of the request that will consume it, so the page's own request matches it (no
 * second fetch). A page without learned hints gets nothing: no script, no message.
 *
 * Invariant: self-contained (executeScript serialises the function's source: no imports, no outer
 * names at run time) and inserts only into the document of `url` that is HTML (Firefox addresses
 * the injection by frame, not by document: a tab that navigated meanwhile must not get another
 * page's list; a style sheet or image opened as the document gets none — its site's template list
 * would hold its load event).
 */
export function insertHintLinks(list: HintList, url: string): number {
  // Typed structurally: the background's unit tests compile this without the DOM library.
  const { document: doc, location, MutationObserver: Observer } = globalThis as unknown as PageGlobals;
  if (location.href.split('#')[0] !== url.split('#')[0]) return 0;
  if (doc.contentType !== 'text/html' && doc.contentType !== 'application/xhtml+xml') return 0;
  const toLink = (hint: HintList['preconnects'][number] | HintList['preloads'][number]) => {
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
  };
  // Chromium holds the first paint for a font preloaded while the document has no <body>; one
  // inserted after the body exists is fetched as early as the parse allows and holds nothing.
  const now = [...list.preconnects, ...list.preloads.filter((p) => !p.afterBody)].map(toLink);
  const later = list.preloads.filter((p) => p.afterBody).map(toLink);
  const insert = (links: LinkElement[], ready: boolean): boolean => {
    const parent = ready ? (doc.head ?? doc.documentElement) : null;
    parent?.append(...links);
    return parent !== null;
  };
  const pending: Array<[LinkElement[], () => boolean]> = [
    [now, () => true],
    [later, () => doc.body !== null],
  ];
  const tryAll = (): boolean => {
    for (let i = pending.length - 1; i >= 0; i--) {
      const [links, ready] = pending[i] as [LinkElement[], () => boolean];
      if (links.length === 0 || insert(links, ready())) pending.splice(i, 1);
    }
    return pending.length === 0;
  };
  if (tryAll()) return now.length + later.length;
  // Injected at commit before the parser made the document's first element — Firefox, on a
  // document whose first bytes had not arrived (docs/extension.md, "How the hints reach the
  // page") — or before it made the body: each group goes in as soon as its place exists.
  const observer = new Observer(() => {
    if (tryAll()) observer.disconnect();
  });
  observer.observe(doc, { childList: true, subtree: true });
  return now.length + later.length;
}

/** The part of the page's DOM the insertion uses. */
interface LinkElement {
  rel: string;
  href: string;
  crossOrigin: string | null;
  as: string;
  type: string;
  dataset: Record<string, string | undefined>;
  setAttribute(name: string, value: string): void;
}

interface PageDocument {
  contentType: string;
  body: object | null;
  head: { append(...nodes: LinkElement[]): void } | null;
  documentElement: { append(...nodes: LinkElement[]): void } | null;
  createElement(tag: 'link'): LinkElement;
}

interface PageGlobals {
  location: { href: string };
  document: PageDocument;
  MutationObserver: new (callback: () => void) => { observe(target: PageDocument, options: { childList: true; subtree: true }): void; disconnect(): void };
}
