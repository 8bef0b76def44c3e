/**
 * How late each run's responses came beyond a round trip (src/scheduler/queue-delay.ts), read off
 * the traces real-bench.ts recorded: what tells a load the link limited from one that asked less
 * than its link carries (bench/README.md, "A queue on the path").
 *
 * The samples are taken from the trace as the scheduler takes them live: a request other than the
 * page's document (the trace's first) sent on a connection already up, with no other request of
 * that connection outstanding, its first byte less its send less the round trip of its origin's
 * first connection up (the TCP handshake's).
 *
 * Pure: formats what real-bench.ts recorded.
 */
import { QueueDelay, QUEUED_MS } from '../../src/scheduler/queue-delay';
import type { LoadTrace } from '../run/load-trace';
import type { RealCellResult } from './real-bench';

/** The queue verdict of one traced load: the median lateness in ms and whether it counts as a queue (undefined: no sample). */
export function traceQueue(trace: LoadTrace): { medianMs: number | undefined; samples: number; queued: boolean | undefined } {
  const rttOf = new Map<string, number>();
  for (const k of [...trace.connections].sort((a, b) => a.readyMs - b.readyMs)) {
    if (k.phases !== undefined && !rttOf.has(k.origin)) rttOf.set(k.origin, k.phases.tcpMs);
  }
  const conns = new Map(trace.connections.map((k) => [k.id, k]));
  const q = new QueueDelay();
  trace.requests.forEach((r, i) => {
    if (i === 0) return; // the document
    const k = r.connection === null ? undefined : conns.get(r.connection);
    // Trace times are rounded to 0.1 ms each: a request written the moment its connection came up may read 0.1 ms before it.
    if (k === undefined || r.sentMs === null || r.firstByteMs === null || r.sentMs < k.readyMs - 0.1) return;
    const sent = r.sentMs;
    // Outstanding when it was written: sent before it (the trace keeps the order of sends within a millisecond), not yet done.
    const busy = trace.requests.some((o, j) => o.connection === r.connection && o.sentMs !== null && (o.sentMs < sent || (o.sentMs === sent && j < i)) && (o.doneMs ?? Infinity) > sent);
    const rtt = rttOf.get(k.origin);
    if (!busy) q.started(sent, r.firstByteMs, true, rtt);
  });
  return { medianMs: q.medianMs, samples: q.size, queued: q.queued };
}

/** One line per cell and contender: each run's median lateness (its sample count) and the verdict, `q` queued, `-` not, `?` no sample. */
export function realQueueLines(cells: readonly RealCellResult[], contenders: readonly string[]): string {
  const lines = [`how late first bytes came beyond a round trip, median ms (samples) per run; q = a queue (≥ ${QUEUED_MS} ms), ? = no sample`];
  for (const cell of cells) {
    for (const c of contenders) {
      const traces = cell.traces[c] ?? [];
      if (traces.length === 0) continue;
      const runs = traces.map((t) => {
        const v = traceQueue(t);
        const mark = v.queued === undefined ? '?' : v.queued ? 'q' : '-';
        return `${v.medianMs === undefined ? '—' : v.medianMs.toFixed(1)} (${v.samples}) ${mark}`;
      });
      lines.push(`${cell.link.padEnd(14)} ${cell.page.padEnd(11)} ${c.padEnd(16)} ${runs.join('  ')}`);
    }
  }
  return lines.join('\n');
}
