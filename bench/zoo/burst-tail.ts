/**
 * How long the last response of a pipelined burst takes from its first byte to its last, beside
 * every other response: a server that holds that tail back (Debian's nginx, Caddy) costs up to a
 * round trip that no client scheduling can win back. A burst's last response
 * is one written while the response ahead of it on its connection was unfinished, with nothing
 * written behind it before it ended.
 */
import { median } from '../real/real-bench';
import type { LoadTrace, TracedRequest } from '../run/load-trace';

export interface BurstTail {
  /** Median ms from first to last byte of a burst's last response; null with none. */
  lastMs: number | null;
  bursts: number;
  /** The same over every other response. */
  otherMs: number | null;
}

type Timed = TracedRequest & { sentMs: number; firstByteMs: number; doneMs: number };

export function burstTail(traces: readonly LoadTrace[]): BurstTail {
  const last: number[] = [];
  const other: number[] = [];
  for (const t of traces) {
    const byConnection = new Map<number, Timed[]>();
    for (const r of t.requests) {
      if (r.connection === null || r.sentMs === null || r.firstByteMs === null || r.doneMs === null) continue;
      byConnection.set(r.connection, [...(byConnection.get(r.connection) ?? []), r as Timed]);
    }
    for (const rs of byConnection.values()) {
      rs.sort((a, b) => a.firstByteMs - b.firstByteMs);
      rs.forEach((r, i) => {
        const ahead = rs[i - 1];
        const next = rs[i + 1];
        const pipelined = ahead !== undefined && r.sentMs < ahead.doneMs;
        const endsBurst = next === undefined || next.sentMs >= r.doneMs;
        (pipelined && endsBurst ? last : other).push(r.doneMs - r.firstByteMs);
      });
    }
  }
  return { lastMs: median(last), bursts: last.length, otherMs: median(other) };
}
