import type { ConnState, OriginState } from './connection-state';
import { pickConnection } from './dispatch-policy';
import type { ScheduledRequest } from './request';
import type { Strategy } from './strategies';

/**
 * A server closes a keep-alive connection once it has been idle for its timeout, and a request
 * written on it meanwhile crosses the close in flight (RFC 9112 §9.3.1): it is lost unanswered,
 * through no fault of its own. Three consequences:
 *
 * - A connection that sat idle is exposed to that race whether or not it carried a request before:
 *   Chromium counts a preconnected socket taken from the idle pool (`UNUSED_IDLE`) as reused when
 *   deciding to resend (`HttpBasicState::IsConnectionReused`), and so does retry-policy.ts.
 * - The request lost that way goes next onto a connection that has carried nothing. A server gives
 *   a new connection's first request its header timeout (seconds on nginx, Apache, lighttpd, Node),
 *   not its keep-alive timeout, so that send cannot meet the same race; any used connection can,
 *   however briefly it was idle, when the timeout is shorter than the client's own delays. This
 *   costs the retry a handshake when no unused connection is ready, and is what keeps it within
 *   `MAX_SENDS`.
 * - Connections opened together go idle together, and the server's timer closes them together. A
 *   send lost after its connection sat idle for a time bounds the server's timeout by it: idle
 *   connections as old as half that are presumed closing, and are closed before they lose a
 *   request too.
 */

/** How long `c` has sat idle in the pool at `now`; 0 when it has not (it is busy, or was handed a request the moment it was free). */
export function idleAge(c: ConnState, now: number): number {
  return c.idleSince === undefined ? 0 : now - c.idleSince;
}

/** After a pump: every ready connection of `o` left with nothing outstanding starts idling now. */
export function markIdle(o: OriginState, now: number): void {
  for (const c of o.conns) {
    if (c.state === 'ready' && c.outstanding.length === 0) c.idleSince ??= now;
  }
}

/** Whether `c` is presumed closed by the server's idle timer that `req`'s lost send met. */
function staleFor(c: ConnState, req: ScheduledRequest, now: number): boolean {
  return req.lostIdleMs !== undefined && req.lostIdleMs > 0 && c.idleSince !== undefined && idleAge(c, now) >= req.lostIdleMs / 2;
}

export interface RetryChoice {
  /** The connection to write the retry on; undefined when none may take it. */
  target: ConnState | undefined;
  /** Idle connections presumed closing: to be closed. */
  stale: ConnState[];
}

/**
 * Where `req`'s retry goes among `idle` (ready connections with nothing outstanding that may take
 * one). After a send lost unanswered on a used connection (`req.lostIdleMs` set): only a connection
 * that has carried nothing and is not stale. Otherwise a never-used connection first, else the one
 * idle the shortest.
 */
export function retryConnection(idle: readonly ConnState[], req: ScheduledRequest, now: number): RetryChoice {
  let target: ConnState | undefined;
  const stale: ConnState[] = [];
  for (const c of idle) {
    if (staleFor(c, req, now)) stale.push(c);
    else if (req.lostIdleMs !== undefined && c.carried > 0) continue;
    else if (target === undefined || better(c, target, now)) target = c;
  }
  return { target, stale };
}

/**
 * Where `req`'s retry goes on an HTTP/2 origin: a stream on whichever connection has room, beside
 * other streams, as any request's. What keeps an HTTP/1.1 retry alone on an idle connection is
 * framing: a response written behind it could be taken for its answer (RFC 9112 §9.3.2); streams
 * cannot. So the requests a lost connection (or a GOAWAY) took go on one new connection together,
 * not on a connection each. A connection idle as long as the close `req` met is not used; a busy one
 * runs no idle timer. Undefined on HTTP/1.1 and when none has room.
 */
export function streamForRetry(o: OriginState, req: ScheduledRequest, strategy: Strategy, now: number): ConnState | undefined {
  if (o.protocol !== 'h2') return undefined;
  const c = pickConnection(o, req, strategy, now);
  return c?.protocol === 'h2' && !staleFor(c, req, now) ? c : undefined;
}

function better(c: ConnState, than: ConnState, now: number): boolean {
  if ((c.carried === 0) !== (than.carried === 0)) return c.carried === 0;
  return idleAge(c, now) < idleAge(than, now);
}

/**
 * A retry that needs an unused connection when the origin may open none (at its limit, none
 * handshaking): the idle connection idle the longest, closed so that one can open. Undefined when
 * every connection is busy; the retry waits for one to free.
 */
export function roomForRetry(o: OriginState, idle: readonly ConnState[], now: number, canOpen: boolean): ConnState | undefined {
  if (canOpen || o.conns.some((c) => c.state === 'connecting')) return undefined;
  let oldest: ConnState | undefined;
  for (const c of idle) if (oldest === undefined || idleAge(c, now) > idleAge(oldest, now)) oldest = c;
  return oldest;
}
