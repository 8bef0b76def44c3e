import type { DiscoveredResource, ResourceKind } from '../../discovery';
import type { MeasuredReply, ReplayResultMessage, ReplaySummaryMessage } from '../../protocol';
import type { PriorityClass } from '../../core/priority';

/**
 * What the extension knows about one top-level page load in one tab. Built by the background
 * from webNavigation + webRequest events and the content script's reports; persisted in
 * `storage.session` so it survives the service worker / event page restarting.
 */
export interface PageRecord {
  /** Unique per navigation: `${tabId}:${navigation start epoch ms}`. */
  pageId: string;
  tabId: number;
  /** The committed URL of the top-level document (after redirects). */
  url: string;
  /** Epoch ms: webNavigation.onBeforeNavigate. */
  startedAt: number;
  committedAt?: number;
  domContentLoadedAt?: number;
  loadAt?: number;
  /** Every request of the page, sub-frames included (`frameId` ≠ 0), in start order. */
  requests: ObservedRequest[];
  /** Inlined resources the content script saw the parser (or scripts) insert. */
  discoveries: Discovery[];
  /** The page's Resource Timing entries (and navigation timing) as the content script read them. */
  timings: TimingEntry[];
  navigation?: NavigationTiming;
  /**
   * The page's Resource Timing buffer was already full (the browser's default limit, 250 entries)
   * when the content script first read it after `load`, with no recorder from `document_start`
   * (lean capture, early-recorder.ts): the page's requests past the limit are in neither `timings`
   * nor, in lean capture, `requests`, and every figure from them counts short.
   */
  timingsBufferFull?: boolean;
  /**
   * Whether the document could read cookies of its own (`document.cookie` not empty) when the
   * content script reported; absent until then. `HttpOnly` cookies are not readable, so false is
   * not proof of none: with a request that carried a Cookie header (`ObservedRequest.credentialed`,
   * Detailed capture) the page counts as needing cookies too (src/page/hints/host-fill-in.ts).
   */
  documentCookies?: boolean;
  /** The content script's style scan of the page ran to its end (CSS backgrounds of rendered elements reported). */
  styleScanned?: true;
  /** The host's `measure` answer for this page (handshakes of origins it had no warm connection to). */
  measured?: MeasuredReply;
  replay?: ReplayState;
  /** Why the host could not be asked, when it could not (missing host, protocol error…). */
  hostError?: { code: string; message: string };
  /** The page's site is in the user's excluded list: nothing was sent to the host. */
  excluded?: boolean;
  /**
   * How the background saw the page: `detailed` once a webRequest event reported one of its
   * requests (records of older versions, absent, were all detailed); `lean` until then — from the
   * page's own Resource and Navigation Timing only, `requests` rebuilt from the timings
   * (lean-requests.ts). Per record, from what arrived, not from the permission: Chromium may hold
   * the permission without delivering events (until it restarts, detailed-capture.ts).
   */
  capture?: CaptureMode;
}

/**
 * `lean`: the default, no webRequest/DNR permission held (Chromium proxies every request of every
 * page while an extension holds one); `detailed`: the optional permissions granted (extension/platform/detailed-capture.ts).
 */
export type CaptureMode = 'lean' | 'detailed';

export interface ObservedRequest {
  /** webRequest's requestId. */
  requestId: string;
  url: string;
  method: string;
  /** webRequest ResourceType (`main_frame`, `sub_frame`, `stylesheet`, `script`, `image`, `font`, …). */
  type: string;
  frameId: number;
  /** Epoch ms (webRequest timeStamp). */
  startedAt: number;
  endedAt?: number;
  statusCode?: number;
  fromCache?: boolean;
  /** Server IP as the browser reports it. */
  ip?: string;
  /** net::ERR_… or NS_ERROR_… */
  error?: string;
  /** `Content-Type` of the final response (top-level documents only: the one listener that reads headers). */
  contentType?: string;
  /** Firefox only (webRequest `responseSize` of the final response): bytes as received; absent elsewhere and where it read 0 (page-bytes.ts `exposedSize`). */
  responseSize?: number;
  /** The current hop's request headers, cookies and credentials removed (src/page/model/request-headers.ts). */
  requestHeaders?: HeaderField[];
  /** The request carried a Cookie or Authorization header (webRequest; the header itself is never kept). */
  credentialed?: true;
  /** The current hop's response headers, cookies removed: the final response's, once it arrived. */
  responseHeaders?: HeaderField[];
  /** `HTTP/1.1 200 OK`, as webRequest reports it (the current hop's). */
  statusLine?: string;
  /** Epoch ms: the current hop's response headers arrived (webRequest onHeadersReceived, where headers are read). */
  headersAt?: number;
  /**
   * Each redirect this request followed, in order: the one record of redirects, read by the
   * popup's bytes and document status, the HAR (one entry each) and discovery times. `url` is
   * the request's URL before its first hop; the request's own fields describe the final hop.
   */
  redirects?: RedirectHop[];
}

