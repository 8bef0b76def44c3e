export * from './errors';
export * from './priority';
export * from './request';
export * from './strategies';
export * from './transport-port';
export { Scheduler, type SchedulerObserver, type SchedulerOptions, type SchedulerStats } from './scheduler';
export type { PipelineHealthState, DemotionReason } from './pipeline-health';
export { MemoryBudgets, keepAliveMax, observeBudget, type BudgetFacts, type BudgetObservation, type OriginBudgets } from './request-budget';
export { MAX_ATTEMPTS, MAX_SENDS } from './retry-policy';
