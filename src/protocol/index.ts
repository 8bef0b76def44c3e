export * from './chunks';
export * from './errors';
export * from './replies';
export * from './reply-of';
export * from './requests';
export { EXPORT_FORMATS, type ExportFormat } from '../stats/export-formats';
export * from './validate-reply';
export { DEFAULT_REPLAY_STRATEGIES, checkUrl, isRequestId, parseRequest } from './validate-request';
export * from './version';
