/**
 * A run, defined once (docs/architecture.md, "A run is one record type"): the record of each request
 * (`RequestRecord`), the run (`Run`: figures, records, handshakes), the summary of one run
 * (`summarizeRun`) and of a strategy's repeated runs (`summarizeStrategies`, medians). The CLI's
 * JSON, the protocol's replay replies, the store's page summaries, the popup and the benchmarks use
 * these types unchanged. "Not measured" is `null` in all of them.
 */
export { toRequestRecord, type RequestRecord } from './request-record';
export { buildRun, runFigures, runToJson, type Run, type RunFigures, type RunInput, type RunJson, type SkippedResource } from './run-record';
export { summarizeRun, summarizeStrategies, type RunSummary, type StrategySummary } from './run-summary';
export { roundHandshake, roundMs } from './round';
