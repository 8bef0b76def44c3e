import type { OriginFacts, PageOrigin } from '../origins/origin-facts';
import type { OriginMemory } from '../origins/origin-memory';
import { rememberedLink, withListWindows, type ListedLoad } from './list-windows';
import { planOrder } from './plan-order';
import type { Strategy } from './strategies';

/**
 * Zero-RTT starts: which connections to open at t = 0 for a page, before its first request is
 * ready — what the lower bound assumes a client may do (bench/model/MODEL.md: "a client may open a
 * connection as soon as it knows the origin").
 *
 * How many for one origin: one while it is (or may be) HTTP/2, since ALPN may make one connection
 * enough; for HTTP/1.1 as many as its requests could use at once, within the strategy's limit and
 * the path's remembered cap (path-estimate.ts: more windows than the path holds only cause loss).
 * A remembered request budget adds the connections the server's closes will need.
 */
export function preconnectCount(origin: string, requests: number, facts: OriginFacts | undefined, strategy: Strategy): number {
  if (requests <= 0) return 0;
  const mayBeH2 = strategy.http2 && origin.startsWith('https:') && facts?.protocol !== 'http/1.1';
  if (mayBeH2) return 1;
  const { maxPerOrigin, fitToPath } = strategy.connections;
  const cap = Math.min(maxPerOrigin, fitToPath ? (facts?.connectionCap ?? maxPerOrigin) : maxPerOrigin);
  const byBudget = facts?.requestBudget ? Math.ceil(requests / facts.requestBudget) : 1;
  return Math.max(1, Math.min(cap, Math.max(requests, byBudget)));
}

export interface PreconnectTarget {
  origin: string;
  connections: number;
  /**
   * The count is HTTP/2 windows for a learned list (list-windows.ts): opened at t = 0 even though
   * the origin answers h2, where one connection is otherwise its limit.
   */
  listWindows?: true;
}

/**
 * The learned list of a page (`memory.pageOrigins`), each origin sized by its facts, in the order
 * their handshakes should start. `listed` (by origin): what the revisit's learned list will ask of
 * each, which may give an h2 origin more than one window (list-windows.ts), and orders the plan
 * (plan-order.ts). Without it the page's own origin goes first (the document is the load's first
 * request), then the memory's order (most requests first).
 */
export function preconnectPlan(pageUrl: string, memory: OriginMemory, strategy: Strategy, listed?: ReadonlyMap<string, ListedLoad>): PreconnectTarget[] {
  const plan = memory
    .pageOrigins(pageUrl)
    .map((p: PageOrigin) => ({ origin: p.origin, connections: preconnectCount(p.origin, p.requests, memory.get(p.origin), strategy) }))
    .filter((t) => t.connections > 0);
  if (listed && listed.size > 0) return planOrder(withListWindows(plan, listed, (o) => memory.get(o), strategy), listed, rememberedLink(plan.map((t) => memory.get(t.origin))));
  const own = new URL(pageUrl).origin;
  return [...plan.filter((t) => t.origin === own), ...plan.filter((t) => t.origin !== own)];
}
