import type { ConnState, OriginState } from './connection-state';
import { expectedFamily } from './content-type-check';
import { isLowLatency } from '../core/priority';
import { isPipelinable, type ScheduledRequest } from './request';
import { h2DemandLimit, h2StreamsWhileSiblingsConnect } from './h2-windows';
import { INITIAL_WINDOW_BYTES } from './path-estimate';
import { canPair } from './response-fingerprint';
import type { Strategy } from './strategies';

/**
 * How many more requests like `req` connection `c` can take right now.
 *
 * Invariants: only ready, non-draining connections take requests; an idle connection takes one;
 * a busy HTTP/1.1 connection takes more only when pipelining is on, the origin is healthy enough,
 * every outstanding request is GET/HEAD, none is expected to be large, and no retry gate is set.
 * On an origin that desynchronised, a connection still holding untrusted responses takes nothing:
 * a request written behind them would take an extra response as its answer.
 */
export function roomFor(
  c: ConnState,
  req: ScheduledRequest,
  strategy: Strategy,
  now: number,
): number {
  if (c.state !== 'ready' || c.draining) return 0;
  const n = c.outstanding.length;
  if (c.held > 0 && c.origin.desynced) return 0;
  if (c.protocol === 'h2') return Math.min(c.maxStreams, h2StreamsWhileSiblingsConnect(c, now, strategy, req)) - n;
  if (n === 0) return 1;
  const pipelining = strategy.pipelining;
  if (c.gate || c.blockers > 0 || !pipelining || !isPipelinable(req.method)) return 0;
  const health = c.origin.health;
  if (health.state(now) === 'probing') {
    if (sameFamilyAhead(c, req) && !canPair(c.outstanding[n - 1], req)) return 0;
    // Behind a response already arriving a request proves nothing, and it would take the slot the
    // framing probe needs (order-probe.ts): while a probe may come, only a render-blocking request
    // (which must not wait a handshake) goes behind it; the rest wait for an idle connection.
    if (pipelining.orderProbe && c.origin.persistent && !c.origin.orderProbeSent && !isLowLatency(req.priority) && req.knownFingerprint === undefined) return 0;
  }
  return Math.min(health.depth(now, pipelining.maxDepth), shareWhileConnecting(c, now)) - n;
}

/**
 * While siblings that are nearly up are still handshaking (opened together at t = 0, as for a
 * returning visit's learned list), a busy connection takes no more than an even share of the
 * origin's work over every connection it has or is about to have. The first connection up is a
 * millisecond ahead of its siblings; piling the whole list on it (P&M's page: the document and
 * every image on one connection, the others idle) puts more than one congestion window on one
 * slow-starting connection and ends a round trip late. "Nearly up": a sibling whose
 * connect started more than half of `c`'s own handshake time ago, so it should be ready within
 * half a handshake. One opened later, for demand, is about a whole handshake away and is not
 * waited for (McManus: a request goes to whichever connection is ready). None such: no cap.
 */
function shareWhileConnecting(c: ConnState, now: number): number {
  const o = c.origin;
  const halfHandshake = ((c.readyAt ?? now) - c.openedAt) / 2;
  let connecting = 0;
  let open = 0;
  let outstanding = 0;
  for (const k of o.conns) {
    if (k.state === 'connecting') connecting += k.openedAt < now - halfHandshake ? 1 : 0;
    else if (k.state === 'ready' && !k.draining) {
      open += 1;
      outstanding += k.outstanding.length;
    }
  }
  if (connecting === 0) return Infinity;
  return Math.ceil((o.queue.size + o.retries.size + outstanding) / (open + connecting));
}

/**
 * While an origin's pipelining is on probation, a request is not pipelined directly behind one
 * that expects the same family of response (two images): a server that answers out of order
 * would swap them unseen. Behind a different family a swap contradicts a `Content-Type`
 * (content-type-check.ts), so the probe itself shows whether the origin keeps order; a request of
 * no known family (no resource type) counts as the same family as anything. The one
 * exception is a fingerprint pair (response-fingerprint.ts `canPair`): two remembered bodies
 * that differ, whose results wait until both are checked against them.
 */
function sameFamilyAhead(c: ConnState, req: ScheduledRequest): boolean {
  const last = c.outstanding[c.outstanding.length - 1];
  // A response already arriving cannot be swapped with a request written after it began.
  if (last === undefined || last.firstByteAt !== undefined) return false;
  const family = expectedFamily(req.resourceType);
  const lastFamily = expectedFamily(last.request.resourceType);
  // A request of no known family expects no Content-Type, so a swap with it contradicts nothing:
  // on probation it is pipelined behind nothing, and nothing behind it.
  return family === undefined || lastFamily === undefined || family === lastFamily;
}

