import type { ScheduleItem } from '../../src/protocol';
import type { Run } from '../../src/run';
import { originsUsed, preconnectLearned } from './page-memory';
import { runPage, type PageRunOptions } from './page-run';

export interface ReplayListOptions extends Pick<PageRunOptions, 'strategy' | 'transport' | 'timeoutMs' | 'memory' | 'signal' | 'now'> {
  /** The page the list belongs to (recorded as the run's `url`; not fetched unless listed). */
  documentUrl: string;
  items: readonly ScheduleItem[];
}

/**
 * Fetches a fixed request list with one strategy on fresh connections (a new transport and
 * connector: no warm sockets, no TLS session reuse) and returns the run. Unlike `loadPage`
 * nothing is discovered: the whole list is known up front, as GETLIST sends it, and every item is
 * enqueued at once with the priority the browser gave it and its `discoveredAt` as the queue's
 * order: the strategy, not the list's order, decides what goes first (`browser`: as the browser
 * found them; prioritising strategies: by class, then as found). With origin memory the replay
 * starts from what earlier loads learned (with `connections.preconnect`, the page's learned origins
 * are connected at t = 0) and writes back what it learns, the page's origin list included.
 *
 * Requests carry only the transport's fixed headers: never the user's cookies or credentials.
 * @throws the signal's `AbortError` when aborted; a timeout is not an error (what was unfinished
 * is in the run as `E_LOAD_TIMEOUT`).
 */
export async function replayList(options: ReplayListOptions): Promise<Run> {
  const { documentUrl, items, strategy } = options;
  const { run } = await runPage(
    { ...options, url: documentUrl },
    {
      kind: 'replay',
      start: (scheduler, memory) => {
        preconnectLearned(scheduler, documentUrl, memory, strategy);
        const orders = discoveryOrders(items);
        items.forEach((item, i) => {
          scheduler.enqueue({ url: item.url, method: item.method ?? 'GET', priority: item.priority, resourceType: item.resourceType, order: orders[i] });
        });
      },
      learn: (results) => ({ origins: originsUsed(results) }),
    },
  );
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
