import { Parser } from 'htmlparser2';
import { normalizeKeyword } from './ascii';
import { ChunkDecoder } from './chunk-decoder';
import { classifyCssReference, classifyElement, isLazy } from './classify';
import { extractCssUrls } from './css-urls';
import { DiscoveryError } from './errors';
import { isPrintOnly } from './media';
import type { Attributes, ResourceReference } from './reference';
import { isAbsoluteUrl, resolveHttpUrl } from './resolve-url';
import type { DiscoveredResource, HtmlScanner, HtmlScannerOptions } from './types';
import { Utf8OffsetMap, utf8Length } from './utf8-offsets';

/**
 * Elements whose content a scripting-enabled browser never turns into fetches: `<template>`
 * content is inert, and `<noscript>`, `<iframe>`, `<noembed>`, `<noframes>` content is raw text.
 * htmlparser2 parses their content as markup, so the scanner ignores everything inside them.
 */
const INERT_CONTENT = new Set(['template', 'noscript', 'iframe', 'noembed', 'noframes']);

/** Elements that give `<source>` its meaning. */
type MediaContainer = 'picture' | 'video' | 'audio';
function isMediaContainer(tag: string): tag is MediaContainer {
  return tag === 'picture' || tag === 'video' || tag === 'audio';
}

/** What the scanner needs from a classifier to report a resource. */
type Classified = Pick<ResourceReference, 'kind' | 'priority' | 'attribute' | 'scriptMode' | 'lazy'>;

/** An open `<style>` whose text is being collected. */
interface OpenStyle {
  /** Byte offset of the first byte of the style text. */
  offset: number;
  text: string;
  printOnly: boolean;
}

/**
 * The streaming scanner behind `createHtmlScanner`. Event flow: bytes → `ChunkDecoder` → text →
 * (`Utf8OffsetMap`, htmlparser2) → element callbacks → classified references → resolved,
 * de-duplicated resources in `queue` → `onResource`.
 *
 * Resources are queued during `parser.write` and delivered right after it returns, still inside
 * the caller's `write()`. So a throwing `onResource` never leaves htmlparser2 half-way through a
 * chunk: the exception propagates out of `write()`/`end()` and the undelivered resources go out on
 * the next call.
 */
class StreamingHtmlScanner implements HtmlScanner {
  private readonly parser: Parser;
  private readonly decoder = new ChunkDecoder();
  private readonly offsets = new Utf8OffsetMap();
  /** URLs already reported. Seeded with the document: it is being fetched already. */
  private readonly seen = new Set<string>();
  private readonly queue: DiscoveredResource[] = [];
  private readonly onResource: (resource: DiscoveredResource) => void;
  private readonly firstImagesVisible: number;
  private readonly onOriginHint: HtmlScannerOptions['onOriginHint'];
  private readonly hinted = new Set<string>();

  private base: string;
  /** Only the first `<base href>` counts (HTML "frozen base URL"). */
  private baseSeen = false;
  private bytes = 0;
  private ended = false;
  /** UTF-16 index of the `<` of the tag being parsed. */
  private tagStart = 0;
  /** Depth of open `INERT_CONTENT` elements; > 0 means nothing is reported. */
  private inertDepth = 0;
  private readonly containers: Array<{ tag: MediaContainer; inViewportGuess: boolean }> = [];
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
    this.onResource = options.onResource;
    this.onOriginHint = options.onOriginHint;
    this.base = options.documentUrl;
    const self = resolveHttpUrl(options.documentUrl, options.documentUrl);
    if (self !== undefined) this.seen.add(self);

