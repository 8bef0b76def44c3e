import type { HttpProtocol } from '../core/http-protocol';
import type { FlightRate } from './path-estimate';
import { PipelineHealth } from './pipeline-health';
import { Fifo, PriorityQueue } from './priority-queue';
import { rankInClass } from '../core/priority';
import type { ScheduledRequest } from './request';
import { PIPELINING } from './strategy-policies';
import type { Strategy } from './strategies';
import type { Dispatch } from './transport-port';

/** One attempt of a request on a connection, as the scheduler tracks it (and hands to the transport). */
export interface DispatchState extends Dispatch {
  readonly id: number;
  readonly conn: ConnState;
  readonly request: ScheduledRequest;
  readonly pipelined: boolean;
  readonly reused: boolean;
  readonly sentAt: number;
  firstByteAt: number | undefined;
  status: number | undefined;
  httpVersion: string | undefined;
  contentLength: number | undefined;
  /** Nothing may be pipelined behind it: not GET/HEAD, or its response is expected to be large. */
  blocksPipeline: boolean;
  paused: boolean;
  settled: boolean;
  earlyHints: string[] | undefined;
  /**
   * The dispatch written just ahead of it on its HTTP/1.1 connection, when that one's response had
   * not started yet: the two were at the server together, so a server that reorders could have
   * swapped them. Undefined otherwise (nothing ahead, or the response ahead already begun: a
   * server cannot reorder a response it has started writing).
   */
  aheadUnanswered: DispatchState | undefined;
  /** The response's `Content-Type`, once its head arrived. */
  contentType: string | undefined;
  /** Asked the transport for a body digest (`Dispatch.fingerprint`). */
  readonly fingerprint: boolean;
  /** Its response's fingerprint once it ended (response-fingerprint.ts `fingerprintOf`). */
  responseFingerprint: string | undefined;
  /** The fingerprint pair it belongs to (response-fingerprint.ts): its result waits for the pair's verdict. */
  pair: FingerprintPair | undefined;
  /**
   * Its answer contradicted its type on a connection that had carried others (response-acceptance.ts
   * `contradicted`): read to its end, never delivered, the request sent again alone.
   */
  refetch?: boolean;
  /** Its head completed an order proof, counted then (response-acceptance.ts `started`). */
  proofCounted?: boolean;
  /** How long its connection had sat idle when it was written (idle-race.ts); undefined: it had not. */
  readonly idleMs: number | undefined;
  /** Written on its connection (always a ready one) with nothing else outstanding: its first byte is a round trip, the server's time and any queue on the path away (queue-delay.ts). */
  readonly alone: boolean;
}

/** One ended member of a fingerprint pair (response-fingerprint.ts): its result waits for the verdict. */
export interface PairEnd {
  readonly bytes: number;
  readonly doneAt: number;
  /** The response's fingerprint (undefined: not a 200, or no digest). */
  readonly fingerprint: string | undefined;
  /** The transport trusted its framing (`responseEnded` confirmed or `responseConfirmed` since). */
  confirmed: boolean;
}

/** Two dispatches pipelined back to back whose remembered fingerprints differ (response-fingerprint.ts). */
export interface FingerprintPair {
  readonly ahead: DispatchState;
  readonly behind: DispatchState;
  readonly ends: Map<DispatchState, PairEnd>;
}

/** A response that ended but is not trusted yet (`ResponseEndInfo.confirmed` false). */
export interface HeldResponse {
  readonly dispatch: DispatchState;
  readonly bytes: number;
  readonly doneAt: number;
}

export interface ConnState {
  readonly id: number;
  readonly origin: OriginState;
  state: 'connecting' | 'ready' | 'closed';
  /** ALPN's answer once ready; undefined while connecting. */
  protocol: HttpProtocol | undefined;
  maxStreams: number;
  /** Dispatches not yet settled, in the order they were written. */
  readonly outstanding: DispatchState[];
  /** Dispatches ever written on this connection. */
  carried: number;
  /** When its connect started, and when it became ready (the scheduler's clock). */
  openedAt: number;
  readyAt: number | undefined;
  /**
   * Since when it has sat idle: ready, nothing outstanding, left so by a pump (idle-race.ts).
   * Undefined while it carries a request, and for a connection handed one the moment it was free.
   */
  idleSince: number | undefined;
  /** Outstanding dispatches with `blocksPipeline` set (kept so `roomFor` is O(1)). */
  blockers: number;
  /**
   * Body bytes the outstanding dispatches are expected to bring: each request's `expectedSize`,
   * else one initial window (kept so `pickConnection` is O(1) per connection).
   */
  expectedBytes: number;
  /** Body bytes received on it so far: what its congestion window has grown by, at most (RFC 5681 slow start). */
  receivedBytes: number;
  /** Takes no more requests: the server or the strategy said this connection ends after what it carries. */
  draining: boolean;
  /**
   * HTTP/1.1: its oldest response stalled (stalled-response.ts). Draining, and no longer counted
   * toward the origin's connection limit.
   */
  stalled: boolean;
  /** A retried request is outstanding here: nothing may be pipelined behind it (RFC 9112 §9.3.2). */
  gate: DispatchState | undefined;
  /** When body bytes last arrived on it (h2 stall detection, stream-stall.ts). */
  lastDataAt: number | undefined;
  /** Requests this connection may carry before the server closes it, when known (request-budget.ts). */
  budget: number | undefined;
  /** Responses that ended on it. */
  served: number;
  /** Ended responses waiting to be confirmed (held-responses.ts keeps them). */
  held: number;
}

