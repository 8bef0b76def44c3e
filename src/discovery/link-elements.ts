import { asciiTokens, normalizeKeyword } from './ascii';
import { classifyElement } from './classify';
import type { DocumentStyles, ReportResource } from './document-styles';
import { pickFavicons, type IconLink } from './icon-select';
import { choosePreloadImage } from './image-choice';
import { matchesMedia } from './media-query';
import type { Attributes, ResourceReference } from './reference';
import { resolveHttpUrl } from './resolve-url';
import type { HtmlScannerOptions } from './types';
import type { Viewport } from './viewport';

/** What `<link>` handling needs of the scanner, at the tag being parsed. */
export interface LinkContext {
  documentUrl: string;
  viewport: Viewport;
  styles: DocumentStyles;
  onOriginHint: HtmlScannerOptions['onOriginHint'];
  /** The base URL now (a `<base href>` may have set it). */
  baseUrl(): string;
  /** Byte offset of the tag being parsed. */
  tagOffset(): number;
  /** Resolves against the base and reports; the URL when it was new. */
  reportReference(tag: string, ref: ResourceReference): string | undefined;
  report: ReportResource;
}

/**
 * `<link>` elements as a browser acts on them: style sheets (their bodies then matter to
 * `DocumentStyles`), preloads for the matching media (an image preload chosen like the browser
 * chooses), the manifest, origin hints, and icons, of which one favicon is picked at the end.
 */
export class LinkElements {
  private readonly hinted = new Set<string>();
  private readonly icons: IconLink[] = [];
  private readonly iconOffsets: number[] = [];

  constructor(private readonly cx: LinkContext) {}

  /** `<link rel=preconnect|dns-prefetch href>`: the origin, once (`//host` resolves against the base). */
  originHint(attribs: Attributes): void {
    if (!this.cx.onOriginHint) return;
    const rels = (attribs.rel ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    const rel = rels.includes('preconnect') ? 'preconnect' : rels.includes('dns-prefetch') ? 'dns-prefetch' : undefined;
    if (!rel || attribs.href === undefined) return;
    const url = resolveHttpUrl(attribs.href, this.cx.baseUrl());
    if (url === undefined) return;
    const origin = new URL(url).origin;
    if (this.hinted.has(origin)) return;
    this.hinted.add(origin);
    this.cx.onOriginHint({ origin, rel });
  }

  /** Icons are collected for the end; a preload with `media` or `imagesrcset` is chosen like the browser does. */
  link(attribs: Attributes): void {
    const cx = this.cx;
    const rel = new Set(asciiTokens(attribs.rel ?? ''));
    if (rel.has('icon') && !rel.has('stylesheet') && !rel.has('preload')) {
      if (attribs.href !== undefined) {
        this.icons.push({ href: attribs.href, base: cx.baseUrl(), sizes: attribs.sizes, type: attribs.type });
        this.iconOffsets.push(cx.tagOffset());
      }
      return;
    }
    if (rel.has('manifest') && attribs.href !== undefined) {
      // Chromium fetches the web app manifest of every page it loads (not its icons).
      cx.reportReference('link', { value: attribs.href, kind: 'other', priority: 'other', attribute: 'href' });
      return;
    }
    const refs = classifyElement('link', attribs, { mediaParent: undefined, inViewportGuess: false });
    if (rel.has('preload')) {
      if (!matchesMedia(attribs.media, cx.viewport)) return; // a preload for other media is not fetched
      if (normalizeKeyword(attribs.as) === 'image') {
        const first = refs[0];
        const choice = choosePreloadImage(attribs, cx.viewport);
        if (first !== undefined && choice !== undefined) cx.reportReference('link', { ...first, value: choice.value, attribute: choice.attribute });
        return;
      }
    }
    for (const ref of refs) {
      if (ref.kind === 'icon') continue; // apple-touch-icon, mask-icon: not fetched by a desktop browser
      const url = cx.reportReference('link', ref);
      if (ref.kind === 'stylesheet' && url !== undefined) cx.styles.linked(url, attribs.media, () => cx.tagOffset(), !rel.has('alternate'));
    }
  }

  /** At the document's end: the favicon(s) the browser would fetch, `/favicon.ico` when none is named. */
  reportFavicon(): void {
    for (const url of pickFavicons(this.icons, this.cx.documentUrl, this.cx.viewport.dpr)) {
      const i = this.icons.findIndex((icon) => resolveHttpUrl(icon.href, icon.base) === url);
      const offset = i >= 0 ? (this.iconOffsets[i] as number) : 0;
      this.cx.report(url, { kind: 'icon', priority: 'other', attribute: i >= 0 ? 'href' : 'implicit' }, i >= 0 ? 'link' : '#document', () => offset);
    }
  }
}
