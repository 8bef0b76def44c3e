/**
 * Resource discovery: finds the subresources a page will need while its HTML is still arriving,
 * so the scheduler can request them early ("GETALL without help from the server") — the ones a
 * browser would fetch, chosen as a browser chooses them.
 */
export { createHtmlScanner, scanHtml } from './html-scanner';
export { extractCssUrls, type CssUrlReference } from './css-urls';
export { classifyCssReference } from './classify';
export { parseSrcset, type SrcsetCandidate } from './srcset';
export { DiscoveryError, type DiscoveryErrorCode } from './errors';
export { DEFAULT_VIEWPORT, viewportOf, type Viewport } from './viewport';
export { acceptFor, ACCEPT_ENCODING } from './request-headers';
export { sniffCharset } from './charset';
export { decodeWindows1252 } from './windows-1252';
export type { DiscoveredResource, HtmlScanner, HtmlScannerOptions, OriginHint, ResourceKind, ScriptMode } from './types';