export interface OriginState {
  readonly origin: string;
  readonly https: boolean;
  readonly queue: PriorityQueue<ScheduledRequest>;
  /** Requests lost with a connection, waiting for a fresh one. Served before `queue`. */
  readonly retries: Fifo<ScheduledRequest>;
  /** Live connections (connecting or ready), oldest first. */
  conns: ConnState[];
  readonly health: PipelineHealth;
  /**
   * Learned from ALPN on the first connection (or recalled); `http:` origins, and every origin of a
   * strategy without HTTP/2, are `http/1.1` from the start. Undefined: not known yet.
   */
  protocol: HttpProtocol | undefined;
  consecutiveConnectFailures: number;
  /** Listed in the scheduler's dirty list, waiting for the next pump. */
  dirty: boolean;
  /**
   * Sizing the origin's HTTP/1.1 connections to its path (`connections.fitToPath`): `idle` until
   * its first response body starts, `measuring` while that body's first flight arrives (no new
   * connection opens meanwhile: a few ms), then `decided` with `connectionCap`.
   */
  path: { state: 'idle' } | { state: 'measuring'; dispatchId: number; rttMs: number; flight: FlightRate } | { state: 'decided'; connectionCap: number };
  /** The TCP handshake time of its first connection: one round trip. */
  rttMs: number | undefined;
  /**
   * The server's SETTINGS_MAX_CONCURRENT_STREAMS, from this load's connections or recalled: what a
   * new h2 connection of the origin carries before its own SETTINGS arrive.
   */
  peerMaxStreams: number | undefined;
  /**
   * Connections wanted before any request is ready (preconnect.ts): opened at the next pump within
   * the origin's limit, then cleared. A one-shot target, so a closed connection is not reopened.
   */
  warm: number;
  /**
   * HTTP/2 windows a learned list asked for (list-windows.ts): the origin's connection limit at the
   * pump that opens its `warm` target, cleared with it, so no window opens later into the burst.
   */
  warmWindows: number;
  /**
   * The document's origin got windows as its TLS handshake started (`Scheduler.documentWindows`):
   * its render-blocking requests and fonts go to its warmest connection (dispatch-policy.ts
   * `pickConnection`), the rest to the cold ones.
   */
  documentWindows: boolean;
  /** Stalls seen on its HTTP/2 connection (stream-stall.ts); one allows a second connection. */
  h2Stalls: number;
  /** A framing order probe was sent this load (order-probe.ts): at most one per origin. */
  orderProbeSent: boolean;
  /**
   * A response of this load was HTTP/1.1 and did not say `Connection: close`: the origin keeps
   * connections open, as HTTP/1.1 does unless told otherwise (RFC 9112 §9.3) — whether or not it
   * says `Connection: keep-alive`.
   */
  persistent: boolean;
  /**
   * A connection of this load lost its framing (`E_DESYNC`). From then on a connection of the
   * origin takes its next request only once everything it carried is trusted (dispatch-policy.ts
   * `roomFor`), so one extra response can shift no answer but its own request's.
   */
  desynced: boolean;
  /** A close with requests unanswered, waiting for its witnesses to explain it (unexplained-close.ts). */
  unexplainedClose: UnexplainedClose | undefined;
}

export function createOrigin(origin: string, strategy: Strategy): OriginState {
  const https = origin.startsWith('https:');
  // Without pipelining the health is never consulted for depth, and never demoted.
  const { probeSuccesses, demoteMs } = strategy.pipelining || PIPELINING;
  return {
    origin,
    https,
    queue: new PriorityQueue<ScheduledRequest>(strategy.ordering === 'priorities', (r) => rankInClass(r.resourceType)),
    retries: new Fifo<ScheduledRequest>(),
    conns: [],
    health: new PipelineHealth(probeSuccesses, demoteMs),
    protocol: https && strategy.http2 ? undefined : 'http/1.1',
    consecutiveConnectFailures: 0,
    path: { state: 'idle' },
    rttMs: undefined,
    peerMaxStreams: undefined,
    warm: 0,
    warmWindows: 0,
    documentWindows: false,
    h2Stalls: 0,
    orderProbeSent: false,
    persistent: false,
    desynced: false,
    unexplainedClose: undefined,
    dirty: false,
  };
}

/** A close with requests unanswered that nothing has explained yet (unexplained-close.ts). */
export interface UnexplainedClose {
  /** Requests the closed connection carried. */
  readonly carried: number;
  /** Live HTTP/1.1 connections of the origin that were carrying requests when it closed. */
  readonly witnesses: Set<number>;
}
