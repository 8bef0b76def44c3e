import { PipelineHealth } from './pipeline-health';
import { Fifo, PriorityQueue } from './priority-queue';
import { isPipelinable, type ScheduledRequest } from './request';
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
}

export interface ConnState {
  readonly id: number;
  readonly origin: OriginState;
  state: 'connecting' | 'ready' | 'closed';
  protocol: 'h2' | 'http/1.1' | undefined;
  maxStreams: number;
  /** Dispatches not yet settled, in the order they were written. */
  readonly outstanding: DispatchState[];
  /** Dispatches ever written on this connection. */
  carried: number;
  /** Outstanding dispatches with `blocksPipeline` set (kept so `roomFor` is O(1)). */
  blockers: number;
  /** Takes no more requests: the server or the strategy said this connection ends after what it carries. */
  draining: boolean;
  /** A retried request is outstanding here: nothing may be pipelined behind it (RFC 9112 §9.3.2). */
  gate: DispatchState | undefined;
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
  /** Learned from ALPN on the first connection; `http:` origins are HTTP/1.1 from the start. */
  protocol: 'unknown' | 'h1' | 'h2';
  consecutiveConnectFailures: number;
  /** Listed in the scheduler's dirty list, waiting for the next pump. */
  dirty: boolean;
}

export function createOrigin(origin: string, strategy: Strategy): OriginState {
  const https = origin.startsWith('https:');
  return {
    origin,
    https,
    queue: new PriorityQueue<ScheduledRequest>(strategy.priorities),
    retries: new Fifo<ScheduledRequest>(),
    conns: [],
    health: new PipelineHealth(strategy.probeSuccesses, strategy.demoteMs),
    protocol: https && strategy.http2 ? 'unknown' : 'h1',
    consecutiveConnectFailures: 0,
    dirty: false,
  };
}

/**
 * How many more requests like `req` connection `c` can take right now.
 *
 * Invariants: only ready, non-draining connections take requests; an idle connection takes one;
 * a busy HTTP/1.1 connection takes more only when pipelining is on, the origin is healthy enough,
 * every outstanding request is GET/HEAD, none is expected to be large, and no retry gate is set.
 */
export function roomFor(
  c: ConnState,
  req: ScheduledRequest,
  strategy: Strategy,
  now: number,
): number {
  if (c.state !== 'ready' || c.draining) return 0;
  const n = c.outstanding.length;
  if (c.protocol === 'h2') return c.maxStreams - n;
  if (n === 0) return 1;
  if (c.gate || c.blockers > 0 || !strategy.pipelining || !isPipelinable(req.method)) return 0;
  return c.origin.health.depth(now, strategy.maxPipelineDepth) - n;
}

/** Connections an origin may have open at once under `strategy`. */
export function connectionLimit(o: OriginState, strategy: Strategy): number {
  // Until ALPN has answered we cannot tell whether one multiplexed connection will do, so an
  // HTTP/2-capable strategy opens one connection first and learns (browsers do the same).
  if (o.protocol === 'h2' || o.protocol === 'unknown') return 1;
  return strategy.maxConnectionsPerOrigin;
}
