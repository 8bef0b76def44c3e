import type { ConnState, OriginState } from './connection-state';
import { isLowLatency } from '../core/priority';
import { slowStartWindows } from './list-windows';
import type { ScheduledRequest } from './request';
import { windowsForDemand, type Strategy } from './strategies';

/**
 * More than one congestion window for an HTTP/2 origin, on a first visit.
 *
 * One h2 connection starts from one initial window (10 segments, RFC 6928) that at most doubles
 * every round trip (RFC 5681 slow start); six HTTP/1.1 connections start from six. The lower bound
 * (bench/model/MODEL.md, family 3) lets a client use up to six windows per origin, and the
 * real-shaped pages' traces showed where one window cost (bench/README.md, "Real-shaped pages"): a
 * page's images, or its sync scripts, on one h2 connection took round trips more than the bound,
 * and the `@import`ed sheet that names the page's backgrounds waited behind its sibling sheet's
 * whole body on the same connection.
 *
 * So requests that wait for an https origin while its connections are still handshaking open
 * connections of their own, up to `http2.connectionsForDemand`, before ALPN has said h2 — by then a
 * new connection would be a whole handshake late. Only where a handshake of this load took at
 * least `http2.demandMinHandshakeMs`: an extra connection
 * costs a TLS handshake's computation at both ends (a few ms) and buys round trips, which on a
 * LAN or loopback are worth less. Demand that a ready connection absorbs opens nothing, so an
 * origin found after the page's handshakes, or served quickly, keeps one connection as before.
 * And only within what the client's link takes at once (`pathRoom`, load-path.ts: its initial
 * windows less the connections already connecting or busy, every origin's): until the load's first
 * flight has said, or where the link is full, an origin keeps one. Browsers keep one h2 connection
 * per origin; the `h2` strategy models them and keeps one.
 */
export function h2DemandLimit(o: OriginState, strategy: Strategy, pathHandshakeMs: number | undefined, pathRoom: number | undefined): number {
  const h2 = windowsForDemand(strategy);
  // Not once a learned list is queued (`RequestSpec.listed`; the scheduler passes no handshake):
  // windows opened into that burst when the first handshake finished come a handshake after their
  // siblings and carry nothing but losses (bench/README.md, "Real-shaped pages", revisits at
  // 10 Mbit/s). A list's windows open at t = 0 with a remembered budget instead (list-windows.ts).
  const slow = pathHandshakeMs ?? -Infinity;
  if (h2 === undefined || slow < h2.demandMinHandshakeMs || pathRoom === undefined) return 1;
  const fits = Math.max(1, Math.min(h2.connectionsForDemand, o.conns.length + pathRoom));
  if (strategy.connections.fitToPath) {
    // As for HTTP/1.1 (path-estimate.ts): more windows than the path holds only cause loss.
    if (o.path.state === 'measuring') return Math.max(1, o.conns.length);
    if (o.path.state === 'decided') return Math.max(1, Math.min(fits, o.path.connectionCap));
  }
  return fits;
}

/**
 * Streams a ready h2 connection may carry while siblings of its origin are still connecting.
 *
 * - Siblings opened together with it (within a quarter of `c`'s own handshake, so about to be
 *   ready): one. The burst found while they handshake is dealt one stream per connection in rank
 *   order, so the most urgent requests each start a window of their own (an `@import`ed sheet is
 *   not sent behind its sibling sheet's whole body), and the rest go to the least loaded once they
 *   are up.
 * - Siblings opened later, for demand (about a handshake behind): its share of the origin's work
 *   by slow-start rounds ({@link shareBeforeLaterSiblings}). Those windows were opened for the
 *   requests that wait; piled on the first connection up, they would come up with nothing to carry
 *   while it slow-starts through the whole burst. Not for a low-latency request (the document, a
 *   render-blocking sheet or script): it goes now, whatever its size, as McManus has it jump every
 *   queue; the share counts a request as one window, which a script's body may well exceed.
 *
 * None such, or a handshake too quick for extra windows: no cap.
 */
export function h2StreamsWhileSiblingsConnect(c: ConnState, now: number, strategy: Strategy, req: ScheduledRequest): number {
  const handshake = (c.readyAt ?? now) - c.openedAt;
  // Where handshakes are quick, extra windows are not wanted (h2DemandLimit): nothing to wait for.
  const h2 = windowsForDemand(strategy);
  if (h2 === undefined || handshake < h2.demandMinHandshakeMs) return Infinity;
  const quarter = handshake / 4;
  const rttMs = c.origin.rttMs ?? handshake / 2;
  const later: number[] = [];
  for (const k of c.origin.conns) {
    if (k === c || k.state !== 'connecting') continue;
    if (Math.abs(k.openedAt - c.openedAt) <= quarter) return 1;
    // Expected up one handshake like `c`'s after its connect began. One overdue by a whole round
    // trip is not counted on: its share goes to the connections that are up.
    const expected = k.openedAt + handshake;
    if (expected + rttMs > now) later.push(Math.max(now, expected));
  }
  return later.length === 0 || isLowLatency(req.priority) ? Infinity : shareBeforeLaterSiblings(c, now, later, rttMs);
}

/**
 * The streams `c` carries when the origin's work (its waiting requests and those outstanding on
 * its ready connections) is dealt over its ready connections, starting now, and the siblings still
 * connecting, starting when each is expected up, so that all of it ends soonest. Each request
 * counts as one initial window (sizes are not known on a first visit; pickConnection counts the
 * same), and a connection delivers 1, 2, 4, … windows in its successive round trips (RFC 5681
 * slow start from RFC 6928's initial window). The work fills the earliest round ends of all the
 * connections; at the round end that completes it, what is left is shared in proportion to what
 * each connection delivers then. A sibling whose first round would end after that carries none, so
 * a ready connection that can end the work sooner alone takes all of it. At least one: a ready
 * connection never idles.
 */
export function shareBeforeLaterSiblings(c: ConnState, now: number, siblingsUpAt: readonly number[], rttMs: number): number {
  const o = c.origin;
  let work = o.queue.size + o.retries.size;
  let ready = 0;
  for (const k of o.conns) {
    if (k.state !== 'ready' || k.draining) continue;
    ready += 1;
    work += k.outstanding.length;
  }
  const starts = [...Array<number>(ready).fill(now), ...siblingsUpAt];
  const delivered = (start: number, at: number) => (at < start ? 0 : slowStartWindows(Math.floor((at - start) / rttMs + 1e-9)));
  const total = (at: number) => starts.reduce((sum, s) => sum + delivered(s, at), 0);
  // Round ends of every connection, up to the rounds `c` alone would need.
  const maxRounds = Math.ceil(Math.log2(work + 1));
  const ends = [...new Set(starts.flatMap((s) => Array.from({ length: maxRounds }, (_, m) => s + (m + 1) * rttMs)))].sort((x, y) => x - y);
  let before = now;
  for (const at of ends) {
    const all = total(at);
    if (all >= work) {
      const done = total(before);
      const mine = delivered(now, before);
      const share = mine + Math.ceil(((work - done) * (delivered(now, at) - mine)) / (all - done));
      return Math.max(1, share);
    }
    before = at;
  }
  return Infinity;
}
