import type { ResourceKind } from '../../discovery';
import { isFromCache } from './connection-count';
import type { ObservedRequest, PageRecord, TimingEntry } from './page-record';
import { withoutFragment } from './site-rules';
import { documentResponseEnd } from './timing-mapping';
import { pathOf } from '../../core/url-parts';

/**
 * Lean capture (the default, no `webRequest`): a page's requests as the browser itself recorded
 * them — its Resource Timing entries, plus the document from Navigation Timing. The browser
 * creates a resource entry only for a fetch it made for this document; the content script reads
 * them in its isolated world (a buffered PerformanceObserver started at document_start,
 * early-records.ts), where the page's own script can neither add an entry nor patch the observer.
 * So this list is the browser's record of what it requested for the page, and the replay rule
 * ("only URLs the browser itself requested for that page are replayed") reads it as it reads
 * webRequest's: replay-list.ts and request-list.ts take `page.requests` either way.
 *
 * What the entries do not say stays unset, never guessed: no method for fetch/XHR/beacon entries
 * (a POST is timed too; `method` '' keeps them out of replays and hints, which take GET only),
 * no server IP, no headers, no failed request (no entry, or one without status), no redirect hop.
 * Times are epoch ms from `timeOrigin` (Navigation Timing's, else the record's start).
 *
 * Invariant: a pure function of `timings`, `navigation` and `discoveries` — the reducer rebuilds
 * the list after every timings report, so it never holds a request twice.
 */
/** `requestId`s of requests rebuilt from timings start with this (webRequest's are numbers). */
export const LEAN_ID_PREFIX = 'rt:';

export function leanRequests(page: Pick<PageRecord, 'url' | 'startedAt' | 'timings' | 'navigation' | 'discoveries'>): ObservedRequest[] {
  const origin = page.navigation?.timeOrigin ?? page.startedAt;
  const kinds = new Map<string, ResourceKind>();
  for (const d of page.discoveries) if (!kinds.has(withoutFragment(d.url))) kinds.set(withoutFragment(d.url), d.kind);
  const out: ObservedRequest[] = [];
  const nav = page.navigation;
  if (nav) {
    const documentEnd = documentResponseEnd(nav);
    out.push({
      requestId: `${LEAN_ID_PREFIX}document`,
      url: page.url,
      method: 'GET',
      type: 'main_frame',
      frameId: 0,
      startedAt: origin + (nav.fetchStart ?? 0),
      ...(documentEnd !== undefined ? { endedAt: origin + documentEnd } : {}),
      ...(nav.responseStatus ? { statusCode: nav.responseStatus } : {}),
      ...(nav.contentType ? { contentType: nav.contentType } : {}),
    });
  }
  page.timings.forEach((t, i) => {
    const type = resourceType(t, kinds.get(withoutFragment(t.name)));
    out.push({
      requestId: `${LEAN_ID_PREFIX}${i}`,
      url: t.name,
      method: UNKNOWN_METHOD_TYPES.has(type) ? '' : 'GET',
      type,
      frameId: 0,
      startedAt: origin + t.startTime,
      ...(t.responseEnd > 0 ? { endedAt: origin + t.responseEnd } : {}),
      ...(t.responseStatus ? { statusCode: t.responseStatus } : {}),
      ...(t.restricted ? {} : { fromCache: isFromCache(t) }),
    });
  });
  return out.sort((a, b) => a.startedAt - b.startedAt);
}

/** Entries whose request method the browser does not expose. */
const UNKNOWN_METHOD_TYPES = new Set(['xmlhttprequest', 'ping', 'other']);

const BY_INITIATOR: Readonly<Record<string, string>> = {
  img: 'image',
  image: 'image',
  input: 'image',
  script: 'script',
  video: 'media',
  audio: 'media',
  track: 'media',
  iframe: 'sub_frame',
  frame: 'sub_frame',
  embed: 'object',
  object: 'object',
  fetch: 'xmlhttprequest',
  xmlhttprequest: 'xmlhttprequest',
  beacon: 'ping',
};

const BY_KIND: Partial<Record<ResourceKind, string>> = { stylesheet: 'stylesheet', script: 'script', image: 'image', icon: 'image', font: 'font', media: 'media', track: 'media', iframe: 'sub_frame', object: 'object' };

/**
 * The webRequest ResourceType a Resource Timing entry stands for: from its initiator where that
 * says it, else from the element the content script saw name the URL, else from the URL's
 * extension (a `css` initiator is a background image, a font or an `@import`; Firefox gives
 * `@font-face` fetches the initiator `other`).
 */
export function resourceType(t: Pick<TimingEntry, 'name' | 'initiatorType'>, kind: ResourceKind | undefined): string {
  const direct = BY_INITIATOR[t.initiatorType];
  if (direct) return direct;
  const fromKind = kind ? BY_KIND[kind] : undefined;
  if (fromKind) return fromKind;
  const ext = /\.([a-z0-9]+)$/i.exec(pathOf(t.name))?.[1]?.toLowerCase() ?? '';
  if (/^(woff2?|ttf|otf|eot)$/.test(ext)) return 'font';
  if (ext === 'css') return 'stylesheet';
  if (/^(m?js)$/.test(ext)) return 'script';
  if (/^(png|jpe?g|gif|webp|avif|svg|ico|bmp)$/.test(ext)) return 'image';
  return t.initiatorType === 'css' ? 'image' : 'other';
}

