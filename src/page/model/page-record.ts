import type { DiscoveredResource, ResourceKind } from '../../discovery';
import type { MeasuredReply, ReplayResultMessage, ReplaySummaryMessage } from '../../protocol';
import type { PriorityClass } from '../../scheduler/priority';

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
  /** The host's `measure` answer for this page (handshakes of origins it had no warm connection to). */
  measured?: MeasuredReply;
  replay?: ReplayState;
  /** Why the host could not be asked, when it could not (missing host, protocol error…). */
  hostError?: { code: string; message: string };
  /** The page's site is in the user's excluded list: nothing was sent to the host. */
  excluded?: boolean;
}

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
  /** URLs this request was redirected from, in order. */
  redirectedFrom?: string[];
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
}

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
  /**
   * Cross-origin without Timing-Allow-Origin: the browser zeroes the detailed phases. The UI must
   * say "not exposed" rather than show those zeros as measurements.
   */
  restricted: boolean;
}

export interface NavigationTiming {
  /** ms from navigation start. */
  responseStart: number;
  domContentLoadedEventEnd: number;
  loadEventEnd: number;
  nextHopProtocol: string;
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
