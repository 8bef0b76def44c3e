import type { Discovery, NavigationTiming, ObservedRequest, PageRecord, TimingEntry } from './page-record';
import { LEAN_ID_PREFIX, leanRequests } from './lean-requests';
import { settleDiscoveryTimes } from './discovery-times';
import { exposedSize } from './page-bytes';
import { migrateRecord } from './record-migration';
import { firstUrl, followRedirect } from './redirect-hops';
import { isHttpUrl, withoutFragment } from './site-rules';
import { originOf } from '../../core/url-parts';

/**
 * The background's page state as pure event handlers: webNavigation, webRequest and content-script
 * reports go in, the tab's current `PageRecord` is updated in place and returned (undefined when
 * the event changed nothing, so the caller knows whether to persist). No browser API, no clock:
 * every time comes from the event.
 *
 * Invariants: one record per tab, the latest top-level navigation's; tabs are kept in recency order
 * (a Map's insertion order) and at most `maxTabs`; a record holds at most `maxRequests` requests,
 * `maxDiscoveries` discoveries and `maxTimings` timings — the first ones, which are the ones a
 * page load is ordered by.
 */
export interface PageLimits {
  /** @default 50 */
  maxTabs: number;
  /** @default 5000 */
  maxRequests: number;
  /** @default 5000 */
  maxDiscoveries: number;
  /** @default 5000 */
  maxTimings: number;
}

export const DEFAULT_PAGE_LIMITS: PageLimits = { maxTabs: 50, maxRequests: 5000, maxDiscoveries: 5000, maxTimings: 5000 };

export interface PageState {
  /** tabId → that tab's latest page; least recently started first. */
  pages: Map<number, PageRecord>;
  limits: PageLimits;
}

export function createPageState(limits: Partial<PageLimits> = {}): PageState {
  return { pages: new Map(), limits: { ...DEFAULT_PAGE_LIMITS, ...limits } };
}

export interface NavigationEvent {
  tabId: number;
  frameId: number;
  url: string;
  /** Epoch ms. */
  timeStamp: number;
}

export interface RequestEvent {
  requestId: string;
  tabId: number;
  frameId: number;
  url: string;
  method: string;
  type: string;
  timeStamp: number;
}

export interface ResponseEvent {
  requestId: string;
  tabId: number;
  timeStamp: number;
  statusCode?: number;
  fromCache?: boolean;
  ip?: string;
  /** Firefox's webRequest `responseSize`; other browsers leave it out. */
  responseSize?: number;
}

export interface DocumentHeadersEvent {
  requestId: string;
  tabId: number;
  statusCode?: number;
  /** The `Content-Type` header's value, '' when the response has none. */
  contentType: string;
}

export interface RedirectEvent extends ResponseEvent {
  redirectUrl: string;
}

export interface ErrorEvent {
  requestId: string;
  tabId: number;
  timeStamp: number;
  error: string;
}

/** webNavigation.onBeforeNavigate. A top-level navigation to a non-http(s) URL forgets the tab. */
export function navigationStarted(state: PageState, e: NavigationEvent): PageRecord | undefined {
  if (e.frameId !== 0) return undefined;
  if (!isHttpUrl(e.url)) {
    state.pages.delete(e.tabId);
    return undefined;
  }
  const current = state.pages.get(e.tabId);
  // The main_frame request may be reported first; it already opened this navigation's record.
  const first = current?.requests[0];
  if (current && current.committedAt === undefined && first?.type === 'main_frame' && current.requests.length === 1 && sameUrl(firstUrl(first), e.url)) {
    return undefined;
  }
  return startRecord(state, e.tabId, e.url, e.timeStamp);
}

/** webNavigation.onCommitted: the URL after redirects. */
export function navigationCommitted(state: PageState, e: NavigationEvent): PageRecord | undefined {
  const page = e.frameId === 0 ? state.pages.get(e.tabId) : undefined;
  if (!page) return undefined;
  page.url = e.url;
  page.committedAt = e.timeStamp;
  return page;
}

