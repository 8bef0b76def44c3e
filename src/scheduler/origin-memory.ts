/** Origin memory lives in src/origins/ (one type for the engine, the store and the CLI); the scheduler imports it from here. */
export { InMemoryOriginMemory, type InMemoryOriginMemoryOptions, type OriginMemory, type OriginMemoryJson, type OriginMemoryListener } from '../origins/origin-memory';
export type { OriginFacts, PageOrigin, PageOrigins } from '../origins/origin-facts';
