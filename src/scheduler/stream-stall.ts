import type { ConnState, DispatchState } from './connection-state';

/**
 * A stall on an HTTP/2 connection: body bytes arrive for a stream that was already waiting before
 * the connection's previous bytes, after a gap longer than `max(minMs, 2 × RTT)`. On a loss-free
 * path a busy connection's bytes never pause that long; on a lossy one the gap is a retransmission
 * timeout or a recovery that stalls every stream of the connection at once (TCP head-of-line
 * blocking, which one h2 connection cannot avoid; bench/RESULTS.md shows one h2 connection per
 * origin falling behind on the lossy spdy-dsl links). The scheduler answers by opening a second
 * connection for the origin, so requests found later spread over two congestion windows.
 *
 * Records the arrival on `c` and returns whether it ended a stall.
 */
export function noteStreamData(c: ConnState, d: DispatchState, now: number, rttMs: number | undefined, minMs = 200): boolean {
  const last = c.lastDataAt;
  c.lastDataAt = now;
  if (c.protocol !== 'h2' || last === undefined || d.sentAt > last) return false;
  return now - last > Math.max(minMs, 2 * (rttMs ?? 0));
}
