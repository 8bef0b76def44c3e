import { createHash } from 'node:crypto';
import { Scheduler, type RequestResult, type Strategy } from '../../src/scheduler';
import type { PriorityClass } from '../../src/core/priority';
import type { HandshakeRecord } from '../../src/stats/handshake';
import type { OriginMemory } from '../../src/origins/origin-memory';
import { UndiciTransport, type UndiciTransportOptions } from '../../native-host/transport/undici-transport';

export interface ListItem {
  url: string;
  priority?: PriorityClass;
  method?: string;
  resourceType?: string;
}

/**
 * Loads a fixed request list with the real scheduler and the real undici transport, and collects
 * results, handshakes and a hash of each response body (per final attempt). `later` lists are
 * enqueued one at a time, each once the scheduler is idle again (its connections still open).
 * `memory`: the origin memory the load starts from and writes to (a strategy with a memory policy).
 */
export async function runList(strategy: Strategy, items: ListItem[], transportOptions: Partial<UndiciTransportOptions> = {}, later: ListItem[][] = [], memory?: OriginMemory) {
  const results: RequestResult[] = [];
  const handshakes: HandshakeRecord[] = [];
  const bodies = new Map<number, Buffer[]>();
  const transport = new UndiciTransport({
    ...transportOptions,
    onHandshake: (h) => handshakes.push(h),
    // A retried attempt gets a new head, which starts its body over.
    onBody: (d, chunk) => bodies.get(d.request.id)?.push(chunk),
    onResponseHead: (d) => bodies.set(d.request.id, []),
  });
  const scheduler = new Scheduler({ strategy, transport, clock: { now: () => performance.now() }, ...(memory ? { memory } : {}), observer: { onRequestSettled: (r) => results.push(r) } });
  transport.attach(scheduler);
  for (const batch of [items, ...later]) {
    for (const item of batch) {
      scheduler.enqueue({ url: item.url, priority: item.priority ?? 'image', ...(item.method ? { method: item.method } : {}), ...(item.resourceType ? { resourceType: item.resourceType } : {}) });
    }
    await scheduler.whenIdle();
  }
  const stats = scheduler.stats();
  scheduler.close();
  await transport.close();
  const sha = (id: number) => createHash('sha256').update(Buffer.concat(bodies.get(id) ?? [])).digest('hex');
  return { results: results.sort((a, b) => a.id - b.id), handshakes, stats, sha };
}

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
