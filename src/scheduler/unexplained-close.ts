import type { ConnState, OriginState, UnexplainedClose } from './connection-state';

/**
 * A connection closed with pipelined requests unanswered, before anything explained the close.
 *
 * A server that closes at its request budget (nginx `keepalive_requests`) while later pipelined
 * requests are still arriving closes with unread data, so its TCP stack resets the connection,
 * and "the reset packet might erase the client's unacknowledged input buffers before they can be
 * read" (RFC 9112 §9.6): the budget's `Connection: close`, and every answer before it, may be lost
 * with it. The connections opened beside it are about to show the same budget, so the verdict
 * waits for them:
 * - a budget learned below what the closed connection carried explains the close: no demotion;
 * - a witness serving as many responses as the closed connection carried and staying open, every
 *   witness gone without a budget, or a second unexplained close: the origin is demoted.
 */

/** The witnesses of `closed`'s close: the origin's other HTTP/1.1 connections with requests in flight. */
export function witnessesOf(o: OriginState, closed: ConnState): Set<number> {
  return new Set(o.conns.filter((s) => s !== closed && s.state === 'ready' && s.protocol === 'http/1.1' && s.outstanding.length > 0).map((s) => s.id));
}

/** Whether a budget learned for the origin explains the close: it is below what the closed connection carried. */
export function explainedBy(pending: UnexplainedClose, budget: number | undefined): boolean {
  return budget !== undefined && budget < pending.carried;
}

/** Whether witness `c` answered the closed connection's close: it served as many and stays open. */
export function refutedBy(pending: UnexplainedClose, c: ConnState): boolean {
  return pending.witnesses.has(c.id) && !c.draining && c.served >= pending.carried;
}
