export * from './errors';
export * from './priority';
export * from './request';
export * from './strategies';
export * from './transport-port';
export { Scheduler, type SchedulerObserver, type SchedulerOptions, type SchedulerStats } from './scheduler';
export type { PipelineHealthState, DemotionReason } from './pipeline-health';
export { InMemoryOriginMemory, type InMemoryOriginMemoryOptions, type OriginFacts, type OriginMemory, type OriginMemoryJson, type PageOrigin } from './origin-memory';
export { preconnectCount, preconnectPlan, type PreconnectTarget } from './preconnect';