    this.parser = new Parser({
      onopentagname: (name) => this.onOpenTagName(name),
      onopentag: (name, attribs) => this.onOpenTag(name, attribs),
      ontext: (text) => this.onText(text),
      onclosetag: (name) => this.onCloseTag(name),
    });
  }

  get baseUrl(): string {
    return this.base;
  }

  get bytesSeen(): number {
    return this.bytes;
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
    }
    this.deliver();
  }

  private deliver(): void {
    while (this.queue.length > 0) {
      const resource = this.queue.shift();
      if (resource !== undefined) this.onResource(resource);
    }
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
      if (tag === 'picture') inViewportGuess = this.takeImageSlot();
      this.handleElement(tag, attribs);
    }
    if (isMediaContainer(tag)) this.containers.push({ tag, inViewportGuess });
    // Counted even inside inert content so that every close tag has its open tag.
    if (INERT_CONTENT.has(tag)) this.inertDepth++;
  }

  private onCloseTag(tag: string): void {
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
      for (const ref of extractCssUrls(style.text, this.base)) {
        this.report(ref.url, classifyCssReference(ref, style.printOnly), 'style', () => style.offset);
      }
    }
  }

  private onText(text: string): void {
    if (this.style !== undefined) this.style.text += text;
  }

  private handleElement(tag: string, attribs: Attributes): void {
    if (tag === 'link' && this.onOriginHint) this.handleOriginHint(attribs);
    if (tag === 'base') {
      this.handleBase(attribs);
    } else {
      const container = this.containers[this.containers.length - 1];
      let inViewportGuess = false;
      if (tag === 'img') {
        // Inside <picture> the picture took the slot; a lazy image is never guessed visible.
        inViewportGuess = container?.tag === 'picture' ? container.inViewportGuess : !isLazy(attribs) && this.takeImageSlot();
      } else if (tag === 'source') {
        inViewportGuess = container?.inViewportGuess ?? false;
      }
      for (const ref of classifyElement(tag, attribs, { mediaParent: container?.tag, inViewportGuess })) {
        this.reportReference(tag, ref);
      }
    }
    if (attribs.style !== undefined) this.handleStyleAttribute(tag, attribs.style);
    if (tag === 'style' && isCssType(attribs.type)) {
      // The text starts right after the `>` (`parser.endIndex`). Looked up after the tag's own
      // references so offsets are asked for in document order.
      const offset = this.offsets.byteOffsetOf(this.parser.endIndex + 1);
      this.style = { offset, text: '', printOnly: isPrintOnly(attribs.media) };
    }
  }

  /** `<link rel=preconnect|dns-prefetch href>`: the origin, once (`//host` resolves against the base). */
  private handleOriginHint(attribs: Attributes): void {
    const rels = (attribs.rel ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    const rel = rels.includes('preconnect') ? 'preconnect' : rels.includes('dns-prefetch') ? 'dns-prefetch' : undefined;
    if (!rel || attribs.href === undefined) return;
    const url = resolveHttpUrl(attribs.href, this.base);
    if (url === undefined) return;
    const origin = new URL(url).origin;
    if (this.hinted.has(origin)) return;
    this.hinted.add(origin);
    this.onOriginHint?.({ origin, rel });
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

  /** `style=""` holds declarations, so only `url()`s count; `@import` is invalid there. */
  private handleStyleAttribute(tag: string, css: string): void {
    for (const ref of extractCssUrls(css, this.base)) {
      if (ref.kind !== 'url') continue;
      this.report(ref.url, { kind: 'image', priority: 'image', attribute: 'style' }, tag, () => this.tagOffset());
    }
  }

  private reportReference(tag: string, ref: ResourceReference): void {
    const url = resolveHttpUrl(ref.value, this.base);
    if (url === undefined) return;
    this.report(url, ref, tag, () => this.tagOffset());
  }

  /**
   * Queues `url` unless already reported: first discovery wins, even if a later one would rank
   * higher (the scheduler already holds that request; re-prioritising is not this module's job).
   * `offset` is a thunk so byte offsets are only computed for URLs actually reported.
   */
  private report(url: string, c: Classified, tag: string, offset: () => number): void {
    if (this.seen.has(url)) return;
    this.seen.add(url);
    const resource: DiscoveredResource = { url, kind: c.kind, priority: c.priority, offset: offset(), tag, attribute: c.attribute };
    if (c.scriptMode !== undefined) resource.scriptMode = c.scriptMode;
    if (c.lazy) resource.lazy = true;
    this.queue.push(resource);
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

/** `<style type>`: absent, empty or `text/css` is CSS; anything else is not applied. */
function isCssType(type: string | undefined): boolean {
  const t = normalizeKeyword(type);
  return t === '' || t === 'text/css';
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Creates a streaming scanner for one HTML document (UTF-8). Feed it with `write()` as bytes or
 * text arrive; each subresource URL is reported through `onResource` as soon as the tag holding it
 * has been parsed (for `<style>` text: at `</style>`), then `end()` once.
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
