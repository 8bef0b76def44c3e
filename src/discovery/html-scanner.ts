import { DomHandler } from 'domhandler';
import { Parser } from 'htmlparser2';
import { asciiTokens, normalizeKeyword } from './ascii';
import { ChunkDecoder } from './chunk-decoder';
import { classifyCssReference, classifyElement, imagePriority, isLazy } from './classify';
import { importPrefix } from './css-import-prefix';
import { modelStylesheet, type SheetModel } from './css-model';
import { DiscoveryError } from './errors';
import { pickFavicons, type IconLink } from './icon-select';
import { chooseImg, choosePictureSource, choosePreloadImage, type ImageChoice } from './image-choice';
import { BLOCK_ELEMENTS, LayoutEstimate } from './layout-estimate';
import { matchesMedia } from './media-query';
import { withLegacyQuery } from './legacy-query';
import { mixedContentAction, upgradeToHttps } from './mixed-content';
import type { Attributes, ResourceReference } from './reference';
import { isAbsoluteUrl, resolveHttpUrl } from './resolve-url';
import { StyleResolver } from './style-resolver';
import type { DiscoveredResource, HtmlScanner, HtmlScannerOptions } from './types';
import { Utf8OffsetMap, utf8Length } from './utf8-offsets';
import { viewportOf, type Viewport } from './viewport';

/**
 * Elements whose content a scripting-enabled browser never turns into fetches: `<template>`
 * content is inert, and `<noscript>`, `<iframe>`, `<noembed>`, `<noframes>` content is raw text.
 * htmlparser2 parses their content as markup, so the scanner ignores everything inside them (and
 * keeps it out of the DOM that style rules are matched against).
 */
const INERT_CONTENT = new Set(['template', 'noscript', 'iframe', 'noembed', 'noframes']);

