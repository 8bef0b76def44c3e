import { requestHeadersSent, responseHeadersReceived } from '../../src/page/model/request-headers';
import { SITE_ORIGINS } from '../../src/page/model/site-rules';
import { browser, type WebRequest } from '../platform/browser-api';
import type { PageStore } from './page-store';

const FILTER: WebRequest.RequestFilter = { urls: [...SITE_ORIGINS] };

/**
 * Request and response headers for the HAR export. Non-blocking listeners without `extraHeaders`:
 * Chromium then withholds cookies (and Referer, Accept-Encoding, Accept-Language), and never
 * routes the request through the extension; Firefox reports everything, and the reducer drops
 * cookies and credentials before anything is stored.
 */
export function listenToHeaders(store: PageStore): void {
  browser.webRequest.onSendHeaders.addListener(
    (e) => void store.update((s) => requestHeadersSent(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, headers: e.requestHeaders })),
    FILTER,
    ['requestHeaders'],
  );
  browser.webRequest.onHeadersReceived.addListener(
    (e) => void store.update((s) => responseHeadersReceived(s, { requestId: e.requestId, tabId: e.tabId, timeStamp: e.timeStamp, headers: e.responseHeaders, statusCode: e.statusCode, statusLine: e.statusLine })),
    FILTER,
    ['responseHeaders'],
  );
}
