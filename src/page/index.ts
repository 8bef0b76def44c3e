// A page as the extension saw it load: the model (model/: the record, its reducer, the figures
// derived from it) and the views built from it (views/: waterfall, CDF plot, HAR). The extension's
// own hints (hints/) and messages and settings (messages/) live here too: src/page is the extension's pure engine.
export * from './model/page-record';
export * from './model/element-resources';
export * from './model/viewport';
export * from './model/timing-mapping';
export * from './model/page-summary';
export * from './views/waterfall';
export * from './views/har';
export * from './views/cdf-plot';