/** Elements whose `background` attribute a browser still honours (HTML §15.3.3). */
const LEGACY_BACKGROUND = new Set(['body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);

/** Elements that give `<source>` its meaning. */
type MediaContainer = 'picture' | 'video' | 'audio';
function isMediaContainer(tag: string): tag is MediaContainer {
  return tag === 'picture' || tag === 'video' || tag === 'audio';
}

/** What the scanner needs from a classifier to report a resource. */
type Classified = Pick<ResourceReference, 'kind' | 'priority' | 'attribute' | 'scriptMode' | 'lazy'>;

/** Where a style sheet's fetches are attributed: its `<style>`/`<link>` and the cascade position. */
interface SheetRef {
  tag: 'style' | 'css';
  offset: number;
  position: number;
}

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
 * candidate, one `<picture>` source, one favicon) → resolved, de-duplicated resources in `queue`
 * → `onResource`. The same parser feeds a DOM (`domhandler`) that style rules are matched
 * against: a `url()` in a style sheet is reported when an element matching its rule is known —
 * at the sheet's end if one already exists, later when a sheet arrives, or at the document's end.
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
  /** URLs already reported. Seeded with the document: it is being fetched already. */
  private readonly seen = new Set<string>();
  private readonly queue: DiscoveredResource[] = [];
  private readonly onResource: (resource: DiscoveredResource) => void;
  private readonly firstImagesVisible: number;
  private readonly onOriginHint: HtmlScannerOptions['onOriginHint'];
  private readonly hinted = new Set<string>();
  private readonly viewport: Viewport;
  private readonly documentUrl: string;
  private readonly layout: LayoutEstimate;
  private readonly styles: StyleResolver<SheetRef>;
  /** External sheets reported so far, by URL: their media and cascade position. */
  private readonly sheets = new Map<string, { media: string | undefined; ref: SheetRef; applied: boolean }>();
  private readonly icons: IconLink[] = [];
  private readonly favicon: boolean;
  /** The document's encoding (WHATWG name): queries of its URLs are encoded in it. */
  private readonly encoding: string;
  private iconOffsets: number[] = [];

  private base: string;
  /** Only the first `<base href>` counts (HTML "frozen base URL"). */
  private baseSeen = false;
  private bytes = 0;
  private ended = false;
  private sheetPosition = 0;
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
    this.styles = new StyleResolver(this.viewport);
    this.onResource = options.onResource;
    this.onOriginHint = options.onOriginHint;
    this.favicon = options.favicon ?? true;
    this.encoding = options.encoding ?? 'utf-8';
    this.documentUrl = options.documentUrl;
    this.base = options.documentUrl;
    const self = resolveHttpUrl(options.documentUrl, options.documentUrl);
    if (self !== undefined) this.seen.add(self);

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
    return this.styles.unmatched();
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
      this.resolveStyles();
      if (this.favicon) this.reportFavicon();
    }
    this.deliver();
  }

  addStylesheet(url: string, css: string): void {
    const sheet = this.sheets.get(url);
    if (sheet === undefined || !sheet.applied) return;
    sheet.applied = false; // one body per sheet
    this.addSheetText(css, url, sheet.media, sheet.ref);
    this.resolveStyles();
    this.deliver();
  }

  addStylesheetStart(url: string, cssStart: string): boolean {
    const sheet = this.sheets.get(url);
    if (sheet === undefined || !sheet.applied) return false;
    const { prefix, done } = importPrefix(cssStart);
    if (prefix !== '') {
      this.reportImports(modelStylesheet(prefix, { baseUrl: url, media: sheet.media, dpr: this.viewport.dpr }), sheet.ref);
      this.deliver();
    }
    return !done;
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
      this.addSheetText(style.text, this.base, style.media, { tag: 'style', offset: style.offset, position: this.sheetPosition++ });
      this.resolveStyles();
    }
  }

  private onText(text: string): void {
    if (this.style !== undefined) this.style.text += text;
  }

  private handleElement(tag: string, attribs: Attributes): void {
    if (tag === 'link' && this.onOriginHint) this.handleOriginHint(attribs);
    if (tag === 'base') {
      this.handleBase(attribs);
    } else if (tag === 'img') {
      this.handleImg(attribs);
    } else if (tag === 'source' && this.containers[this.containers.length - 1]?.tag === 'picture') {
      this.handlePictureSource(attribs);
    } else if (tag === 'link') {
      this.handleLink(attribs);
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
    if (attribs.style !== undefined) this.handleStyleAttribute(tag, attribs.style);
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
      if (url !== undefined) this.report(url, { kind: 'image', priority, attribute: chosen.choice.attribute, ...lazy }, 'source', () => chosen.offset, deferred);
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

  /** Icons are collected for the end; a preload with `media` or `imagesrcset` is chosen like the browser does. */
  private handleLink(attribs: Attributes): void {
    const rel = new Set(asciiTokens(attribs.rel ?? ''));
    if (rel.has('icon') && !rel.has('stylesheet') && !rel.has('preload')) {
      if (attribs.href !== undefined) {
        this.icons.push({ href: attribs.href, base: this.base, sizes: attribs.sizes, type: attribs.type });
        this.iconOffsets.push(this.tagOffset());
      }
      return;
    }
    if (rel.has('manifest') && attribs.href !== undefined) {
      // Chromium fetches the web app manifest of every page it loads (not its icons).
      this.reportReference('link', { value: attribs.href, kind: 'other', priority: 'other', attribute: 'href' });
      return;
    }
    const refs = classifyElement('link', attribs, { mediaParent: undefined, inViewportGuess: false });
    if (rel.has('preload')) {
      if (!matchesMedia(attribs.media, this.viewport)) return; // a preload for other media is not fetched
      if (normalizeKeyword(attribs.as) === 'image') {
        const first = refs[0];
        const choice = choosePreloadImage(attribs, this.viewport);
        if (first !== undefined && choice !== undefined) this.reportReference('link', { ...first, value: choice.value, attribute: choice.attribute });
        return;
      }
    }
    for (const ref of refs) {
      if (ref.kind === 'icon') continue; // apple-touch-icon, mask-icon: not fetched by a desktop browser
      const url = this.reportReference('link', ref);
      if (ref.kind === 'stylesheet' && url !== undefined && !this.sheets.has(url)) {
        const applied = !rel.has('alternate');
        this.sheets.set(url, { media: attribs.media, ref: { tag: 'css', offset: this.tagOffset(), position: this.sheetPosition++ }, applied });
      }
    }
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

  /** `style=""` holds declarations, so only `url()`s count (`image-set()` reduced to its choice). */
  private handleStyleAttribute(tag: string, css: string): void {
    const model = modelStylesheet(`x{${css}}`, { baseUrl: this.base, dpr: this.viewport.dpr });
    // Inline declarations win the cascade for their element; one entry per selector, and there is one.
    for (const rule of model.imageRules) {
      for (const d of rule.declarations) for (const url of d.urls) this.report(url, { kind: 'image', priority: 'image', attribute: 'style' }, tag, () => this.tagOffset());
    }
  }

  /** A style sheet's text: its `@import`s are due now, its rules go to the resolver. */
  private addSheetText(css: string, baseUrl: string, media: string | undefined, ref: SheetRef): void {
    const model = modelStylesheet(css, { baseUrl, media, dpr: this.viewport.dpr });
    this.reportImports(model, ref);
    this.styles.add(model, ref, ref.position);
  }

  private reportImports(model: SheetModel, ref: SheetRef): void {
    for (const imp of model.imports) {
      const c = classifyCssReference({ url: imp.url, kind: 'import', offset: 0, inFontFace: false, ...(imp.media ? { media: imp.media } : {}) });
      if (this.report(imp.url, c, ref.tag, () => ref.offset) && !this.sheets.has(imp.url)) {
        // An imported sheet cascades before its importer's own rules.
        this.sheets.set(imp.url, { media: imp.media, ref: { ...ref, position: ref.position - 0.5 }, applied: true });
      }
    }
  }

  /** Reports what the style sheets make due, given the DOM parsed so far. */
  private resolveStyles(): void {
    for (const f of this.styles.resolve(this.dom.root)) {
      const c: Classified = f.kind === 'font' ? { kind: 'font', priority: 'font', attribute: 'url()' } : { kind: 'image', priority: 'image', attribute: 'url()' };
      this.report(f.url, c, f.sheet.tag, () => f.sheet.offset);
    }
  }

  private reportFavicon(): void {
    for (const url of pickFavicons(this.icons, this.documentUrl, this.viewport.dpr)) {
      const i = this.icons.findIndex((icon) => resolveHttpUrl(icon.href, icon.base) === url);
      const offset = i >= 0 ? (this.iconOffsets[i] as number) : 0;
      this.report(url, { kind: 'icon', priority: 'other', attribute: i >= 0 ? 'href' : 'implicit' }, i >= 0 ? 'link' : '#document', () => offset);
    }
  }

  private reportReference(tag: string, ref: ResourceReference, deferred = false): string | undefined {
    const url = resolveHttpUrl(withLegacyQuery(ref.value, this.encoding), this.base);
    if (url === undefined) return undefined;
    return this.report(url, ref, tag, () => this.tagOffset(), deferred) ? url : undefined;
  }

  /**
   * Queues `url` unless already reported: first discovery wins, even if a later one would rank
   * higher (the scheduler already holds that request; re-prioritising is not this module's job).
   * Mixed content is upgraded or marked blocked here. `offset` is a thunk so byte offsets are only
   * computed for URLs actually reported. Returns whether it was new.
   */
  private report(rawUrl: string, c: Classified, tag: string, offset: () => number, deferred = false): boolean {
    let url = rawUrl;
    const action = mixedContentAction(this.documentUrl, url, c.kind);
    if (action === 'upgrade') url = upgradeToHttps(url);
    if (this.seen.has(url)) return false;
    this.seen.add(url);
    const resource: DiscoveredResource = { url, kind: c.kind, priority: c.priority, offset: offset(), tag, attribute: c.attribute };
    if (c.scriptMode !== undefined) resource.scriptMode = c.scriptMode;
    if (c.lazy) resource.lazy = true;
    if (deferred) resource.deferred = true;
    if (action === 'upgrade') resource.mixedContent = 'upgraded';
    if (action === 'block') resource.mixedContent = 'blocked';
    this.queue.push(resource);
    return true;
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

/** `<source type>` of audio/video a browser would try: absent, or a common audio/video type. */
function isPlayableType(type: string | undefined): boolean {
  const t = normalizeKeyword(type?.split(';')[0]);
  return t === '' || /^(video|audio)\/(mp4|webm|ogg|mpeg|mp3|wav|aac|flac|x-m4a|quicktime)$/.test(t);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
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
