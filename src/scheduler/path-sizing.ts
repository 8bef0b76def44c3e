import type { DispatchState, OriginState } from './connection-state';
import { connectionsForPath, FlightRate, SEGMENT_BYTES } from './path-estimate';

/** What an origin's first flight decided (`connections.fitToPath`). */
export interface PathSizing {
  connectionCap: number;
  /** Bottleneck rate from the first flight, bytes per ms; undefined when it was too short to tell. */
  rateBytesPerMs: number | undefined;
  rttMs: number;
}

/**
 * Feeds `bytes` of `d`'s body to its origin's path measurement (path-estimate.ts): the first
 * HTTP/1.1 body of the origin starts it, and only that body's bytes count. Returns true when the
 * flight says enough (it ended, or 8 segments arrived): the caller then ends it with `decidePathSize`.
 */
export function measureFirstFlight(d: DispatchState, bytes: number, now: number): boolean {
  const o = d.conn.origin;
  if (o.path.state === 'decided') return false;
  if (o.path.state === 'idle') {
    // The round trip: the handshake's, or this response's request-to-first-byte time if longer
    // (a relay or proxy that answers the handshake itself hides the path's RTT from it).
    const ttfb = d.firstByteAt === undefined ? 0 : d.firstByteAt - d.sentAt;
    const rttMs = Math.max(o.rttMs ?? 0, ttfb);
    // A flight ends at a pause for ACKs: about a round trip, which segments never take on a
    // path of useful rate (1,448 B at 375 kbit/s is 31 ms).
    o.path = { state: 'measuring', dispatchId: d.id, rttMs, flight: new FlightRate(Math.max(20, rttMs / 2)) };
  }
  if (o.path.state !== 'measuring' || o.path.dispatchId !== d.id) return false;
  o.path.flight.add(bytes, now);
  return o.path.flight.done || o.path.flight.countedBytes >= 8 * SEGMENT_BYTES;
}

/**
 * Ends a measurement in progress: a cap from the estimate, or `maxConnections` when there is none.
 * Undefined when nothing was being measured.
 */
export function decidePathSize(o: OriginState, maxConnections: number): PathSizing | undefined {
  if (o.path.state !== 'measuring') return undefined;
  const rate = o.path.flight.estimate();
  const { rttMs } = o.path;
  const connectionCap = rate === undefined || !(rttMs > 0) ? maxConnections : connectionsForPath(rate, rttMs, maxConnections);
  o.path = { state: 'decided', connectionCap };
  return { connectionCap, rateBytesPerMs: rate, rttMs };
}
