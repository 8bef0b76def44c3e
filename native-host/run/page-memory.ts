import { speculativeList, type ListedResource, type VisitResource } from '../../src/origins/page-list';
import type { OriginMemory } from '../../src/origins/origin-memory';
import type { PageOrigin } from '../../src/origins/origin-facts';
import { listedLoads, preconnectPlan, type RequestResult, type Scheduler, type Strategy } from '../../src/scheduler';
import { isBadPort, portOf } from '../../src/targets';

/** What one run teaches its page's entry in origin memory (`OriginMemory.putPageOrigins`). */
export interface PageLesson {
  origins: PageOrigin[];
  /** The page's sub-resources as the run met them; only a load has them (a replayed list was the browser's). */
  visit?: VisitResource[];
}

/**
 * The origin memory a run reads and writes: the caller's, for a strategy with a `memory` policy;
 * none (every run a first visit) for the others, whatever the caller passed.
 */
export function memoryFor(strategy: Strategy, memory: OriginMemory | undefined): OriginMemory | undefined {
  return strategy.memory ? memory : undefined;
}

/**
 * Zero-RTT starts (`connections.preconnect`): connections to the origins the page was learned to use
 * open at t = 0, each sized by its facts and by what the learned list `listed` will ask of it
 * (src/scheduler/preconnect.ts).
 * @returns whether the memory knew any origin of the page.
 */
export function preconnectLearned(scheduler: Scheduler, pageUrl: string, memory: OriginMemory | undefined, strategy: Strategy, listed: readonly ListedResource[] = []): boolean {
  if (!strategy.connections.preconnect || !memory) return false;
  const plan = preconnectPlan(pageUrl, memory, strategy, listedLoads(pageUrl, listed));
  for (const t of plan) scheduler.preconnect(t.origin, t.connections, t.listWindows === true);
  return plan.length > 0;
}

/**
 * What a returning visit asks for before parsing (page-list.ts `speculativeList`), when the
 * strategy's `memory.speculativeList` is on: the page's learned list under its `maxBytes`, without
 * URLs the load may not fetch (a bad port, unless `--allow-unsafe-ports`). The connection gate
 * (connection-gate.ts: bad ports, Private Network Access) applies to these requests as to any.
 */
export function learnedRequests(pageUrl: string, memory: OriginMemory, strategy: Strategy, allowUnsafePorts: boolean): ListedResource[] {
  const policy = strategy.memory ? strategy.memory.speculativeList : false;
  const list = policy ? memory.pageList(pageUrl) : undefined;
  if (!policy || !list) return [];
  return speculativeList(list.resources, { loads: list.loads, maxBytes: policy.maxBytes, refuse: (url) => !allowUnsafePorts && isBadPort(portOf(new URL(url))) });
}

/** Requests per origin of a run, the answered ones only (a failed origin is not worth a preconnect). */
export function originsUsed(results: readonly RequestResult[]): PageOrigin[] {
  const counts = new Map<string, number>();
  for (const r of results) if (!r.error) counts.set(r.origin, (counts.get(r.origin) ?? 0) + 1);
  return [...counts].map(([origin, requests]) => ({ origin, requests }));
}
