import { DomHandler } from 'domhandler';
import { Parser } from 'htmlparser2';
import { isAscii } from './ascii';
import { ChunkDecoder } from './chunk-decoder';
import { classifyElement, imagePriority, isLazy } from './classify';
import { DocumentStyles, type ReportResource } from './document-styles';
import { DiscoveryError } from './errors';
import { INERT_CONTENT, isCssType, isMediaContainer, isPlayableType, LEGACY_BACKGROUND, type MediaContainer } from './html-element-rules';
import { chooseImg, choosePictureSource, type ImageChoice } from './image-choice';
import { BLOCK_ELEMENTS, LayoutEstimate } from './layout-estimate';
import { withLegacyQuery } from './legacy-query';
import { LinkElements } from './link-elements';
import type { Attributes, ResourceReference } from './reference';
import { isAbsoluteUrl, resolveHttpUrl } from './resolve-url';
import { ResourceQueue } from './resource-queue';
import type { DiscoveredResource, HtmlScanner, HtmlScannerOptions } from './types';
import { Utf8OffsetMap, utf8Length } from './utf8-offsets';
import { viewportOf, type Viewport } from './viewport';

/** An open `<style>` whose text is being collected. */
interface OpenStyle {
  offset: number;
  text: string;
  media: string | undefined;
}

interface OpenContainer {
  tag: MediaContainer;
  inViewportGuess: boolean;
  /** `<picture>`: the first usable `<source>`'s choice and the offset of its tag. */
  chosen?: { choice: ImageChoice; offset: number; base: string };
  /** `<video>`/`<audio>`: a resource is chosen (its `src`, or a `<source>`); later sources are not fetched. */
  mediaChosen?: boolean;
}

/**
 * The streaming scanner behind `createHtmlScanner`. Event flow: bytes → `ChunkDecoder` → text →
 * (`Utf8OffsetMap`, htmlparser2) → element callbacks → the browser's choices (one srcset
 * candidate, one `<picture>` source, one favicon) → resolved, de-duplicated resources in the
 * `ResourceQueue` → `onResource`. `<link>` elements are `LinkElements`' to act on. The same parser
 * feeds a DOM (`domhandler`) that `DocumentStyles` matches style rules against: a `url()` in a
 * style sheet is reported when an element matching its rule is known — at the sheet's end if one
 * already exists, later when a sheet arrives, or at the document's end.
 *
 * Resources are queued during `parser.write` and delivered right after it returns, still inside
 * the caller's `write()`. So a throwing `onResource` never leaves htmlparser2 half-way through a
 * chunk: the exception propagates out of `write()`/`end()` and the undelivered resources go out on
 * the next call.
 */
class StreamingHtmlScanner implements HtmlScanner {
  private readonly parser: Parser;
  private readonly dom = new DomHandler();
  private readonly decoder = new ChunkDecoder();
  private readonly offsets = new Utf8OffsetMap();
  private readonly resources: ResourceQueue;
  private readonly onResource: (resource: DiscoveredResource) => void;
  private readonly firstImagesVisible: number;
  private readonly viewport: Viewport;
  private readonly layout: LayoutEstimate;
  private readonly styles: DocumentStyles;
  private readonly links: LinkElements;
  private readonly favicon: boolean;
  /** The document's encoding (WHATWG name): queries of its URLs are encoded in it. */
  private readonly encoding: string;

  private base: string;
  /** Only the first `<base href>` counts (HTML "frozen base URL"). */
  private baseSeen = false;
  private bytes = 0;
  private ended = false;
  /** UTF-16 index of the `<` of the tag being parsed. */
  private tagStart = 0;
  /** Depth of open `INERT_CONTENT` elements; > 0 means nothing is reported. */
  private inertDepth = 0;
  private readonly containers: OpenContainer[] = [];
  /** Images (or pictures) that took a `firstImagesVisible` slot. */
  private imageSlotsTaken = 0;
  private style: OpenStyle | undefined;

