export * from './page-record';
export * from './messages';
