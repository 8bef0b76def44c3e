import type { OriginMemory } from '../origins/origin-memory';
import type { PathSizing } from './path-sizing';
import type { DemotionReason } from './pipeline-health';
import type { RequestResult } from './request';
import type { OriginBudgets } from './request-budget';
import type { Strategy } from './strategies';
import type { Clock, TransportPort } from './transport-port';

export interface SchedulerObserver {
  onRequestSettled?(result: RequestResult): void;
  onConnectionOpening?(connectionId: number, origin: string): void;
  onDemoted?(origin: string, reason: DemotionReason): void;
  /** An origin's HTTP/1.1 connection cap was set from its path (`connections.fitToPath`). */
  onPathSized?(origin: string, sizing: PathSizing): void;
}

export interface SchedulerOptions {
  strategy: Strategy;
  transport: TransportPort;
  clock: Clock;
  observer?: SchedulerObserver;
  /**
   * Sizes of responses known to be large, keyed by URL, learned on earlier loads and updated as
   * responses complete. Only sizes ≥ the large-response threshold are kept (size-hints.ts): they
   * are the only ones that change a decision, and a small page then costs no memory here.
   */
  sizeHints?: Map<string, number>;
  /** Requests that may wait at once; more are refused with `E_QUEUE_FULL`. @default 50000 */
  maxQueued?: number;
  /** What earlier loads learned per origin; read and written when the strategy has a `memory` policy. */
  memory?: OriginMemory;
  /**
   * Per-origin connection request budgets, learned and used (request-budget.ts). @default the
   * origin memory's `requestBudget` facts when a memory is used, else a new `MemoryBudgets`
   */
  budgets?: OriginBudgets;
  /**
   * Connect to ports on the Fetch standard's bad-ports list. Otherwise such a request settles at
   * once with `E_UNSAFE_PORT`, as browsers refuse it. @default false
   */
  allowUnsafePorts?: boolean;
}

export interface SchedulerStats {
  connectionsOpened: number;
  dispatches: number;
  retries: number;
  demotions: Array<{ origin: string; reason: DemotionReason }>;
  pauses: number;
  /** `HEAD`s the scheduler sent of its own to prove an origin keeps order (order-probe.ts). */
  orderProbes: number;
}
