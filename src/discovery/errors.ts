import { CodedError } from '../core/coded-error';

/**
 * Stable error codes of resource discovery. Callers match on `code`, never on the message.
 *
 * - `E_INVALID_DOCUMENT_URL` the scanner's `documentUrl` is not an absolute URL.
 * - `E_INVALID_BASE_URL`     `extractCssUrls` was given a base that is not an absolute URL.
 * - `E_INVALID_OPTION`       an option is out of range (e.g. a negative `firstImagesVisible`).
 * - `E_SCANNER_ENDED`        `write()` was called after `end()`.
 * - `E_OFFSET_ORDER`         internal invariant broken: byte offsets were asked for out of
 *                            document order. Indicates a bug in the scanner, not bad input.
 */
export type DiscoveryErrorCode =
  | 'E_INVALID_DOCUMENT_URL'
  | 'E_INVALID_BASE_URL'
  | 'E_INVALID_OPTION'
  | 'E_SCANNER_ENDED'
  | 'E_OFFSET_ORDER';

/** The one error class thrown by `src/discovery`. */
export class DiscoveryError extends CodedError<DiscoveryErrorCode> {
  override readonly name = 'DiscoveryError';
}
