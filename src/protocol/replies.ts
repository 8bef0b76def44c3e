import type { RequestRecord, RunSummary } from '../run';
import type { StrategyName } from '../scheduler/strategies';
import type { HandshakeRecord } from '../stats/handshake';
import type { HandshakeStatsJSON } from '../stats/handshake-stats';
import type { ErrorReply, RequestId } from './errors';
import type { ExportFormat } from '../stats/export-formats';
import type { StoreHealth } from './store-health';

/** Host → browser. `chunk` carries a slice of a larger message (see chunks.ts). */
export type HostMessage =
  | HelloReply
  | PongReply
  | MeasuredReply
  | DiscoveredReply
  | ReplayResultMessage
  | ReplaySummaryMessage
  | StatsReply
  | ExportReply
  | ForgottenReply
  | RecordedReply
  | ErrorReply
  | ChunkMessage;

export type HostMessageType = HostMessage['type'];

export interface HostCapabilities {
  /** Strategies a replay may ask for. */
  strategies: StrategyName[];
  /** The host negotiates HTTP/2 by ALPN where an origin offers it. */
  http2: true;
  /** Where the handshake store lives, or null when the host runs without one. */
  store: string | null;
  /** Whether the store is saving what the host measures (absent without a store, or from an older host). */
  storeHealth?: StoreHealth;
  maxRequestsPerSchedule: number;
  /** Host → browser messages are strictly smaller than this; larger ones arrive chunked. */
  maxMessageBytes: number;
}

export interface HelloReply {
  type: 'hello';
  id: RequestId;
  hostVersion: string;
  protocolVersion: number;
  capabilities: HostCapabilities;
  /**
   * The command line that runs this installation's CLI, absolute and shell-quoted (e.g.
   * `/usr/bin/node /opt/getlist/bin/getlist.js`), so the browser can show the exact `doctor`
   * command for it. Absent from hosts that do not know where they were installed.
   */
  cliCommand?: string;
}

export interface PongReply {
  type: 'pong';
  id: RequestId;
}

/**
 * A handshake as it travels: JSON drops `undefined`, so `remoteAddress`, `remotePort`,
 * `localPort` and `tlsVersion` may be absent.
 */
export type WireHandshake = HandshakeRecord;

/** An origin the host could not connect to while measuring. */
export interface MeasureFailure {
  origin: string;
  /** The socket or connector error code, e.g. `ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`. */
  code: string;
  message: string;
}

/** The reply to `schedule` in `measure` mode. */
export interface MeasuredReply {
  type: 'measured';
  id: RequestId;
  pageId: string;
  /** One per origin the host connected to, document origin first. */
  handshakes: WireHandshake[];
  /** Origins skipped because the host already held a warm connection to them. */
  warm: string[];
  failed: MeasureFailure[];
  /** The store's health when the host answered (absent without a store). */
  storeHealth?: StoreHealth;
}

/** How a discovered resource was named: in the markup, or only inside a style sheet (`url()`, `@import`, a font for text using it). */
export type DiscoveredVia = 'html' | 'css';
export const DISCOVERED_VIA: readonly DiscoveredVia[] = ['html', 'css'];
/** What a discovered resource is fetched as (the `as` of its preload). */
export type DiscoveredAs = 'font' | 'image' | 'style' | 'script' | 'other';
export const DISCOVERED_AS: readonly DiscoveredAs[] = ['font', 'image', 'style', 'script', 'other'];

export interface DiscoveredItem {
  url: string;
  as: DiscoveredAs;
  via: DiscoveredVia;
}

/** The reply to `discover`: what the page names, in discovery order (at most MAX_DISCOVERED). */
export interface DiscoveredReply {
  type: 'discovered';
  id: RequestId;
  /** The document's URL after redirects. */
  url: string;
  resources: DiscoveredItem[];
}

/** One strategy's run of a replay, sent as soon as that run completes. */
export interface ReplayResultMessage {
  type: 'replay-result';
  id: RequestId;
  pageId: string;
  strategy: StrategyName;
  /** In the order of the schedule's `requests`; times are ms from the start of this strategy's run. */
  requests: RequestRecord[];
  /** Epoch ms when the run started (places `handshakes` on the requests' axis). Absent from older hosts. */
  startedAt?: number;
  /** Every connection the run opened, by `connectionId` (the waterfall's DNS/connect/TLS). Absent from older hosts. */
  handshakes?: HandshakeRecord[];
}

/** The last message of a replay: one summary per strategy, in the order they ran. */
export interface ReplaySummaryMessage {
  type: 'replay-summary';
  id: RequestId;
  pageId: string;
  /** Each the summary of that strategy's one run (`summarizeRun`). */
  summaries: RunSummary[];
}

/**
 * The reply to `stats`: the aggregation of the matching stored handshakes (`statsToJSON` in
 * src/stats/handshake-stats.ts: groups `all`, per origin, per protocol and per TLS kind, each with
 * per-phase percentiles, CDF and the mergeable histogram) under the envelope.
 */
export type StatsReply = { type: 'stats'; id: RequestId; storeHealth?: StoreHealth } & HandshakeStatsJSON;

export interface ExportReply {
  type: 'export';
  id: RequestId;
  format: ExportFormat;
  mimeType: string;
  data: string;
}

/** The reply to `handshakes`: how many of the browser's connections the store accepted. */
export interface RecordedReply {
  type: 'recorded';
  id: RequestId;
  recorded: number;
}

export interface ForgottenReply {
  type: 'forgotten';
  id: RequestId;
  /** Records deleted. */
  removed: number;
}

/**
 * One slice of a message whose JSON is too large for one native message. The slices are the
 * message's JSON text cut at UTF-16 boundaries that never split a surrogate pair; joined in `seq`
 * order they are exactly that text. A message's chunks are sent back to back, `seq` 0 first.
 */
export interface ChunkMessage {
  type: 'chunk';
  id: RequestId;
  /** 0-based. */
  seq: number;
  total: number;
  data: string;
}
