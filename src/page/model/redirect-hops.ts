import { exposedSize } from './page-bytes';
import type { ObservedRequest, RedirectHop } from './page-record';

/** Browsers stop at 20 redirects; the bound only keeps a hostile record from growing. */
const MAX_HOPS = 64;

export interface RedirectFollowed {
  /** Epoch ms: webRequest onBeforeRedirect. */
  timeStamp: number;
  redirectUrl: string;
  statusCode?: number;
  /** Firefox's webRequest `responseSize` of the redirect response. */
  responseSize?: number;
}

/**
 * webRequest.onBeforeRedirect: closes the request's current hop as a `RedirectHop` and moves the
 * request on to `redirectUrl`. The current hop's headers (onSendHeaders, onHeadersReceived, which
 * fire before this event) and status go with the hop, so the request's own fields start empty
 * for the next one.
 */
export function followRedirect(r: ObservedRequest, e: RedirectFollowed): void {
  const hops = (r.redirects ??= []);
  const startedAt = hops.at(-1)?.endedAt ?? r.startedAt;
  const hop: RedirectHop = { url: r.url, startedAt, endedAt: r.headersAt ?? e.timeStamp, redirectURL: e.redirectUrl };
  const statusCode = e.statusCode ?? r.statusCode;
  if (statusCode !== undefined) hop.statusCode = statusCode;
  if (r.statusLine !== undefined) hop.statusLine = r.statusLine;
  const size = exposedSize(e.responseSize);
  if (size !== undefined) hop.responseSize = size;
  if (r.requestHeaders !== undefined) hop.requestHeaders = r.requestHeaders;
  if (r.responseHeaders !== undefined) hop.responseHeaders = r.responseHeaders;
  if (hops.length < MAX_HOPS) hops.push(hop);
  delete r.requestHeaders;
  delete r.responseHeaders;
  delete r.statusLine;
  delete r.headersAt;
  delete r.statusCode;
  r.url = e.redirectUrl;
}

/** The URL the request started at, before any redirect: the one the element named, and Resource Timing's `name`. */
export function firstUrl(r: Pick<ObservedRequest, 'url' | 'redirects'>): string {
  return r.redirects?.[0]?.url ?? r.url;
}
