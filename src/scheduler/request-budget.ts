import type { ConnState } from './connection-state';

/**
 * How many requests one connection to an origin may carry before the server closes it (nginx
 * `keepalive_requests`, Apache `MaxKeepAliveRequests`, many CDNs). A request written past that
 * point is never answered: on a pipelined connection every request behind the last answered one is
 * lost at once. The scheduler never writes past a known budget; it sends request N + 1 on another
 * connection instead.
 *
 * Learned from three signals:
 * - `Keep-Alive: max=M` on a response (RFC 2068 §19.7.1.1): M more requests after this one;
 * - `Connection: close` on the successful HTTP/1.1 response to the connection's request N (nginx
 *   and Apache announce the last request of their limit so): N requests in all;
 * - a server close at a response boundary with requests still unanswered, after N responses. One
 *   such close may be an idle timeout racing a request, so a budget is taken from closes only when
 *   two connections closed after the same N.
 * A budget only ever shrinks: a server that allows more is not harmed by a smaller one.
 */
export interface BudgetFacts {
  /** Requests one connection may carry; undefined while unknown. */
  budget: number | undefined;
  /** Responses served before the last unexplained close, waiting for a second close to agree. */
  lastCloseAfter: number | undefined;
}

export type BudgetObservation =
  | { kind: 'keep-alive-max'; requests: number }
  | { kind: 'connection-close'; requests: number }
  | { kind: 'closed-after'; responses: number };

/**
 * Where learned budgets live: `MemoryBudgets` for one scheduler's life, or the origin memory
 * (`RememberedBudgets`, remembered-budgets.ts) so that the budget is one fact, `OriginFacts.requestBudget`,
 * that later loads (and their preconnects) read back.
 */
export interface OriginBudgets {
  get(origin: string): BudgetFacts | undefined;
  set(origin: string, facts: BudgetFacts): void;
}

export class MemoryBudgets implements OriginBudgets {
  private readonly facts = new Map<string, BudgetFacts>();
  get(origin: string): BudgetFacts | undefined {
    return this.facts.get(origin);
  }
  set(origin: string, facts: BudgetFacts): void {
    this.facts.set(origin, facts);
  }
}

/**
 * Applies an origin's learned `budget` to its open connections: none carries more. Returns the
 * ones to close now (ready and idle, with their budget used up: their server's close is on its way,
 * and a request written on them would be lost with it); the others at their budget only drain.
 */
export function applyBudget(conns: readonly ConnState[], budget: number): ConnState[] {
  const retire: ConnState[] = [];
  for (const c of conns) {
    c.budget = Math.min(c.budget ?? Infinity, budget);
    if (c.carried < c.budget) continue;
    c.draining = true;
    if (c.state === 'ready' && c.outstanding.length === 0) retire.push(c);
  }
  return retire;
}

/**
 * `Keep-Alive: max=N` on a connection's response number `served + 1`: the connection carries
 * `served + 1 + N` requests in all, and takes nothing more once it carried that many. Returns the total.
 */
export function keepAliveBudget(c: ConnState, max: number): number {
  const total = c.served + 1 + max;
  c.budget = Math.min(c.budget ?? Infinity, total);
  if (c.carried >= c.budget) c.draining = true;
  return total;
}

/** The facts after one observation. Pure. */
export function observeBudget(prev: BudgetFacts | undefined, obs: BudgetObservation): BudgetFacts {
  const facts: BudgetFacts = prev ? { ...prev } : { budget: undefined, lastCloseAfter: undefined };
  if (obs.kind !== 'closed-after') {
    if (obs.requests >= 1) facts.budget = Math.min(facts.budget ?? Infinity, obs.requests);
    return facts;
  }
  if (obs.responses < 1) return facts;
  if (facts.lastCloseAfter === obs.responses) facts.budget = Math.min(facts.budget ?? Infinity, obs.responses);
  facts.lastCloseAfter = obs.responses;
  return facts;
}

/** `max=N` of a `Keep-Alive` header value, if present and sane. */
export function keepAliveMax(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /(?:^|[,;\s])max\s*=\s*"?(\d{1,9})"?/i.exec(value);
  return m ? Number(m[1]) : undefined;
}
