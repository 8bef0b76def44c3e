/**
 * A page record read as a load the lower-bound model can judge: every request that crossed the
 * network, with what the browser measured of it and the request whose arrival let the browser
 * find it (its parent). The record keeps no initiator URL (Resource Timing names only the kind of
 * initiator), so each parent is inferred from the initiator and the times, as the browser's own
 * rules allow:
 *
 * - found by a style sheet (initiator `css`; Firefox's `@font-face` fetches, initiator `other`):
 *   the style sheet that finished last before it started — a sheet is parsed once it has arrived,
 *   and an `@import`ed sheet or a font is fetched only after that (CSS Cascade 4, `@import`; CSS
 *   Fonts 4, font loading starts when a face is used);
 * - inserted by a script (a `late` discovery, or a `fetch` / `xmlhttprequest`; initiator `script`
 *   is only the `<script>` element itself): the script that finished last before it started, found
 *   once that script has run (`complete`);
 * - anything else: the document, found from its first bytes (markup; the preload scanner).
 *
 * Responses served from the browser's cache crossed no link and are left out; a request found by a
 * cached one is found by that one's parent. The browser's own fetch of `/favicon.ico` for the tab
 * (no element names it; Chromium lists it in Resource Timing when it lands before the content script
 * reads) is no part of the page and is left out too. Pure.
 */
import type { DiscoveryRule } from '../../bound/page-structure';
import { originOf, pathOf } from '../../core/url-parts';
import { resourceType } from '../model/lean-requests';
import type { PageRecord, TimingEntry } from '../model/page-record';
import { withoutFragment } from '../model/site-rules';
import { documentResponseEnd, isHttpEntry } from '../model/timing-mapping';

/** How the browser found a request. */
export type FoundBy = 'navigation' | 'markup' | 'style-sheet' | 'script';

/** One request as this load measured it, ms from navigation start. */
export interface LoadedRequest {
  url: string;
  origin: string;
  /** The browser's resource type (webRequest's names: `stylesheet`, `font`, `image`…). */
  type: string;
  /** Body bytes as they crossed the link; 0 when the browser does not expose them. */
  size: number;
  /** Index of the request that let the browser find this one; undefined for the document. */
  parent: number | undefined;
  foundBy: FoundBy;
  discovery: DiscoveryRule;
  /** Earliest sign the browser knew of it: its DOM discovery or its fetch start. */
  discoveredMs: number;
  /** Its connection's DNS + connect + TLS, when the request opened one; undefined otherwise. */
  handshake: { startMs: number; readyMs: number } | undefined;
  sentMs: number;
  firstByteMs: number;
  doneMs: number;
  /** `h2`, `h3`, `http/1.1`, or '' when not exposed. */
  protocol: string;
}

export interface RecordedLoad {
  /** The document first; every request after its parent. */
  requests: LoadedRequest[];
}

const SCRIPT_INITIATORS = new Set(['fetch', 'xmlhttprequest']);

/** The load a record measured; undefined until the record has the document's navigation timing. */
export function recordedLoad(page: Pick<PageRecord, 'url' | 'navigation' | 'timings' | 'discoveries'>): RecordedLoad | undefined {
  const nav = page.navigation;
  if (nav?.requestStart === undefined || nav.requestStart <= 0 || nav.responseStart <= 0) return undefined;
  const documentEnd = documentResponseEnd(nav) ?? nav.responseStart;
  const requests: LoadedRequest[] = [{
    url: page.url, origin: originOf(page.url), type: 'main_frame', size: nav.encodedBodySize ?? 0,
    parent: undefined, foundBy: 'navigation', discovery: 'first-byte', discoveredMs: 0,
    handshake: handshakeOf(nav.domainLookupStart ?? nav.connectStart, nav.connectStart, nav.connectEnd),
    sentMs: nav.requestStart, firstByteMs: nav.responseStart, doneMs: documentEnd, protocol: nav.nextHopProtocol,
  }];
  const discoveries = new Map(page.discoveries.map((d) => [withoutFragment(d.url), d]));
  const entries = page.timings
    .filter((t) => isHttpEntry(t.name) && t.responseEnd > 0)
    .sort((a, b) => a.startTime - b.startTime);
  // Each entry seen so far, and the index its children take as parent: its own, or for a cached
  // response its parent's (see the module comment).
  const all: { t: TimingEntry; type: string; index: number }[] = [];
  for (const t of entries) {
    const d = discoveries.get(withoutFragment(t.name));
    if (d === undefined && pathOf(t.name) === '/favicon.ico') continue;
    const type = resourceType(t, d?.kind);
    const foundBy: FoundBy = d?.late === true || SCRIPT_INITIATORS.has(t.initiatorType) ? 'script'
      : t.initiatorType === 'css' || (type === 'font' && t.initiatorType === 'other') ? 'style-sheet' : 'markup';
    const parentOf = (wanted: string): number => {
      let best: { end: number; index: number } | undefined;
      for (const p of all) {
        if (p.type !== wanted || p.t.responseEnd > t.startTime) continue;
        if (best === undefined || p.t.responseEnd >= best.end) best = { end: p.t.responseEnd, index: p.index };
      }
      return best === undefined ? 0 : best.index;
    };
    const parent = foundBy === 'style-sheet' ? parentOf('stylesheet') : foundBy === 'script' ? parentOf('script') : 0;
    const cached = t.transferSize === 0 && t.encodedBodySize > 0;
    if (cached) {
      all.push({ t, type, index: parent });
      continue;
    }
    const index = requests.length;
    all.push({ t, type, index });
    requests.push({
      url: t.name, origin: originOf(t.name), type, size: t.encodedBodySize || t.transferSize,
      parent, foundBy, discovery: foundBy === 'script' ? 'complete' : 'first-byte',
      discoveredMs: Math.min(t.startTime, d?.atMs ?? Infinity),
      handshake: t.restricted ? undefined : handshakeOf(t.domainLookupStart, t.connectStart, t.connectEnd),
      sentMs: t.restricted || t.requestStart <= 0 ? t.startTime : t.requestStart,
      firstByteMs: t.restricted || t.responseStart <= 0 ? t.responseEnd : t.responseStart,
      doneMs: t.responseEnd, protocol: t.nextHopProtocol,
    });
  }
  return { requests };
}

function handshakeOf(from: number | undefined, connectStart: number | undefined, connectEnd: number | undefined): { startMs: number; readyMs: number } | undefined {
  if (connectStart === undefined || connectEnd === undefined || !(connectEnd > connectStart)) return undefined;
  const startMs = from !== undefined && from > 0 && from <= connectStart ? from : connectStart;
  return { startMs, readyMs: connectEnd };
}