/**
 * webNavigation.onCommitted when it is the only start of a record: lean capture listens to no
 * onBeforeNavigate (each event the browser sends the background costs the page it is loading,
 * bench/overhead/main.ts), so every top-level commit is a new document and starts the record of it. Its
 * times are the commit's until the page's Navigation Timing arrives (`timingsReported`), which
 * gives the navigation's true start. A commit of a non-http(s) URL forgets the tab.
 */
export function documentCommitted(state: PageState, e: NavigationEvent): PageRecord | undefined {
  if (e.frameId !== 0) return undefined;
  if (!isHttpUrl(e.url)) {
    state.pages.delete(e.tabId);
    return undefined;
  }
  const page = startRecord(state, e.tabId, e.url, e.timeStamp);
  page.committedAt = e.timeStamp;
  return page;
}

/**
 * webNavigation.onHistoryStateUpdated: `history.pushState`/`replaceState` (an SPA route change).
 * The document, its requests and its timings stay the same, so the record only takes the new URL;
 * an update older than the record's commit belongs to the previous document and is ignored.
 */
export function historyStateUpdated(state: PageState, e: NavigationEvent): PageRecord | undefined {
  const page = e.frameId === 0 ? state.pages.get(e.tabId) : undefined;
  if (!page || page.committedAt === undefined || e.timeStamp < page.committedAt) return undefined;
  if (!isHttpUrl(e.url) || e.url === page.url) return undefined;
  page.url = e.url;
  return page;
}

export function domContentLoaded(state: PageState, e: NavigationEvent): PageRecord | undefined {
  const page = e.frameId === 0 ? state.pages.get(e.tabId) : undefined;
  if (!page) return undefined;
  page.domContentLoadedAt = e.timeStamp;
  return page;
}

/** webNavigation.onCompleted: the load event. */
export function navigationCompleted(state: PageState, e: NavigationEvent): PageRecord | undefined {
  const page = e.frameId === 0 ? state.pages.get(e.tabId) : undefined;
  if (!page) return undefined;
  page.loadAt = e.timeStamp;
  return page;
}

/**
 * webRequest.onBeforeRequest. Requests of no tab (tabId −1) are ignored. A top-level document
 * request that is not the current record's own starts the record of the navigation it belongs to.
 *
 * webRequest and webNavigation events reach the background through different channels, and under
 * load Firefox was seen to deliver a document's onBeforeRequest after its onCommitted (even after
 * onCompleted): a document request that *started* before the record's document committed, when
 * the record holds no document request yet, is that record's own, however late its event arrives.
 * Starting a new record for it lost the load event and the host's measurement of the page.
 */
export function requestStarted(state: PageState, e: RequestEvent): PageRecord | undefined {
  if (e.tabId < 0) return undefined;
  let page = state.pages.get(e.tabId);
  if (page && findRequest(page, e.requestId)) return undefined; // a redirect's repeat of the same request
  const isDocument = e.type === 'main_frame' && e.frameId === 0;
  if (isDocument) {
    const ownsNoDocument = page !== undefined && !page.requests.some((r) => r.type === 'main_frame') && (page.committedAt === undefined || e.timeStamp <= page.committedAt);
    if (!ownsNoDocument) page = startRecord(state, e.tabId, e.url, e.timeStamp);
  }
  if (!page || page.requests.length >= state.limits.maxRequests) return undefined;
  // webRequest reported this page: its requests are the browser's events, never rebuilt from timings.
  if (page.capture === 'lean') {
    page.capture = 'detailed';
    page.requests = page.requests.filter((r) => !r.requestId.startsWith(LEAN_ID_PREFIX));
  }
  const request: ObservedRequest = { requestId: e.requestId, url: e.url, method: e.method, type: e.type, frameId: e.frameId, startedAt: e.timeStamp };
  // The document is the record's first request, even when sub-resources were reported before it.
  if (isDocument) page.requests.unshift(request);
  else page.requests.push(request);
  return page;
}

/** webRequest.onBeforeRedirect: the same requestId continues at `redirectUrl`, one `RedirectHop` longer. */
export function requestRedirected(state: PageState, e: RedirectEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  const [page, r] = found;
  followRedirect(r, e);
  if (e.ip !== undefined) r.ip = e.ip;
  return page;
}

