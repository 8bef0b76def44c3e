import { Scheduler, type Dispatch, type RequestResult, type SchedulerStats, type Strategy } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { UndiciTransport, type UndiciTransportOptions } from '../../native-host/transport/undici-transport';
import type { ListItem } from './run-list';

/**
 * Like `runList`, but the load stays open: the test enqueues requests while others are in
 * flight (e.g. from a transport hook) and calls `finish()` when it has enqueued everything.
 * The caller's `onResponseHead` / `onBody` hooks still run.
 */
export function startLoad(strategy: Strategy, transportOptions: Partial<UndiciTransportOptions> = {}) {
  const results: RequestResult[] = [];
  const handshakes: HandshakeRecord[] = [];
  const bytesSeen = new Map<number, number>();
  const transport = new UndiciTransport({
    ...transportOptions,
    onHandshake: (h) => {
      handshakes.push(h);
      transportOptions.onHandshake?.(h);
    },
    onResponseHead: (d: Dispatch, status, headers) => {
      bytesSeen.set(d.request.id, 0);
      transportOptions.onResponseHead?.(d, status, headers);
    },
    onBody: (d: Dispatch, chunk) => {
      bytesSeen.set(d.request.id, (bytesSeen.get(d.request.id) ?? 0) + chunk.length);
      transportOptions.onBody?.(d, chunk);
    },
  });
  const scheduler = new Scheduler({ strategy, transport, clock: { now: () => performance.now() }, observer: { onRequestSettled: (r) => results.push(r) } });
  transport.attach(scheduler);
  const enqueue = (item: ListItem) => scheduler.enqueue({ url: item.url, priority: item.priority ?? 'image', ...(item.method ? { method: item.method } : {}) });
  return {
    scheduler,
    transport,
    enqueue,
    /** Body bytes received so far, by request id. */
    bytesSeen: (requestId: number) => bytesSeen.get(requestId) ?? 0,
    /** Waits until everything enqueued so far has settled, then closes the load. */
    async finish(): Promise<{ results: RequestResult[]; handshakes: HandshakeRecord[]; stats: SchedulerStats }> {
      await scheduler.whenIdle();
      const stats = scheduler.stats();
      scheduler.close();
      await transport.close();
      return { results: [...results].sort((a, b) => a.id - b.id), handshakes, stats };
    },
  };
}