/** Connections an origin may have open at once under `strategy`. */
export function connectionLimit(o: OriginState, strategy: Strategy, pathHandshakeMs?: number, pathRoom?: number): number {
  // Until ALPN has answered we cannot tell whether one multiplexed connection will do, so an
  // HTTP/2-capable strategy opens one connection first and learns (browsers do the same) — unless
  // requests already wait for it on a slow path (h2-windows.ts).
  // A learned list's windows (list-windows.ts) are the limit at the pump that opens them.
  if (o.protocol === undefined) return Math.max(o.warmWindows, h2DemandLimit(o, strategy, pathHandshakeMs, pathRoom));
  // One stall on the origin's connection allows a second one (stream-stall.ts).
  if (o.protocol === 'h2') return Math.max(o.warmWindows, o.h2Stalls > 0 && strategy.http2 ? strategy.http2.connectionsOnStall : 1, h2DemandLimit(o, strategy, pathHandshakeMs, pathRoom));
  const { maxPerOrigin, fitToPath } = strategy.connections;
  if (fitToPath) {
    // While the first response shows the path's rate, open nothing more; then keep to the cap.
    if (o.path.state === 'measuring') return Math.max(1, o.conns.length);
    if (o.path.state === 'decided') return Math.min(maxPerOrigin, o.path.connectionCap);
  }
  return maxPerOrigin;
}

/**
 * An idle ready connection if there is one, else the least-loaded one with room; between equally
 * loaded ones, the one that has carried fewest requests. So a burst pipelined at once is spread
 * round-robin rather than piled on the first connection: each connection's share of one flight
 * stays within its congestion window (10 segments, RFC 6928), past which the last response on it
 * ends a round trip after the rest. An origin's several h2 connections (list-windows.ts,
 * h2-windows.ts) are loaded by the bytes their streams are expected to carry (a learned list's
 * sizes), since a window holds bytes, not requests; a size not known (the document's, or any on a
 * first visit) counts as one initial window, so with none known this is the count of requests.
 * On an origin given the document's windows (`Scheduler.documentWindows`) render-blocking requests
 * and fonts go to its warmest connection, and the rest to the others while they have room.
 */
export function pickConnection(o: OriginState, req: ScheduledRequest, strategy: Strategy, now: number): ConnState | undefined {
  if (o.documentWindows) {
    // The document's warm window is kept for what the page cannot render without.
    if (isLowLatency(req.priority) || req.priority === 'font') {
      const warm = warmest(o);
      if (warm && roomFor(warm, req, strategy, now) > 0 && warm.expectedBytes + expectedBodyBytes(req) <= 2 * (INITIAL_WINDOW_BYTES + warm.receivedBytes)) return warm;
    } else {
      const cold = leastLoaded(o, req, strategy, now, warmest(o));
      if (cold) return cold;
    }
  }
  return leastLoaded(o, req, strategy, now, undefined);
}

function leastLoaded(o: OriginState, req: ScheduledRequest, strategy: Strategy, now: number, except: ConnState | undefined): ConnState | undefined {
  let best: ConnState | undefined;
  let bestBytes = 0;
  for (const c of o.conns) {
    if (c === except || roomFor(c, req, strategy, now) <= 0) continue;
    if (c.outstanding.length === 0) return c;
    const bytes = c.protocol === 'h2' && o.conns.length > 1 ? c.expectedBytes : 0;
    if (!best || bytes < bestBytes || (bytes === bestBytes && (c.outstanding.length < best.outstanding.length || (c.outstanding.length === best.outstanding.length && c.carried < best.carried)))) {
      best = c;
      bestBytes = bytes;
    }
  }
  return best;
}

/**
 * The h2 connection whose window has grown most (the most body bytes received). A render-blocking
 * response or a font sent there, while it is expected to carry under two of its windows, rides the
 * window the document grew, where a cold window opened for the document's burst carries ten
 * segments in its first round, less the server's tickets, so a 10 kB sheet can take two
 * (bench/README.md, "Windows for the document's origin").
 */
function warmest(o: OriginState): ConnState | undefined {
  let best: ConnState | undefined;
  for (const c of o.conns) if (c.protocol === 'h2' && c.receivedBytes > 0 && (!best || c.receivedBytes > best.receivedBytes)) best = c;
  return best;
}

/** Body bytes `req` is expected to bring (`RequestSpec.expectedSize`, else one initial window): what `ConnState.expectedBytes` sums. */
export function expectedBodyBytes(req: ScheduledRequest): number {
  return req.expectedSize ?? INITIAL_WINDOW_BYTES;
}

/**
 * Connections to open now: enough for the demand ready connections could not absorb (each
 * waiting request may become the first on a new connection), less those already handshaking,
 * within the origin's limit. Speculative: a request goes to whichever connection is ready first.
 * `pathHandshakeMs`: the quickest handshake this load has measured (h2-windows.ts).
 */
export function connectionsToOpen(o: OriginState, strategy: Strategy, pathHandshakeMs?: number, pathRoom?: number): number {
  const demand = o.queue.size + o.retries.size;
  // A preconnect target (preconnect.ts) asks for connections before any request is ready.
  const warm = o.warm - o.conns.length;
  if (demand === 0 && warm <= 0) return 0;
  let connecting = 0;
  // A stalled connection takes nothing and counts toward no limit (stalled-response.ts), nor does an
  // h2 connection the server is going away from (GOAWAY: its open streams end, it takes no more).
  let counted = 0;
  for (const c of o.conns) {
    if (c.state === 'connecting') connecting += 1;
    if (!c.stalled && !(c.draining && c.protocol === 'h2')) counted += 1;
  }
  return Math.max(0, Math.min(connectionLimit(o, strategy, pathHandshakeMs, pathRoom) - counted, Math.max(demand - connecting, warm)));
}