export function responseStarted(state: PageState, e: ResponseEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  applyResponse(found[1], e);
  return found[0];
}

export function requestCompleted(state: PageState, e: ResponseEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  applyResponse(found[1], e);
  found[1].endedAt = e.timeStamp;
  return found[0];
}

/** webRequest.onHeadersReceived for top-level documents only: the document's status and type. */
export function documentHeadersReceived(state: PageState, e: DocumentHeadersEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  if (e.statusCode !== undefined) found[1].statusCode = e.statusCode;
  found[1].contentType = e.contentType;
  return found[0];
}

export function requestFailed(state: PageState, e: ErrorEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  found[1].error = e.error;
  found[1].endedAt = e.timeStamp;
  return found[0];
}

/**
 * Content-script discoveries for the tab's current page. `senderUrl` is the reporting document's
 * URL: a report from a document of another origin than the record's (a stale script of the
 * previous page) is dropped. Same-origin is the test, not equality, because `history.pushState`
 * changes the URL without a new navigation.
 */
export function discoveriesReported(state: PageState, tabId: number, senderUrl: string | undefined, items: readonly Discovery[], loadedAt?: number, styleScanned?: boolean): PageRecord | undefined {
  const page = pageOfDocument(state, tabId, senderUrl, loadedAt);
  if (page && styleScanned) page.styleScanned = true;
  if (!page || items.length === 0) return styleScanned ? page : undefined;
  const room = state.limits.maxDiscoveries - page.discoveries.length;
  if (room <= 0) return undefined;
  page.discoveries.push(...items.slice(0, room));
  settleDiscoveryTimes(page);
  return page;
}

/** Content-script Resource Timing entries; entries already held (same name and start) are skipped. */
export function timingsReported(state: PageState, tabId: number, senderUrl: string | undefined, entries: readonly TimingEntry[], navigation?: NavigationTiming, bufferFull?: boolean, loadedAt?: number, documentCookies?: boolean): PageRecord | undefined {
  const page = pageOfDocument(state, tabId, senderUrl, loadedAt);
  if (!page) return undefined;
  if (documentCookies !== undefined) page.documentCookies = page.documentCookies === true || documentCookies;
  if (navigation) {
    page.navigation = navigation;
    if (page.capture === 'lean') takeNavigationTimes(page, navigation);
  }
  if (bufferFull) page.timingsBufferFull = true;
  const seen = new Set(page.timings.map(timingKey));
  for (const t of entries) {
    if (page.timings.length >= state.limits.maxTimings) break;
    const key = timingKey(t);
    if (seen.has(key)) continue;
    seen.add(key);
    page.timings.push(t);
  }
  if (page.capture === 'lean') page.requests = leanRequests(page).slice(0, state.limits.maxRequests);
  settleDiscoveryTimes(page);
  return page;
}

export function tabRemoved(state: PageState, tabId: number): boolean {
  return state.pages.delete(tabId);
}

/**
 * permissions.onAdded with site access: forgets the records neither webRequest nor the content
 * script reported anything of. Those pages loaded while the extension had no access (Firefox MV3
 * until the user grants it) and every number of theirs would read as empty; without a record the
 * popup asks for a reload instead.
 */
export function siteAccessGranted(state: PageState): boolean {
  let changed = false;
  for (const [tabId, page] of state.pages) {
    if (page.requests.length > 0 || page.timings.length > 0 || page.navigation !== undefined || page.discoveries.length > 0) continue;
    state.pages.delete(tabId);
    changed = true;
  }
  return changed;
}

/** The records in recency order (oldest first), as persisted. */
export function snapshot(state: PageState): PageRecord[] {
  return [...state.pages.values()];
}

/**
 * Rebuilds state from what `snapshot` stored; records that do not look like records are dropped,
 * and those of an older version are brought to the current shape (record-migration.ts).
 */
export function restore(stored: unknown, limits: Partial<PageLimits> = {}): PageState {
  const state = createPageState(limits);
  if (!Array.isArray(stored)) return state;
  for (const p of stored) if (looksLikeRecord(p)) insert(state, migrateRecord(p));
  return state;
}

