import type { OriginMemory } from '../origins/origin-memory';
import type { BudgetFacts, OriginBudgets } from './request-budget';

/**
 * Request budgets kept in the origin memory: a learned budget is written as the origin's
 * `requestBudget` fact (and read back from it), so the scheduler's live budget, the memory a later
 * load recalls and the preconnect plan's sizing (preconnect.ts) are one number, not three.
 *
 * Only the budget itself is remembered. A single unexplained close (`lastCloseAfter`, waiting for a
 * second one to agree) is too weak to outlive the process, so it stays here. Expiry is the
 * memory's: a budget that went stale is unknown again, and learned afresh.
 */
export class RememberedBudgets implements OriginBudgets {
  private readonly closes = new Map<string, number>();

  constructor(private readonly memory: OriginMemory) {}

  get(origin: string): BudgetFacts | undefined {
    const budget = this.memory.get(origin)?.requestBudget;
    const lastCloseAfter = this.closes.get(origin);
    if (budget === undefined && lastCloseAfter === undefined) return undefined;
    return { budget, lastCloseAfter };
  }

  set(origin: string, facts: BudgetFacts): void {
    if (facts.lastCloseAfter !== undefined) this.closes.set(origin, facts.lastCloseAfter);
    // observeBudget only ever shrinks a budget, so a different value is a smaller one: written once per change.
    if (facts.budget !== undefined && facts.budget !== this.memory.get(origin)?.requestBudget) {
      this.memory.put({ origin, requestBudget: facts.budget });
    }
  }
}
