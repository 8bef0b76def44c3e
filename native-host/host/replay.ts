import type { ScheduleItem } from '../../src/protocol';
import { Scheduler, type RequestResult, type Strategy } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { settleWithin } from '../load/load-deadline';
import { summarizeRun, type LoadRun } from '../load/run-summary';
import { UndiciTransport, type UndiciTransportOptions } from '../transport/undici-transport';

export type ReplayTransportOptions = Pick<UndiciTransportOptions, 'ca' | 'rejectUnauthorized' | 'timeoutMs' | 'requestTimeoutMs' | 'requestTotalTimeoutMs' | 'userAgent' | 'addressCheck'>;

export interface ReplayListOptions {
  /** The page the list belongs to (recorded as the run's `url`; not fetched unless listed). */
  documentUrl: string;
  items: readonly ScheduleItem[];
  strategy: Strategy;
  /** Aborting closes every connection and rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Requests still unfinished after this long fail with `E_LOAD_TIMEOUT`. @default 120000 */
  timeoutMs?: number;
  transport?: ReplayTransportOptions;
  now?: () => number;
}

/**
 * Fetches a fixed request list with one strategy on fresh connections (a new transport and
 * connector: no warm sockets, no TLS session reuse) and summarises the run. Unlike `loadPage`
 * nothing is discovered: the whole list is known up front, as GETLIST sends it, and every item is
 * enqueued at once with the priority the browser gave it.
 *
 * Requests carry only the transport's fixed headers: never the user's cookies or credentials.
 */
export async function replayList(options: ReplayListOptions): Promise<LoadRun> {
  const now = options.now ?? (() => performance.now());
  const signal = options.signal;
  signal?.throwIfAborted();
  const startedAt = Date.now();
  const t0 = now();
  const results: RequestResult[] = [];
  const handshakes: HandshakeRecord[] = [];
  const transport = new UndiciTransport({ ...options.transport, now, onHandshake: (h) => handshakes.push(h) });
  const scheduler = new Scheduler({ strategy: options.strategy, transport, clock: { now }, observer: { onRequestSettled: (r) => results.push(r) } });
  transport.attach(scheduler);

  let stats: ReturnType<Scheduler['stats']>;
  try {
    for (const item of options.items) {
      scheduler.enqueue({ url: item.url, method: item.method ?? 'GET', priority: item.priority, ...(item.resourceType !== undefined ? { tag: item.resourceType } : {}) });
    }
    await settleWithin(scheduler, options.timeoutMs ?? 120_000, `replaying ${options.documentUrl} with ${options.strategy.name}`, signal);
    stats = scheduler.stats();
  } finally {
    // Settles whatever is still pending (timeout, abort) with E_SCHEDULER_CLOSED; closes every connection.
    scheduler.close();
    await transport.close();
  }
  signal?.throwIfAborted();
  return summarizeRun({ url: options.documentUrl, strategy: options.strategy.name, startedAt, t0, results, handshakes, stats });
}
