import type { PriorityClass } from '../core/priority';
import type { StrategyName } from '../scheduler/strategies';
import type { ExportFormat } from '../stats/export-formats';
import type { HandshakeRecord, HandshakeSource } from '../stats/handshake';
import type { RequestId } from './errors';

/** Browser → host. Every request has a `type` and an `id`; every reply carries the same `id`. */
export type HostRequest = HelloRequest | PingRequest | ScheduleRequest | DiscoverRequest | HandshakesRequest | StatsRequest | ExportRequest | ForgetRequest;

export type HostRequestType = HostRequest['type'];

export const REQUEST_TYPES: readonly HostRequestType[] = ['hello', 'ping', 'schedule', 'discover', 'handshakes', 'stats', 'export', 'forget'];

/** Opens a conversation; the reply says what the host can do. */
export interface HelloRequest {
  type: 'hello';
  id: RequestId;
  /** The version the extension speaks (see `SUPPORTED_PROTOCOL_VERSIONS`). */
  protocolVersion: number;
}

export interface PingRequest {
  type: 'ping';
  id: RequestId;
}

export type ScheduleMode = 'measure' | 'replay';
export const SCHEDULE_MODES: readonly ScheduleMode[] = ['measure', 'replay'];

export type ScheduleMethod = 'GET' | 'HEAD';

/** One resource of a page, as the extension discovered it. */
export interface ScheduleItem {
  /** Absolute http: or https: URL without user name or password, at most 8192 characters. */
  url: string;
  /** @default 'GET' */
  method?: ScheduleMethod;
  priority: PriorityClass;
  /** When the browser learned of it, ms since navigation start (informational). */
  discoveredAt?: number;
  /** In the first viewport when discovered (informational). */
  inViewport?: boolean;
  /** The browser's resource type, e.g. `image`, `stylesheet` (carried into results as `resourceType`). */
  resourceType?: string;
}

/**
 * A page's request list.
 * - `measure` (the default): open one connection to each origin the host holds no warm connection
 *   to, and report its handshake; nothing is fetched.
 * - `replay`: fetch the whole list once per strategy, each on fresh connections, and compare.
 */
export interface ScheduleRequest {
  type: 'schedule';
  id: RequestId;
  /** The extension's name for this page load, echoed in every reply. */
  pageId: string;
  documentUrl: string;
  /** At most 2000. */
  requests: ScheduleItem[];
  /** @default 'measure' */
  mode?: ScheduleMode;
  /** Replay only. @default ['browser', 'getlist'] */
  strategies?: StrategyName[];
  /**
   * Replay only: an absolute path to a PEM CA file the host trusts, besides the system's, for
   * https origins (a local dev site's own CA). The host reads it; `E_CA_FILE` when it cannot.
   */
  caFile?: string;
  /**
   * The user allows a public page's list to reach loopback, link-local and private addresses
   * (extension option). Otherwise the host refuses connections to an address more private than
   * the page's own (Private Network Access). @default false
   */
  allowPrivateNetwork?: boolean;
  /**
   * Replay only: host mappings in curl's `--resolve` syntax, `HOST:PORT:ADDRESS` (HOST may be
   * `*`; at most 64), from the extension's options: connections to HOST:PORT go to ADDRESS while
   * requests keep the URL's host (`Host`, SNI, certificates) — to replay a local development site
   * under its real name. The first matching line wins.
   */
  hostMappings?: string[];
}

/**
 * Discover a page the way a browser would, without cookies or credentials (docs/native-host.md,
 * "What the host fetches for the browser"): its document and its style sheets only, so that the
 * CSS rules matched to its elements and the fonts its text uses are named. Nothing else the page
 * names is fetched. The reply lists what was found.
 */
export interface DiscoverRequest {
  type: 'discover';
  id: RequestId;
  /** The page: an absolute http(s) URL. */
  url: string;
  /** As for `schedule`: without it, the host refuses addresses more private than the page's own. @default false */
  allowPrivateNetwork?: boolean;
}

/**
 * One connection the user's browser opened for a page, from the page's Resource Timing
 * (src/page/model/browser-handshakes.ts). Phases in ms, 0 where a phase did not happen or was not
 * exposed (a DNS answer from the browser's cache; TLS on http:); `startedAt` is where DNS (or,
 * without it, the connect) started; `protocol` is the entry's `nextHopProtocol` (HTTP/3, QUIC with no
 * TCP phase, is not recorded). The browser exposes neither the address nor TLS resumption, so a
 * record has neither.
 */
export type BrowserHandshake = Pick<HandshakeRecord, 'origin' | 'startedAt' | 'dnsMs' | 'tcpMs' | 'tlsMs' | 'totalMs' | 'protocol' | 'connect'>;

/**
 * The connections the user's browser opened for one page (never sent from a private window): the
 * host stores them beside its own handshake records with source `browser`. The reply is `recorded`.
 */
export interface HandshakesRequest {
  type: 'handshakes';
  id: RequestId;
  /** The page whose load opened them. */
  pageUrl: string;
  /** At most `MAX_BROWSER_HANDSHAKES`. */
  handshakes: BrowserHandshake[];
}

/** Handshake-time statistics from the store. */
export interface StatsRequest {
  type: 'stats';
  id: RequestId;
  /** Only records of this source (who opened the connection); every source when absent. */
  source?: HandshakeSource;
  /** Only this origin (`scheme://host[:port]`; normalised by the validator). */
  origin?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
}

/** The stored handshakes in a file format. */
export interface ExportRequest {
  type: 'export';
  id: RequestId;
  format: ExportFormat;
  /** Only records of this source; every source (each labelled) when absent. */
  source?: HandshakeSource;
  origin?: string;
  /** Epoch ms, inclusive. */
  since?: number;
}

/**
 * Deletes stored records: everything about one origin, or, with `all: true`, everything. A forget
 * must say which: one naming neither (or both) is refused, so no malformed or truncated message
 * can empty the store.
 */
export type ForgetRequest = { type: 'forget'; id: RequestId; origin: string } | { type: 'forget'; id: RequestId; all: true };
