/**
 * Request headers as a current Chromium sends them, so servers answer getlist with the bytes they
 * send a browser (content negotiation by `Accept`, compression by `Accept-Encoding`).
 */

/** What Chromium offers; `zstd` is added by a caller that can decode it. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const DOCUMENT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
const IMAGE = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const STYLESHEET = 'text/css,*/*;q=0.1';

/**
 * `Accept` by destination. Takes both discovery kinds (`image`, `icon`, `stylesheet`, `iframe`…)
 * and webRequest resource types (`main_frame`, `sub_frame`, `imageset`…), since both label
 * requests that reach the transport.
 */
export function acceptFor(kind: string | undefined): string {
  switch (kind) {
    case 'document':
    case 'main_frame':
    case 'sub_frame':
    case 'iframe':
      return DOCUMENT;
    case 'image':
    case 'imageset':
    case 'icon':
      return IMAGE;
    case 'stylesheet':
      return STYLESHEET;
    default:
      return '*/*';
  }
}