  constructor(options: HtmlScannerOptions) {
    if (!isAbsoluteUrl(options.documentUrl)) {
      throw new DiscoveryError('E_INVALID_DOCUMENT_URL', `documentUrl is not an absolute URL: ${options.documentUrl}`);
    }
    const visible = options.firstImagesVisible ?? 0;
    if (!Number.isInteger(visible) || visible < 0) {
      throw new DiscoveryError('E_INVALID_OPTION', `firstImagesVisible must be a non-negative integer, got ${visible}`);
    }
    this.firstImagesVisible = visible;
    this.viewport = viewportOf(options.viewport);
    this.layout = new LayoutEstimate(this.viewport);
    this.onResource = options.onResource;
    this.favicon = options.favicon ?? true;
    this.encoding = options.encoding ?? 'utf-8';
    this.base = options.documentUrl;
    // Seeded with the document: it is being fetched already.
    const resources = new ResourceQueue(options.documentUrl, resolveHttpUrl(options.documentUrl, options.documentUrl));
    const report: ReportResource = (url, c, tag, offset) => resources.report(url, c, tag, offset);
    this.resources = resources;
    this.styles = new DocumentStyles(this.viewport, report);
    this.links = new LinkElements({
      documentUrl: options.documentUrl,
      viewport: this.viewport,
      styles: this.styles,
      onOriginHint: options.onOriginHint,
      baseUrl: () => this.base,
      tagOffset: () => this.tagOffset(),
      reportReference: (tag, ref) => this.reportReference(tag, ref),
      report,
    });

    const dom = this.dom;
    this.parser = new Parser({
      onparserinit: (p) => dom.onparserinit(p),
      onopentagname: (name) => this.onOpenTagName(name),
      onopentag: (name, attribs) => {
        if (this.inertDepth === 0) dom.onopentag(name, attribs);
        this.onOpenTag(name, attribs);
      },
      ontext: (text) => {
        if (this.inertDepth === 0) dom.ontext(text);
        this.onText(text);
      },
      onclosetag: (name) => {
        this.onCloseTag(name);
        if (this.inertDepth === 0) dom.onclosetag();
      },
      oncomment: () => undefined,
      onend: () => dom.onend(),
    });
  }

  get baseUrl(): string {
    return this.base;
  }

  get bytesSeen(): number {
    return this.bytes;
  }

  get unmatchedCssUrls(): number {
    return this.styles.unmatched;
  }

  write(chunk: Uint8Array | string): void {
    if (this.ended) throw new DiscoveryError('E_SCANNER_ENDED', 'write() after end()');
    this.bytes += typeof chunk === 'string' ? utf8Length(chunk) : chunk.byteLength;
    const text = this.decoder.decode(chunk);
    if (text !== '') {
      this.offsets.append(text); // before parsing: callbacks look up offsets in this text
      this.parser.write(text);
    }
    this.deliver();
  }

  end(): void {
    if (!this.ended) {
      this.ended = true;
      const tail = this.decoder.flush();
      this.offsets.append(tail);
      // An unterminated tag at EOF is dropped, as the HTML tokenizer drops it: no `>`, no element.
      this.parser.end(tail);
      this.styles.resolve(this.dom.root);
      if (this.favicon) this.links.reportFavicon();
    }
    this.deliver();
  }

  addStylesheet(url: string, css: string): void {
    if (!this.styles.sheetArrived(url, css)) return;
    this.styles.resolve(this.dom.root);
    this.deliver();
  }

  addStylesheetStart(url: string, cssStart: string): boolean {
    const more = this.styles.sheetStart(url, cssStart);
    this.deliver();
    return more;
  }

  private deliver(): void {
    this.resources.deliver(this.onResource);
  }

  /**
   * htmlparser2 has just read a tag name; `parser.endIndex` is the index just past it, and the `<`
   * sits right before the name. (Lower-casing keeps the length of every ASCII name; for the rare
   * non-ASCII name whose lower-case form differs in length, fall back to `startIndex`, which is the
   * `<` unless the tag directly follows a `</>`.)
   */
  private onOpenTagName(name: string): void {
    this.tagStart = isAscii(name) ? this.parser.endIndex - name.length - 1 : this.parser.startIndex;
  }

