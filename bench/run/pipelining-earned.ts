/**
 * What a getlist run's own records say about the pipelining it earned: how many requests were
 * written behind an unfinished response, how deep one connection's pipeline got, and how many
 * order probes (HEADs, src/scheduler/order-probe.ts) it sent to prove an origin keeps order.
 */
import type { RequestRecord } from '../../src/run';

export interface PipeliningEarned {
  /** Requests written while an earlier response on their connection was unfinished. */
  pipelined: number;
  /** Most requests unfinished on one connection at the moment one of them was written (1 = none pipelined). */
  maxDepth: number;
  orderProbes: number;
}

export function pipeliningEarned(run: { requests: readonly Pick<RequestRecord, 'connectionId' | 'pipelined' | 'sentMs' | 'doneMs'>[]; orderProbes: number }): PipeliningEarned {
  let maxDepth = run.requests.some((r) => r.sentMs !== null) ? 1 : 0;
  for (const r of run.requests) {
    if (!r.pipelined || r.sentMs === null || r.connectionId === null) continue;
    const sent = r.sentMs;
    const ahead = run.requests.filter((o) => o !== r && o.connectionId === r.connectionId && o.sentMs !== null && o.sentMs <= sent && o.doneMs > sent);
    maxDepth = Math.max(maxDepth, ahead.length + 1);
  }
  return { pipelined: run.requests.filter((r) => r.pipelined).length, maxDepth, orderProbes: run.orderProbes };
}
