import { dealt, listedBytes, type ListedLoad, type RememberedLink } from './list-windows';

/**
 * The order a returning visit's preconnect plan starts its handshakes (preconnect.ts).
 *
 * Connections opened together come up one after another: each TLS handshake's computation runs on
 * the client's one event loop, and the connect timer hands its sockets over one at a time
 * (connect-timer.ts). The last of a dozen starts its requests some milliseconds after the first
 * (bench/README.md, "A revisit's connections in order"), so the order decides which of the list's
 * responses that delay falls on.
 *
 * Pure: no I/O.
 */

/** A plan's target as ordered here: an origin and its connection count. */
interface Target {
  origin: string;
  connections: number;
}

/**
 * True when the remembered link is known to be the learned list's bottleneck: its rate was the
 * link's (`held`: a queue was seen on the path), and the list's bytes take longer than a round trip
 * through it. There the order of the first requests is the order the bottleneck serves them in.
 */
export function listFillsLink(link: RememberedLink, listed: ReadonlyMap<string, ListedLoad>): boolean {
  return link.held && listedBytes(listed) / link.rateBytesPerMs > link.rttMs;
}

/**
 * In the order the queue first needs each origin (`listed` holds the origins in the queue's order,
 * the document's first: list-windows.ts `listedLoads`), each origin's windows together. The first
 * requests sent are the page's most urgent, and where the link is the bottleneck they are served
 * first. An origin the list asks nothing of goes last; ties keep the plan's order.
 */
export function inQueueOrder<T extends Target>(plan: readonly T[], listed: ReadonlyMap<string, ListedLoad>): T[] {
  const rank = new Map([...listed.keys()].map((origin, i) => [origin, i]));
  return plan.map((t) => ({ t, at: rank.get(t.origin) ?? Infinity })).sort((a, b) => a.at - b.at).map(({ t }) => t);
}

/**
 * Where the link has room, the origin whose share of the list ends last opens first: its windows
 * were opened for the list's largest responses, and behind every other origin's first connection
 * they would come up last. TLS origins go before plain-http ones: their handshake takes a second
 * round trip, and a server flight sent after the plain-http connections' first responses waits
 * behind them wherever the path queues. Within each group, by the slow-start rounds of the
 * origin's busiest connection as the scheduler deals its share (list-windows.ts `dealt`); ties keep
 * the plan's order, and an origin the list asks nothing of goes last in its group.
 */
export function longestFirst<T extends Target>(plan: readonly T[], listed: ReadonlyMap<string, ListedLoad>): T[] {
  const rounds = (t: T): number => {
    const load = listed.get(t.origin);
    return load ? dealt(load.sizes, Math.max(1, t.connections)).rounds : 0;
  };
  const tls = (t: T): number => (t.origin.startsWith('https:') ? 1 : 0);
  return plan.map((t) => ({ t, tls: tls(t), rounds: rounds(t) })).sort((a, b) => b.tls - a.tls || b.rounds - a.rounds).map(({ t }) => t);
}

/**
 * The plan's order: longest first where the remembered link is known to have room for the list,
 * the queue's order where it is the list's bottleneck or not known.
 */
export function planOrder<T extends Target>(plan: readonly T[], listed: ReadonlyMap<string, ListedLoad>, link: RememberedLink | undefined): T[] {
  return link !== undefined && !listFillsLink(link, listed) ? longestFirst(plan, listed) : inQueueOrder(plan, listed);
}
