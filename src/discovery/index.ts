/**
 * Resource discovery: finds the subresources a page will need while its HTML is still arriving,
 * so the scheduler can request them early ("GETALL without help from the server").
 */
export { createHtmlScanner, scanHtml } from './html-scanner';
export { extractCssUrls, type CssUrlReference } from './css-urls';
export { classifyCssReference } from './classify';
export { parseSrcset, type SrcsetCandidate } from './srcset';
export { DiscoveryError, type DiscoveryErrorCode } from './errors';
export type { DiscoveredResource, HtmlScanner, HtmlScannerOptions, OriginHint, ResourceKind, ScriptMode } from './types';
