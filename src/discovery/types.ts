import type { PriorityClass } from '../core/priority';
import type { Viewport } from './viewport';

/** What a discovered URL is, as far as the markup says. */
export type ResourceKind =
  | 'stylesheet'
  | 'script'
  | 'image'
  | 'font'
  | 'iframe'
  | 'media'
  | 'track'
  | 'object'
  | 'icon'
  | 'preload'
  | 'other';

/** How a `<script src>` executes; decides whether it blocks rendering. */
export type ScriptMode = 'sync' | 'async' | 'defer' | 'module';

/** One subresource found in a document, ready to hand to the scheduler. */
export interface DiscoveredResource {
  /** Absolute http(s) URL, fragment removed. Unique within one scan (first discovery wins). */
  url: string;
  kind: ResourceKind;
  /** Scheduler class; see `classify.ts` for the rules. */
  priority: PriorityClass;
  /**
   * BYTE offset in the UTF-8 document of the `<` that starts the tag the URL was found in, or —
   * for `url()` / `@import` inside a `<style>` element — of the first byte of the style text; for
   * one inside an external sheet (tag `css`), of the `<link>` that brought the sheet in.
   */
  offset: number;
  /** Lower-case element name (`img`, `link`, `style`…); `css` for a URL found in an external CSS body. */
  tag: string;
  /**
   * `src`, `srcset`, `imagesrcset`, `href`, `poster`, `data`, `style`, `@import`, `url()`, or
   * `implicit` for the `/favicon.ico` a page without icon links gets (tag `#document`, offset 0).
   */
  attribute: string;
  /** Only for `<script src>` and `<link rel=modulepreload>`. */
  scriptMode?: ScriptMode;
  /** Present (and `true`) only for `loading=lazy` images and iframes; their priority is unchanged. */
  lazy?: true;
  /**
   * Present for a `loading=lazy` element the layout guess puts beyond the browser's lazy-loading
   * margin below the first viewport: a browser with scripting on fetches it only once scrolled
   * near, so a loader fetches it last (or not at all with `--no-lazy`).
   */
  deferred?: true;
  /**
   * For an `http:` URL in an `https:` document: `upgraded` (an image or media, fetched over
   * `https:` as browsers do — `url` is the upgraded URL) or `blocked` (anything else: a browser
   * does not fetch it, and neither may a loader; it is reported only to be listed).
   */
  mixedContent?: 'upgraded' | 'blocked';
  /**
   * Present for a URL an external style sheet's body named (`@import`, a rule's `url()`, an
   * `@font-face` source): that sheet's URL, so a loader knows what had to arrive before it.
   */
  sheet?: string;
}

export interface HtmlScannerOptions {
  /** Absolute URL of the document; relative URLs resolve against it until a `<base href>`. */
  documentUrl: string;
  /** Called once per new URL, synchronously from `write()` / `end()`, in document order. */
  onResource: (resource: DiscoveredResource) => void;
  /**
   * Called once per origin named by `<link rel=preconnect>` or `<link rel=dns-prefetch>`, as soon
   * as the tag is parsed: the page says it will need that origin, so connections can open now.
   */
  onOriginHint?: (hint: OriginHint) => void;
  /**
   * The scanner has no layout, so it cannot know which images are in the viewport. The first
   * `firstImagesVisible` non-lazy `<img>` elements (a `<picture>` counts once) are guessed to be
   * visible and classed `visible-image`. Default 0: only `fetchpriority=high` images are.
   */
  firstImagesVisible?: number;
  /**
   * Report the favicon a browser fetches after load: the best `rel=icon`, or `/favicon.ico` when
   * the page declares none. @default true
   */
  favicon?: boolean;
  /**
   * The document's character encoding (a WHATWG name, e.g. from `sniffCharset`), for the query
   * part of its URLs, which browsers encode in it. Text passed to `write()` is still UTF-8 bytes
   * or strings: decode legacy bytes first. @default 'utf-8'
   */
  encoding?: string;
  /** The screen to choose images, media queries and the lazy-loading margin for. @default 1280×800, DPR 1 */
  viewport?: Partial<Viewport>;
}

export interface OriginHint {
  /** `scheme://host[:port]`. */
  origin: string;
  rel: 'preconnect' | 'dns-prefetch';
}

/** A push-style scanner: feed it the document as it arrives. */
export interface HtmlScanner {
  /**
   * Feeds the next piece of the document. Bytes are UTF-8 and may split a character between
   * chunks. Resources whose tag ends inside this chunk are reported before `write` returns.
   */
  write(chunk: Uint8Array | string): void;
  /** Flushes the tail of the document. Idempotent; `write` after `end` throws `E_SCANNER_ENDED`. */
  end(): void;
  /** The URL relative references currently resolve against (document URL or first `<base href>`). */
  readonly baseUrl: string;
  /** UTF-8 bytes written so far (strings are counted as their UTF-8 encoding). */
  readonly bytesSeen: number;
  /**
   * The body of an external style sheet this scanner reported (`<link rel=stylesheet>` or an
   * `@import`), as text. Its `@import`s are reported at once; its `url()`s and fonts once an
   * element needs them (right away if the document has ended). Other URLs and repeated calls are
   * ignored. May be called after `end()`.
   */
  addStylesheet(url: string, css: string): void;
  /**
   * The first bytes of such a style sheet, while the rest is still on its way: the `@import`s in
   * them that are already final (css-import-prefix.ts) are reported now, so an imported sheet is
   * requested one body earlier; `addStylesheet` with the whole body later reports each only once.
   * May be called for every chunk; other URLs, and a sheet whose body was added, are ignored.
   * Returns whether an `@import` may still follow (false once a rule has started: stop calling).
   */
  addStylesheetStart(url: string, cssStart: string): boolean;
  /** `url()`s of style sheets that no element matched (counted when the document ended). */
  readonly unmatchedCssUrls: number;
}
