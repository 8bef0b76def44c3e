import type { ConnState, DispatchState, OriginState } from './connection-state';
import type { SchedulerError } from './errors';
import type { OriginLearner } from './origin-recall';
import type { OriginMemory } from '../origins/origin-memory';
import type { DemotionReason } from './pipeline-health';
import type { ScheduledRequest } from './request';
import type { BudgetObservation } from './request-budget';
import type { SchedulerObserver, SchedulerStats } from './scheduler-options';
import type { SizeHints } from './size-hints';
import type { Strategy } from './strategies';
import type { Clock, TransportPort } from './transport-port';

/**
 * The seams between the scheduler's parts. `Scheduler` (scheduler.ts) is the facade: it builds one
 * of each part, hands every part the same `SchedulerContext` and `SchedulerParts`, and routes the
 * transport's callbacks to the part that owns them. A part reaches another only through the small
 * interface below, never its class, so each file can be read (and its invariants checked) alone.
 *
 * Every part runs on the one thread of the scheduler, synchronously: a part that changes an
 * origin's queues or connections marks it dirty (`Dispatching.markDirty`), and the pump re-decides
 * it before the call that caused it returns.
 */
export interface SchedulerContext {
  readonly strategy: Strategy;
  readonly clock: Clock;
  readonly transport: TransportPort;
  readonly observer: SchedulerObserver;
  readonly counters: SchedulerStats;
  /** Sizes learned of large responses (`SchedulerOptions.sizeHints`). */
  readonly sizes: SizeHints;
  /** The origin memory, only when the strategy has a `memory` policy and the scheduler a memory. */
  readonly memory: OriginMemory | undefined;
  /** Writes what this load learns to `memory` (origin-recall.ts); undefined without one. */
  readonly learner: OriginLearner | undefined;
}

export interface SchedulerParts {
  readonly origins: Origins;
  readonly ledger: Ledger;
  readonly dispatching: Dispatching;
  readonly connections: Connections;
  readonly acceptance: Acceptance;
  readonly pacing: Pacing;
}

/** Each origin's state, by name (origin-registry.ts). */
export interface Origins {
  get(origin: string): OriginState | undefined;
  values(): IterableIterator<OriginState>;
  /** The origin stops pipelining for `demoteMs` (pipeline-health.ts): counted, reported, remembered. */
  demote(o: OriginState, reason: DemotionReason): void;
}

/** How a request ends: its final attempt (if any), its body bytes, when, and why not, if it failed. */
export interface Settled {
  dispatch: DispatchState | undefined;
  bytes: number;
  doneAt: number;
  error?: SchedulerError;
}

/** Every request from enqueue to its one result (request-ledger.ts). */
export interface Ledger {
  /** Reports `req`'s result to the observer, once (the scheduler's own probe never). */
  settle(req: ScheduledRequest, how: Settled): void;
  /** Settles a request that never got a usable attempt. */
  fail(req: ScheduledRequest, error: SchedulerError): void;
  /** A waiting request was handed to a connection. */
  dequeued(): void;
  /** Resolves `whenIdle` waiters once nothing is unsettled and no pump is running. */
  notifyIdle(): void;
}

/** The pump, and every dispatch in flight (dispatcher.ts). */
export interface Dispatching {
  readonly pumping: boolean;
  readonly closed: boolean;
  /** Low-latency dispatches written and not yet settled. */
  readonly urgent: number;
  markDirty(o: OriginState): void;
  /** Ends a dispatch's bookkeeping (room, pausing, measurements); its request is settled apart. */
  settleDispatch(d: DispatchState): void;
  /** A dispatch died with its connection (or was `discarded` with it): re-queued or failed (retry-policy.ts). */
  loseDispatch(d: DispatchState, error: unknown, discarded?: boolean): void;
  /**
   * A settled dispatch's request goes again, alone, using no attempt (its answer was not used), or
   * fails with `why` once it was written `MAX_SENDS` times.
   */
  sendAgain(d: DispatchState, why: SchedulerError): void;
}

/** Connections from open to close (connection-lifecycle.ts). */
export interface Connections {
  open(o: OriginState): void;
  /** The connection is gone; `culprit` failed with `error`, the others on it are collateral. */
  closed(connectionId: number, error: unknown, culprit?: DispatchState, desyncReason?: DemotionReason): void;
  /** Closes a connection whose answers cannot be trusted (`why` is an `E_DESYNC`), and demotes its origin. */
  discard(c: ConnState, why: SchedulerError, reason: DemotionReason): void;
  /** Closes a drained connection once nothing it received waits for confirmation. */
  retire(c: ConnState): void;
  /** Closes `c` if it takes nothing more and carries nothing (connection-lifecycle.ts); true when it did. */
  retireIfDrained(c: ConnState): boolean;
  learnBudget(origin: string, obs: BudgetObservation): void;
  /** A response ended on `c` (its `served` counts it). */
  served(c: ConnState): void;
  /** Connections of every origin that are connecting or carrying requests. */
  activeCount(): number;
}

/** Responses that ended but are not delivered yet: held for confirmation, or in a fingerprint pair (response-acceptance.ts). */
export interface Acceptance {
  /** `c` is gone: what it holds is settled as received, or lost with it when it desynchronised. */
  releaseOnClose(c: ConnState, error: unknown, desync: boolean): void;
  /** `c` is retired in step: everything it holds is confirmed. */
  releaseConfirmed(c: ConnState): void;
  /** Whether to ask the transport for `req`'s body digest on `c` (response-fingerprint.ts). */
  wantsFingerprint(c: ConnState, req: ScheduledRequest, now: number): boolean;
}

/** The path: sizing connections to it, HTTP/2 windows for demand, and pausing (path-pacing.ts). */
export interface Pacing {
  /** A remembered bottleneck rate (origin memory): what tells the link busy from idle. */
  recalledRate(rateBytesPerMs: number | null | undefined): void;
  /** A connection's handshake took `ms` (without the host's own loop delay). */
  handshake(ms: number): void;
  /** The quickest handshake that lets HTTP/2 windows open for demand, or undefined (h2-windows.ts). */
  demandHandshakeMs(): number | undefined;
  /** Initial windows the link still takes for `o`'s demand, or undefined when none may open. */
  demandRoom(o: OriginState): number | undefined;
  /** `d` settled: the measurements and the pause it carried end with it. */
  dispatchSettled(d: DispatchState): void;
  /** Pauses or resumes lower-priority bodies for the urgent ones in flight (low-latency-pauser.ts). */
  updatePauses(dispatches: ReadonlyMap<number, DispatchState>, urgent: number): void;
  /** The load is over (`Scheduler.close`): what it measured of the link is remembered. */
  loadEnded(): void;
}
