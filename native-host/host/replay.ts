import type { ScheduleItem } from '../../src/protocol';
import type { Run } from '../../src/run';
import { SchedulerError, type Strategy } from '../../src/scheduler';
import { runSession, type RunTransportOptions } from '../run/run-session';

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
  const { run } = await runSession(
    {
      url: options.documentUrl,
      strategy: options.strategy,
      transport: options.transport,
      timeoutMs,
      timeoutError: () => new SchedulerError('E_LOAD_TIMEOUT', `replaying ${options.documentUrl} with ${options.strategy.name}: still unfinished when the replay's ${timeoutMs} ms ran out`),
      signal: options.signal,
      now: options.now,
    },
    (scheduler) => {
      const orders = discoveryOrders(options.items);
      options.items.forEach((item, i) => {
        scheduler.enqueue({ url: item.url, method: item.method ?? 'GET', priority: item.priority, resourceType: item.resourceType, order: orders[i] });
      });
    },
  );
  // A timeout is not an error here: what was unfinished is in the run as E_LOAD_TIMEOUT.
  options.signal?.throwIfAborted();
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