  private onOpenTag(tag: string, attribs: Attributes): void {
    let inViewportGuess = false;
    if (this.inertDepth === 0) {
      if (BLOCK_ELEMENTS.has(tag)) this.layout.blockBoundary();
      if (tag === 'picture') inViewportGuess = this.takeImageSlot();
      this.handleElement(tag, attribs);
    }
    // HTML media resource selection: a `src` attribute wins over every `<source>` child.
    if (isMediaContainer(tag)) this.containers.push({ tag, inViewportGuess, mediaChosen: tag !== 'picture' && attribs.src !== undefined });
    // Counted even inside inert content so that every close tag has its open tag.
    if (INERT_CONTENT.has(tag)) this.inertDepth++;
  }

  private onCloseTag(tag: string): void {
    if (this.inertDepth === 0 && BLOCK_ELEMENTS.has(tag)) this.layout.blockBoundary();
    if (isMediaContainer(tag)) {
      for (let i = this.containers.length - 1; i >= 0; i--) {
        if (this.containers[i]?.tag === tag) {
          this.containers.splice(i, 1);
          break;
        }
      }
    }
    if (INERT_CONTENT.has(tag) && this.inertDepth > 0) this.inertDepth--;
    if (tag === 'style' && this.style !== undefined) {
      const style = this.style;
      this.style = undefined;
      // The element is complete in the DOM only after this callback; its rules match what precedes it.
      this.styles.styleElement(style.text, this.base, style.media, style.offset);
      this.styles.resolve(this.dom.root);
    }
  }

  private onText(text: string): void {
    if (this.style !== undefined) this.style.text += text;
  }

  private handleElement(tag: string, attribs: Attributes): void {
    if (tag === 'link') this.links.originHint(attribs);
    if (tag === 'base') {
      this.handleBase(attribs);
    } else if (tag === 'img') {
      this.handleImg(attribs);
    } else if (tag === 'source' && this.containers[this.containers.length - 1]?.tag === 'picture') {
      this.handlePictureSource(attribs);
    } else if (tag === 'link') {
      this.links.link(attribs);
    } else if (tag === 'source' && (this.containers[this.containers.length - 1]?.mediaChosen || !isPlayableType(attribs.type))) {
      // A media element fetches one resource: later <source>s, and types it cannot play, are never tried.
    } else {
      const container = this.containers[this.containers.length - 1];
      const lazyBeyond = (tag === 'iframe' || tag === 'frame') && this.lazyBeyondFold(attribs, 'iframe');
      if (tag === 'video' || tag === 'embed' || tag === 'object' || tag === 'svg') this.layout.place(attribs);
      for (const ref of classifyElement(tag, attribs, { mediaParent: container?.tag, inViewportGuess: false })) {
        this.reportReference(tag, ref, lazyBeyond);
      }
      if (tag === 'source' && container !== undefined && attribs.src !== undefined && isPlayableType(attribs.type)) container.mediaChosen = true;
    }
    if (attribs.style !== undefined) this.styles.styleAttribute(tag, attribs.style, this.base, () => this.tagOffset());
    if (attribs.background !== undefined && LEGACY_BACKGROUND.has(tag)) {
      // HTML's presentational `background` attribute still sets a background image.
      this.reportReference(tag, { value: attribs.background, kind: 'image', priority: 'image', attribute: 'background' });
    }
    if (tag === 'style' && isCssType(attribs.type)) {
      // The text starts right after the `>` (`parser.endIndex`). Looked up after the tag's own
      // references so offsets are asked for in document order.
      const offset = this.offsets.byteOffsetOf(this.parser.endIndex + 1);
      this.style = { offset, text: '', media: attribs.media };
    }
  }

