import * as reducer from '../../src/page/model/page-reducer';
import { requestHeadersSent, responseHeadersReceived } from '../../src/page/model/request-headers';
import { grantsSiteAccess, SITE_ORIGINS } from '../../src/page/model/site-rules';
import { NAVIGATION_OFF, WEBREQUEST_OFF, HEADERS_OFF, MEASURE_OFF } from '../platform/bench-switches';
import { browser, type WebRequest } from '../platform/browser-api';
import type { CaptureMode } from '../platform/detailed-capture';
import { frameIdOf } from './frame-id';
import type { PageActions } from './page-actions';
import type { HintsService } from './hints-service';
import type { NavigationHub } from './navigation-hub';

/** A top-level document's response headers (Detailed capture): speculation reads its `Cache-Control`. */
export type DocumentHeadersHook = (url: string, headers: WebRequest.HttpHeaders | undefined) => void;

/** What the hints need to hear of a top-level navigation. */
export type HintsHooks = Pick<HintsService, 'navigationCommitted' | 'pageLoaded' | 'webRequestSeen' | 'tabClosed'>;
import type { PageStore } from './page-store';

const FILTER: WebRequest.RequestFilter = { urls: [...SITE_ORIGINS] };
/** Headers are read for top-level documents only: a header listener on every request costs every request. */
const DOCUMENT_FILTER: WebRequest.RequestFilter = { urls: [...SITE_ORIGINS], types: ['main_frame'] };

/** Firefox adds the bytes received to its webRequest details; Chromium does not. */
function responseSizeOf(e: object): { responseSize?: number } {
  const size = (e as { responseSize?: unknown }).responseSize;
  return typeof size === 'number' && Number.isFinite(size) && size >= 0 ? { responseSize: size } : {};
}

function contentTypeOf(headers: WebRequest.HttpHeaders | undefined): string {
  return headers?.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
}

/**
 * Feeds webNavigation (commits and loads through `navigation`, navigation-hub.ts), webRequest (Detailed capture only), tab and permission events into the page reducer. Listeners are
 * added synchronously at start-up, as MV3 requires for the browser to wake the background for them.
 * Without site access (Firefox MV3 until the user grants it) they simply hear nothing; a grant
 * needs no re-registration, only the empty records of the pages missed are dropped.
 */
export function listenToPages(store: PageStore, actions: PageActions, navigation: NavigationHub, hints?: HintsHooks, capture: CaptureMode = 'detailed', documentHeaders?: DocumentHeadersHook): void {
  if (!NAVIGATION_OFF) listenToNavigation(store, actions, navigation, hints, capture);
  // Lean capture holds no webRequest permission: the records come from the page's own timing.
  if (!WEBREQUEST_OFF && capture === 'detailed') listenToRequests(store, hints, documentHeaders);

  browser.permissions.onAdded.addListener((p) => {
    if (grantsSiteAccess(p.origins)) void store.update((s) => reducer.siteAccessGranted(s));
  });

  // A closed tab's visit is learned from (its last reports included) before its record goes.
  browser.tabs.onRemoved.addListener((tabId) => {
    const ended = Promise.all([hints?.tabClosed(tabId).catch(() => undefined), actions.tabClosed(tabId).catch(() => undefined)]);
    void ended.then(() => store.update((s) => reducer.tabRemoved(s, tabId)));
  });
  // Chrome swaps a prerendered tab in under a new id; the old id's page is gone.
  browser.tabs.onReplaced.addListener((_added, removed) => void store.update((s) => reducer.tabRemoved(s, removed)));
}

/**
 * Lean capture hears a navigation twice before the page is done: its commit starts the record and
 * its load event ends it (the page's Navigation Timing, reported after `load`, gives the start and
 * DOMContentLoaded). Detailed capture also hears its start (the record opens before the document's
 * request, with which webRequest events are matched) and DOMContentLoaded. Each listener is an
 * event the browser sends the background during the load, CPU that competes with the page's parse
 * (docs/extension.md, "Why lean capture hears two navigation events").
 */
