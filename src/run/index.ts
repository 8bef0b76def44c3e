export { toRequestRecord, type RequestRecord } from './request-record';
export { buildRun, runFigures, runToJson, type Run, type RunFigures, type RunInput, type RunJson } from './run-record';
export { summarizeRun, summarizeStrategies, type RunSummary, type StrategySummary } from './run-summary';
export { roundHandshake, roundMs } from './round';
