import type { RequestRecord, RunSummary } from '../run';
import type { StrategyName } from '../scheduler/strategies';
import type { HandshakeRecord } from '../stats/handshake';
import type { HandshakeStatsJSON } from '../stats/handshake-stats';
import type { ErrorReply, RequestId } from './errors';
import type { ExportFormat } from '../stats/export-formats';

/** Host → browser. `chunk` carries a slice of a larger message (see chunks.ts). */
export type HostMessage =
  | HelloReply
  | PongReply
  | MeasuredReply
  | ReplayResultMessage
  | ReplaySummaryMessage
  | StatsReply
  | ExportReply
  | ForgottenReply
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
}

/** One strategy's run of a replay, sent as soon as that run completes. */
export interface ReplayResultMessage {
  type: 'replay-result';
  id: RequestId;
  pageId: string;
  strategy: StrategyName;
  /** In the order of the schedule's `requests`; times are ms from the start of this strategy's run. */
  requests: RequestRecord[];
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
export type StatsReply = { type: 'stats'; id: RequestId } & HandshakeStatsJSON;

export interface ExportReply {
  type: 'export';
  id: RequestId;
  format: ExportFormat;
  mimeType: string;
  data: string;
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
