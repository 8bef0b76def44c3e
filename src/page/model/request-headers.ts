import type { PageState } from './page-reducer';
import type { HeaderField, ObservedRequest, PageRecord } from './page-record';

/**
 * Request and response headers for the HAR, as webRequest reports them (onSendHeaders,
 * onHeadersReceived). Cookies and credentials never enter the record: `Cookie`, `Set-Cookie`,
 * `Authorization` and `Proxy-Authorization` are dropped here, at the boundary. Chromium reports
 * neither cookies nor Referer/Accept-Encoding/Accept-Language without `extraHeaders`, which getlist
 * does not ask for (it costs every request an extra hop); Firefox reports them all.
 */
const PRIVATE = new Set(['cookie', 'set-cookie', 'set-cookie2', 'authorization', 'proxy-authorization']);
/** Request headers that say the request carried the user's cookies or credentials. */
const CREDENTIALS = new Set(['cookie', 'authorization']);
/** Bounds per message, so a hostile page cannot fill storage with headers. */
const MAX_HEADERS = 64;
const MAX_VALUE = 2048;

export interface HeadersEvent {
  requestId: string;
  tabId: number;
  timeStamp: number;
  headers: ReadonlyArray<{ name: string; value?: string }> | undefined;
}

export interface ResponseHeadersEvent extends HeadersEvent {
  statusCode: number;
  /** `HTTP/1.1 200 OK` */
  statusLine?: string;
}

/** Headers safe to keep: no cookies or credentials, bounded. */
export function keepHeaders(headers: HeadersEvent['headers']): HeaderField[] {
  const out: HeaderField[] = [];
  for (const h of headers ?? []) {
    if (out.length >= MAX_HEADERS) break;
    if (typeof h.name !== 'string' || PRIVATE.has(h.name.toLowerCase())) continue;
    out.push({ name: h.name, value: (h.value ?? '').slice(0, MAX_VALUE) });
  }
  return out;
}

/** webRequest.onSendHeaders: the headers of the current hop (a redirect starts a new hop). */
export function requestHeadersSent(state: PageState, e: HeadersEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  found[1].requestHeaders = keepHeaders(e.headers);
  if ((e.headers ?? []).some((h) => typeof h.name === 'string' && CREDENTIALS.has(h.name.toLowerCase()))) found[1].credentialed = true;
  return found[0];
}

/**
 * webRequest.onHeadersReceived: the current hop's status, headers and when they arrived. For a
 * redirect, onBeforeRedirect follows and moves them into its `RedirectHop` (redirect-hops.ts).
 */
export function responseHeadersReceived(state: PageState, e: ResponseHeadersEvent): PageRecord | undefined {
  const found = lookup(state, e);
  if (!found) return undefined;
  const [page, r] = found;
  r.responseHeaders = keepHeaders(e.headers);
  r.headersAt = e.timeStamp;
  r.statusCode = e.statusCode;
  if (e.statusLine) r.statusLine = e.statusLine;
  return page;
}

function lookup(state: PageState, e: { tabId: number; requestId: string }): [PageRecord, ObservedRequest] | undefined {
  const page = state.pages.get(e.tabId);
  if (!page) return undefined;
  for (let i = page.requests.length - 1; i >= 0; i--) {
    const r = page.requests[i];
    if (r?.requestId === e.requestId) return [page, r];
  }
  return undefined;
}