/**
 * A lean record's start and DOMContentLoaded from the page's own clock: `performance.timeOrigin` is
 * the navigation's start (before redirects, as onBeforeNavigate was), and the lean requests are
 * already placed on it (lean-requests.ts). The webNavigation times it replaces, where they came
 * (Detailed capture's listeners), differ by the event's trip to the background.
 */
function takeNavigationTimes(page: PageRecord, navigation: NavigationTiming): void {
  const origin = navigation.timeOrigin;
  if (origin === undefined || !Number.isFinite(origin) || origin <= 0) return;
  page.startedAt = origin;
  if (navigation.domContentLoadedEventEnd > 0) page.domContentLoadedAt = origin + navigation.domContentLoadedEventEnd;
}

function startRecord(state: PageState, tabId: number, url: string, timeStamp: number): PageRecord {
  const page: PageRecord = { pageId: `${tabId}:${Math.floor(timeStamp)}`, tabId, url, startedAt: timeStamp, requests: [], discoveries: [], timings: [], capture: 'lean' };
  insert(state, page);
  return page;
}

function insert(state: PageState, page: PageRecord): void {
  state.pages.delete(page.tabId);
  state.pages.set(page.tabId, page);
  for (const tabId of state.pages.keys()) {
    if (state.pages.size <= state.limits.maxTabs) break;
    state.pages.delete(tabId);
  }
}

function lookup(state: PageState, e: { tabId: number; requestId: string }): [PageRecord, ObservedRequest] | undefined {
  const page = state.pages.get(e.tabId);
  const r = page && findRequest(page, e.requestId);
  return page && r ? [page, r] : undefined;
}

/** Searches from the end: a request's later events come soon after its start. */
function findRequest(page: PageRecord, requestId: string): ObservedRequest | undefined {
  for (let i = page.requests.length - 1; i >= 0; i--) if (page.requests[i]?.requestId === requestId) return page.requests[i];
  return undefined;
}

function applyResponse(r: ObservedRequest, e: ResponseEvent): void {
  if (e.statusCode !== undefined) r.statusCode = e.statusCode;
  if (e.fromCache !== undefined) r.fromCache = e.fromCache;
  if (e.ip !== undefined) r.ip = e.ip;
  const size = exposedSize(e.responseSize);
  if (size !== undefined) r.responseSize = size;
}

/**
 * Slack between the page's clock (`performance.timeOrigin`) and the commit's time stamp, which the
 * browser takes when its process handles the commit: a small page can reach `load` in the renderer
 * before that. The tab's previous document loaded before the user left it and the next one was
 * fetched, so it is further back than this.
 */
const COMMIT_CLOCK_SLACK_MS = 100;

/**
 * The record a document's report belongs to. `loadedAt` (the document's `load`, epoch ms): a
 * document that loaded before the record's commit is the tab's previous one, whose last reports
 * (sent at `pagehide`) may reach the background after the next document committed.
 */
function pageOfDocument(state: PageState, tabId: number, senderUrl: string | undefined, loadedAt?: number): PageRecord | undefined {
  const page = state.pages.get(tabId);
  if (!page || !senderUrl) return undefined;
  if (loadedAt !== undefined && page.committedAt !== undefined && loadedAt < page.committedAt - COMMIT_CLOCK_SLACK_MS) return undefined;
  const origin = originOf(senderUrl);
  if (origin === '') return undefined;
  const documentRequest = page.requests.find((r) => r.type === 'main_frame');
  return origin === originOf(page.url) || (documentRequest && origin === originOf(documentRequest.url)) ? page : undefined;
}


function sameUrl(a: string, b: string): boolean {
  return withoutFragment(a) === withoutFragment(b);
}

function timingKey(t: TimingEntry): string {
  return `${t.startTime}\u0000${t.name}`;
}

function looksLikeRecord(p: unknown): p is PageRecord {
  if (typeof p !== 'object' || p === null) return false;
  const r = p as Partial<PageRecord>;
  return typeof r.pageId === 'string' && typeof r.tabId === 'number' && typeof r.url === 'string' && typeof r.startedAt === 'number' && Array.isArray(r.requests) && Array.isArray(r.discoveries) && Array.isArray(r.timings);
}