function listenToNavigation(store: PageStore, actions: PageActions, navigation: NavigationHub, hints: HintsHooks | undefined, capture: CaptureMode): void {
  const nav = (e: { tabId: number; frameId: number; url: string; timeStamp: number }) => ({ tabId: e.tabId, frameId: e.frameId, url: e.url, timeStamp: e.timeStamp });
  const lean = capture === 'lean';

  if (!lean) browser.webNavigation.onBeforeNavigate.addListener((e) => void store.update((s) => reducer.navigationStarted(s, nav(e)), 'dirty'));
  navigation.onCommitted((e) => {
    if (e.frameId === 0) hints?.navigationCommitted(e.tabId, e.url);
    void store.update((s) => (lean ? reducer.documentCommitted(s, nav(e)) : reducer.navigationCommitted(s, nav(e))), 'dirty');
  });
  // An SPA route change: same document, same record, new URL.
  browser.webNavigation.onHistoryStateUpdated.addListener((e) => void store.update((s) => reducer.historyStateUpdated(s, nav(e))));
  if (!lean) browser.webNavigation.onDOMContentLoaded.addListener((e) => void store.update((s) => reducer.domContentLoaded(s, nav(e)), 'dirty'));
  navigation.onCompleted((e) => {
    void store.update((s) => reducer.navigationCompleted(s, nav(e))).then((page) => {
      if (!page) return;
      if (!MEASURE_OFF) actions.pageLoaded(page);
      hints?.pageLoaded(page);
    });
  });
}

/**
 * Every request event is dispatched from the browser process to the background and costs CPU there
 * and in the background (docs/extension.md, "What the extension costs a page"), so a subresource
 * gets two: `onSendHeaders` starts its record with the
 * request headers, `onCompleted` ends it with status, address and response headers. Redirects and
 * errors add theirs. Only top-level documents also get `onBeforeRequest` (the page record starts
 * before the request is sent) and `onHeadersReceived` (status and type before the body arrives).
 */
function listenToRequests(store: PageStore, hints: HintsHooks | undefined, documentHeaders: DocumentHeadersHook | undefined): void {
  // Bench-only builds may ask for no header lists, to price them (bench/overhead/main.ts).
  const requestHeaders: WebRequest.OnSendHeadersOptions[] = HEADERS_OFF ? [] : ['requestHeaders'];
  const responseHeaders: WebRequest.OnCompletedOptions[] = HEADERS_OFF ? [] : ['responseHeaders'];
  const started = (e: WebRequest.OnBeforeRequestDetailsType | WebRequest.OnSendHeadersDetailsType) => ({ requestId: e.requestId, tabId: e.tabId, frameId: frameIdOf(e), url: e.url, method: e.method, type: e.type, timeStamp: e.timeStamp });

  browser.webRequest.onBeforeRequest.addListener((e) => {
    hints?.webRequestSeen();
    void store.update((s) => reducer.requestStarted(s, started(e)), 'dirty');
  }, DOCUMENT_FILTER);
  browser.webRequest.onSendHeaders.addListener(
    (e) => {
      void store.update((s) => {
        // A document's record exists already (onBeforeRequest); a redirect's repeat is the same request.
        const page = reducer.requestStarted(s, started(e));
        return requestHeadersSent(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, headers: e.requestHeaders }) ?? page;
      }, 'dirty');
    },
    FILTER,
    requestHeaders,
  );
  browser.webRequest.onBeforeRedirect.addListener(
    (e) => {
      void store.update((s) => {
        // The 3xx hop's own headers (its HAR entry) first, then the request moves on to the new URL.
        responseHeadersReceived(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, headers: e.responseHeaders, statusCode: e.statusCode, statusLine: e.statusLine });
        return reducer.requestRedirected(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, redirectUrl: e.redirectUrl, statusCode: e.statusCode, fromCache: e.fromCache, ip: e.ip, ...responseSizeOf(e) });
      }, 'dirty');
    },
    FILTER,
    responseHeaders,
  );
  browser.webRequest.onHeadersReceived.addListener(
    (e) => {
      if (e.frameId === 0) documentHeaders?.(e.url, e.responseHeaders);
      void store.update((s) => reducer.documentHeadersReceived(s, { requestId: e.requestId, tabId: e.tabId, statusCode: e.statusCode, contentType: contentTypeOf(e.responseHeaders) }), 'dirty');
    },
    DOCUMENT_FILTER,
    ['responseHeaders'],
  );
  browser.webRequest.onCompleted.addListener(
    (e) => {
      void store.update((s) => {
        responseHeadersReceived(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, headers: e.responseHeaders, statusCode: e.statusCode, statusLine: e.statusLine });
        return reducer.requestCompleted(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, statusCode: e.statusCode, fromCache: e.fromCache, ip: e.ip, ...responseSizeOf(e) });
      }, 'dirty');
    },
    FILTER,
    responseHeaders,
  );
  browser.webRequest.onErrorOccurred.addListener(
    (e) => {
      void store.update((s) => reducer.requestFailed(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, error: e.error }), 'dirty');
    },
    FILTER,
  );
}
