import { createOrigin, type OriginState } from './connection-state';
import { recallOrigin } from './origin-recall';
import type { DemotionReason } from './pipeline-health';
import type { Origins, SchedulerContext, SchedulerParts } from './scheduler-parts';

/**
 * Each origin's state, created on first use: from the strategy, then from what origin memory
 * remembers of it (origin-recall.ts), so every later observation starts from the last load's.
 */
export class OriginRegistry implements Origins {
  private readonly byName = new Map<string, OriginState>();

  constructor(
    private readonly ctx: SchedulerContext,
    private readonly parts: SchedulerParts,
  ) {}

  get(origin: string): OriginState | undefined {
    return this.byName.get(origin);
  }

  values(): IterableIterator<OriginState> {
    return this.byName.values();
  }

  /** The origin's state, created (and recalled) on first use. */
  for(origin: string): OriginState {
    let o = this.byName.get(origin);
    if (!o) {
      o = createOrigin(origin, this.ctx.strategy);
      this.byName.set(origin, o);
      const facts = this.ctx.memory?.get(origin);
      if (facts) {
        recallOrigin(o, facts, this.ctx.strategy, this.ctx.clock.now());
        this.parts.pacing.recalledRate(facts.rateBytesPerMs);
      }
    }
    return o;
  }

  demote(o: OriginState, reason: DemotionReason): void {
    if (!this.ctx.strategy.pipelining) return;
    o.health.demote(this.ctx.clock.now(), reason);
    this.ctx.learner?.pipelining(o, 'bad');
    this.ctx.counters.demotions.push({ origin: o.origin, reason });
    this.ctx.observer.onDemoted?.(o.origin, reason);
  }
}