export interface HeaderField {
  name: string;
  value: string;
}

/**
 * One redirect response of a request that went on to another URL (webRequest onBeforeRedirect).
 * Invariant: `redirectURL` is the next hop's `url`, or the request's own `url` for the last hop.
 */
export interface RedirectHop {
  /** The URL that answered with the redirect. */
  url: string;
  /** The redirect's status; absent when the browser gave none. */
  statusCode?: number;
  /** `HTTP/1.1 301 Moved Permanently`, where headers are read. */
  statusLine?: string;
  /** Epoch ms: when this hop started (the request's start, or the previous hop's end). */
  startedAt: number;
  /** Epoch ms: its response headers arrived (onHeadersReceived where headers are read, else onBeforeRedirect). */
  endedAt: number;
  /** Where it sent the request: the browser's resolved `Location`. */
  redirectURL: string;
  /** Firefox only (webRequest `responseSize` of the redirect response): bytes as received; absent elsewhere and where it read 0 (page-bytes.ts `exposedSize`). */
  responseSize?: number;
  /** This hop's request and response headers, cookies and credentials removed, where headers are read. */
  requestHeaders?: HeaderField[];
  responseHeaders?: HeaderField[];
}

/** One inlined resource as the content script discovered it. */
export interface Discovery {
  url: string;
  kind: ResourceKind;
  priority: PriorityClass;
  /** ms since navigation start (performance.now() in the page). */
  atMs: number;
  /** Intersects the first viewport when discovered. */
  inViewport: boolean;
  tag: string;
  /** Inserted by script or after DOMContentLoaded rather than by the parser. */
  late: boolean;
  /**
   * Which signal `atMs` is from: the content script's MutationObserver delivery (`dom`), or, when
   * the browser started fetching earlier than that (its preload scanner does), the request's own
   * start (`resource-timing` startTime, else webRequest `onBeforeRequest`). Absent means `dom`.
   */
  atSource?: DiscoverySource;
}

export type DiscoverySource = 'dom' | 'resource-timing' | 'webrequest';

/** A Resource Timing entry; ms relative to navigation start. */
export interface TimingEntry {
  name: string;
  initiatorType: string;
  startTime: number;
  domainLookupStart: number;
  domainLookupEnd: number;
  connectStart: number;
  secureConnectionStart: number;
  connectEnd: number;
  requestStart: number;
  responseStart: number;
  responseEnd: number;
  transferSize: number;
  encodedBodySize: number;
  nextHopProtocol: string;
  /** Start of the fetch after redirects: a connect phase after it means a new connection. Absent in old records. */
  fetchStart?: number;
  /** HTTP status (Resource Timing `responseStatus`); 0 or absent when the browser does not expose it. */
  responseStatus?: number;
  /**
   * Cross-origin without Timing-Allow-Origin: the browser zeroes the detailed phases. The UI must
   * say "not exposed" rather than show those zeros as measurements.
   */
  restricted: boolean;
}

export interface NavigationTiming {
  /** Epoch ms of navigation start (`performance.timeOrigin`); absent in records of older versions. */
  timeOrigin?: number;
  /** ms from navigation start. */
  responseStart: number;
  /** When DOMContentLoaded's handlers began (same clock as Resource Timing); absent in records of older versions. */
  domContentLoadedEventStart?: number;
  domContentLoadedEventEnd: number;
  loadEventEnd: number;
  nextHopProtocol: string;
  /** The document's own fetch, as Navigation Timing gives it (absent in records of older versions). */
  fetchStart?: number;
  domainLookupStart?: number;
  domainLookupEnd?: number;
  connectStart?: number;
  /** 0 on http:; absent in records of older versions. */
  secureConnectionStart?: number;
  connectEnd?: number;
  requestStart?: number;
  responseEnd?: number;
  /** The document's bytes (headers counted as the browser counts them), redirects excluded. */
  transferSize?: number;
  encodedBodySize?: number;
  /** 0 when not exposed. */
  responseStatus?: number;
  /** '' when not exposed. */
  contentType?: string;
  redirectCount?: number;
  /**
   * First contentful paint (Paint Timing), ms from navigation start; absent before the page painted,
   * where the browser has no Paint Timing, and in records of older versions.
   */
  firstContentfulPaint?: number;
}

export interface ReplayState {
  status: 'running' | 'done' | 'error';
  startedAt: number;
  strategies: string[];
  results: ReplayResultMessage[];
  summary?: ReplaySummaryMessage;
  error?: { code: string; message: string };
}

export type { DiscoveredResource };
