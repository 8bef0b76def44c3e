/**
 * Shapes of the demo corpus manifest. A page's manifest is what tests and the CLI reason about;
 * the bytes behind each path come from {@link PageBuild.bodyOf}.
 */

/** How a subresource is found: by parsing the document, or only by parsing a stylesheet. */
export type DiscoveredBy = 'html' | 'css';

export type ResourceKind = 'stylesheet' | 'script' | 'image' | 'font' | 'icon';

export interface CorpusResource {
  /** Root-relative path (no host), so the page works behind any origin, e.g. the link proxy. */
  readonly path: string;
  /** Exact `Content-Type` the demo server sends. */
  readonly contentType: string;
  /** Exact body size in bytes (the `Content-Length`). */
  readonly size: number;
  readonly discoveredBy: DiscoveredBy;
  readonly kind: ResourceKind;
  /** Path of the document or stylesheet whose text references this resource. */
  readonly referencedFrom: string;
  /** True for `<head>` stylesheets and synchronous `<head>` scripts. */
  readonly renderBlocking: boolean;
}

export interface CorpusPage {
  /** Canonical name, e.g. `pm95-2544-10` or `mcmanus-159`. */
  readonly name: string;
  /** Human-readable description of what the page reproduces. */
  readonly title: string;
  /** Path of the HTML document. */
  readonly path: string;
  /** Size in bytes of the HTML document. */
  readonly documentSize: number;
  /**
   * Every subresource, EXCLUDING the document itself: HTML-discovered ones in document order,
   * then CSS-discovered ones in stylesheet order. A page load makes `resources.length + 1`
   * requests.
   */
  readonly resources: readonly CorpusResource[];
}

export interface CorpusBody {
  readonly contentType: string;
  readonly body: Buffer;
}

/** One page's manifest plus a lazy source of its bodies. */
export interface PageBuild {
  readonly page: CorpusPage;
  /** The body for a path of this page (document included), or undefined if not one of its paths. */
  bodyOf(path: string): CorpusBody | undefined;
}

export const CONTENT_TYPES = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  gif: 'image/gif',
  woff2: 'font/woff2',
} as const;
