import type { ScheduleItem } from '../../src/protocol';
import type { Run } from '../../src/run';
import { preconnectPlan, SchedulerError, type Strategy } from '../../src/scheduler';
import type { OriginMemory } from '../../src/origins/origin-memory';
import { originsUsed } from './page-loader';
import { runSession, type RunTransportOptions } from './run-session';

export interface ReplayListOptions {
  /** The page the list belongs to (recorded as the run's `url`; not fetched unless listed). */
  documentUrl: string;
  items: readonly ScheduleItem[];
  strategy: Strategy;
  /** Aborting closes every connection and rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Requests still unfinished after this long fail with `E_LOAD_TIMEOUT`. @default 120000 */
  timeoutMs?: number;
  transport?: RunTransportOptions;
  /**
   * Origin memory (the store's, native-host/store/store-origin-memory.ts): the replay starts from
   * what earlier loads learned (pipelining, request budgets, protocol, path; with
   * `strategy.preconnect`, the page's learned origins are connected at t = 0) and writes back what it
   * learns, the page's origin list included. Used only by strategies with `useOriginMemory`.
   */
  memory?: OriginMemory;
  now?: () => number;
}

/**
 * Fetches a fixed request list with one strategy on fresh connections (a new transport and
 * connector: no warm sockets, no TLS session reuse) and returns the run. Unlike `loadPage`
 * nothing is discovered: the whole list is known up front, as GETLIST sends it, and every item is
 * enqueued at once with the priority the browser gave it and its `discoveredAt` as the queue's
 * order: the strategy, not the list's order, decides what goes first (`browser`: as the browser
 * found them; prioritising strategies: by class, then as found).
 *
 * Requests carry only the transport's fixed headers: never the user's cookies or credentials.
 */
export async function replayList(options: ReplayListOptions): Promise<Run> {
  options.signal?.throwIfAborted();
  const timeoutMs = options.timeoutMs ?? 120_000;
  const memory = options.strategy.useOriginMemory ? options.memory : undefined;
  const { run, results } = await runSession(
    {
      url: options.documentUrl,
      strategy: options.strategy,
      transport: options.transport,
      timeoutMs,
      timeoutError: () => new SchedulerError('E_LOAD_TIMEOUT', `replaying ${options.documentUrl} with ${options.strategy.name}: still unfinished when the replay's ${timeoutMs} ms ran out`),
      signal: options.signal,
      now: options.now,
      ...(memory ? { memory } : {}),
    },
    (scheduler) => {
      if (memory && options.strategy.preconnect) {
        for (const t of preconnectPlan(options.documentUrl, memory, options.strategy)) scheduler.preconnect(t.origin, t.connections);
      }
      const orders = discoveryOrders(options.items);
      options.items.forEach((item, i) => {
        scheduler.enqueue({ url: item.url, method: item.method ?? 'GET', priority: item.priority, resourceType: item.resourceType, order: orders[i] });
      });
    },
  );
  // A timeout is not an error here: what was unfinished is in the run as E_LOAD_TIMEOUT.
  options.signal?.throwIfAborted();
  memory?.putPageOrigins(options.documentUrl, originsUsed(results));
  return run;
}

/**
 * Each item's discovery order: its `discoveredAt`, or (for an item without one) its predecessor's,
 * so it keeps its place behind it; items before any `discoveredAt` stand at 0.
 */
export function discoveryOrders(items: readonly ScheduleItem[]): number[] {
  let last = 0;
  return items.map((item) => (last = item.discoveredAt ?? last));
}
