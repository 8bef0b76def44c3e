/**
 * Which links getlist may ask the browser to fetch before the click. Safe by construction: a
 * prefetch is a GET the user did not ask for, so it must be one the user's click would have made
 * anyway and one that changes nothing on the server. Google Web Accelerator (2005) prefetched the
 * "delete" links of web applications and destroyed their data; HTML says GET must be safe, but
 * sites do not all listen. So every doubt refuses, each with a stable reason code the popup and the
 * tests name.
 */

/** Why a link is not speculated. Codes never change once published. */
export type LinkRefusal =
  /** Not http(s). */
  | 'not-http'
  /** Another origin (without the public suffix list the registrable domain cannot be told, so same origin). */
  | 'cross-origin'
  /** `user:password@` in the URL. */
  | 'credentials'
  /** The page itself (a fragment link scrolls; it fetches nothing). */
  | 'same-page'
  /** The path names a file that is not a document (`.pdf`, `.zip`, images…). */
  | 'not-document'
  /** The link's text or path looks like an action: sign out, delete, unsubscribe, cart, checkout… */
  | 'action'
  /** A query parameter pages of this kind on the site were never seen to use. */
  | 'unknown-query'
  /** A `download` link. */
  | 'download'
  /** `target` names another window or frame. */
  | 'other-window'
  /** The document answered `Cache-Control: no-store` when it was visited before (lean capture: the browser's cache did not keep it, follow-state.ts `documentKept`). */
  | 'no-store';

/** What the content script reads of an `<a>` element. */
export interface LinkFacts {
  /** The resolved `href`. */
  href: string;
  /** Its text (or `aria-label`/`title` when it has none), trimmed. */
  text: string;
  download: boolean;
  /** The `target` attribute ('' when none). */
  target: string;
}

/** What the site was seen to do, from the learned state (SpeculationContext). */
export interface SiteFacts {
  /** Query parameter names seen on visited pages, by template key (site-template.ts). */
  queryKeys: Readonly<Record<string, readonly string[]>>;
  /** Page keys of documents seen answering `Cache-Control: no-store`. */
  noStore: readonly string[];
}

/** Tokens that mark an action rather than a page (matched as whole words of the path and text). */
const ACTION_WORDS = [
  'logout', 'logoff', 'signout', 'signoff', 'sign out', 'log out', 'sign off', 'log off',
  'delete', 'remove', 'destroy', 'erase', 'unsubscribe', 'unsub', 'optout', 'opt out',
  'cart', 'basket', 'checkout', 'check out', 'purchase', 'buy', 'pay', 'payment', 'order now', 'add to',
];
const ACTION = new RegExp(`(^| )(${ACTION_WORDS.join('|')})( |$)`);

/** Path endings of documents; any other extension is a file (`not-document`). */
const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set(['html', 'htm', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'shtml', 'cfm']);
const EXTENSION = /\.([a-z0-9]{1,8})$/i;

/** Words of a path or text: camelCase split, lower-case, every other character a space. */
export function words(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Whether a text or path reads as an action (sign out, delete, unsubscribe, cart, checkout…). */
export function looksLikeAction(s: string): boolean {
  return ACTION.test(words(s));
}

/**
 * Why `link` on the page at `pageUrl` must not be fetched ahead, or undefined when it may be.
 * `templateOf` gives a URL's template key (site-template.ts `templateKey`), passed in so this file
 * stays free of the hints' module.
 */
export function linkRefusal(link: LinkFacts, pageUrl: string, site: SiteFacts, templateOf: (url: string) => string | undefined): LinkRefusal | undefined {
  let url: URL;
  let page: URL;
  try {
    url = new URL(link.href);
    page = new URL(pageUrl);
  } catch {
    return 'not-http';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not-http';
  if (url.username !== '' || url.password !== '') return 'credentials';
  if (url.origin !== page.origin) return 'cross-origin';
  if (link.download) return 'download';
  const target = link.target.trim().toLowerCase();
  if (target !== '' && target !== '_self' && target !== '_top' && target !== '_parent') return 'other-window';
  url.hash = '';
  page.hash = '';
  if (url.href === page.href) return 'same-page';
  const ext = EXTENSION.exec(url.pathname.split('/').pop() ?? '')?.[1]?.toLowerCase();
  if (ext !== undefined && !DOCUMENT_EXTENSIONS.has(ext)) return 'not-document';
  if (looksLikeAction(decodeSafe(url.pathname)) || looksLikeAction(decodeSafe(url.search)) || looksLikeAction(link.text)) return 'action';
  const keys = queryKeysOf(url.search);
  if (keys.length > 0) {
    const known = new Set(site.queryKeys[templateOf(url.href) ?? ''] ?? []);
    if (keys.some((k) => !known.has(k))) return 'unknown-query';
  }
  if (site.noStore.includes(url.href)) return 'no-store';
  return undefined;
}

/** The parameter names of a query string (`?a=1&b` → a, b), decoded as a form does. */
export function queryKeysOf(search: string): string[] {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query === '') return [];
  return [...new Set(query.split('&').filter((p) => p !== '').map((p) => decodeSafe((p.split('=')[0] ?? '').replace(/\+/g, ' '))))];
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