  private handleImg(attribs: Attributes): void {
    const container = this.containers[this.containers.length - 1];
    const inPicture = container?.tag === 'picture';
    // Inside <picture> the picture took the slot; a lazy image is never guessed visible.
    const inViewportGuess = inPicture ? container.inViewportGuess : !isLazy(attribs) && this.takeImageSlot();
    const priority = imagePriority(attribs, inViewportGuess);
    const deferred = this.lazyBeyondFold(attribs, 'image');
    const lazy = isLazy(attribs) ? { lazy: true as const } : {};
    const chosen = inPicture ? container.chosen : undefined;
    if (chosen !== undefined) {
      const url = chosen.choice.value === '' ? undefined : resolveHttpUrl(withLegacyQuery(chosen.choice.value, this.encoding), chosen.base);
      if (url !== undefined) this.resources.report(url, { kind: 'image', priority, attribute: chosen.choice.attribute, ...lazy }, 'source', () => chosen.offset, deferred);
      return;
    }
    const choice = chooseImg(attribs, this.viewport);
    if (choice !== undefined) this.reportReference('img', { value: choice.value, kind: 'image', priority, attribute: choice.attribute, ...lazy }, deferred);
  }

  private handlePictureSource(attribs: Attributes): void {
    const container = this.containers[this.containers.length - 1];
    if (container === undefined || container.chosen !== undefined) return;
    const choice = choosePictureSource(attribs, this.viewport);
    if (choice !== undefined) container.chosen = { choice, offset: this.tagOffset(), base: this.base };
  }

  /** A `loading=lazy` element the layout guess puts beyond the browser's loading margin. */
  private lazyBeyondFold(attribs: Attributes, kind: 'image' | 'iframe'): boolean {
    const top = this.layout.place(attribs);
    return isLazy(attribs) && this.layout.beyondLazyMargin(top, kind);
  }

  /** The first `<base href>` sets the base for everything after it; a bad one means the document URL. */
  private handleBase(attribs: Attributes): void {
    if (this.baseSeen || attribs.href === undefined) return;
    this.baseSeen = true;
    const documentUrl = this.base;
    let resolved: URL | undefined;
    try {
      resolved = new URL(attribs.href, documentUrl);
    } catch {
      resolved = undefined;
    }
    // HTML: a base URL with a data: or javascript: scheme is ignored.
    if (resolved !== undefined && resolved.protocol !== 'data:' && resolved.protocol !== 'javascript:') {
      this.base = resolved.href;
    }
  }

  private reportReference(tag: string, ref: ResourceReference, deferred = false): string | undefined {
    const url = resolveHttpUrl(withLegacyQuery(ref.value, this.encoding), this.base);
    if (url === undefined) return undefined;
    return this.resources.report(url, ref, tag, () => this.tagOffset(), deferred) ? url : undefined;
  }

  private tagOffset(): number {
    return this.offsets.byteOffsetOf(this.tagStart);
  }

  private takeImageSlot(): boolean {
    if (this.imageSlotsTaken >= this.firstImagesVisible) return false;
    this.imageSlotsTaken++;
    return true;
  }
}

/**
 * Creates a streaming scanner for one HTML document (UTF-8). Feed it with `write()` as bytes or
 * text arrive; each subresource URL is reported through `onResource` as soon as the browser would
 * know to fetch it — a tag's URL when the tag has been parsed, a style sheet's `url()` when its
 * sheet and a matching element are both known, the favicon at the end — then `end()` once.
 *
 * @throws DiscoveryError `E_INVALID_DOCUMENT_URL`, `E_INVALID_OPTION`
 */
export function createHtmlScanner(options: HtmlScannerOptions): HtmlScanner {
  return new StreamingHtmlScanner(options);
}

/**
 * Scans a whole document at once and returns what `createHtmlScanner` would report, in order.
 *
 * @param options scanner options other than the document URL and callback
 */
export function scanHtml(
  html: string | Uint8Array,
  documentUrl: string,
  options: Omit<HtmlScannerOptions, 'documentUrl' | 'onResource'> = {},
): DiscoveredResource[] {
  const found: DiscoveredResource[] = [];
  const scanner = createHtmlScanner({ ...options, documentUrl, onResource: (r) => found.push(r) });
  scanner.write(html);
  scanner.end();
  return found;
}
