import { CodedError } from '../../src/core/coded-error';

/**
 * Why a page load could not be done. `code` is stable; the message says what to do.
 * User-fixable: E_INVALID_URL, E_UNSUPPORTED_SCHEME, E_CONNECT_FAILED, E_HTTP_STATUS, E_NOT_HTML,
 * E_TOO_MANY_REDIRECTS, E_LOAD_TIMEOUT (the document did not finish in time), E_UNSAFE_PORT,
 * E_TOO_MANY_REQUESTS, E_MEMORY_FILE.
 */
export type LoadErrorCode =
  | 'E_INVALID_URL'
  | 'E_UNSUPPORTED_SCHEME'
  | 'E_CONNECT_FAILED'
  | 'E_DOCUMENT_FAILED'
  | 'E_HTTP_STATUS'
  | 'E_NOT_HTML'
  | 'E_TOO_MANY_REDIRECTS'
  | 'E_LOAD_TIMEOUT'
  | 'E_MEMORY_FILE'
  | 'E_UNSAFE_PORT';

export class LoadError extends CodedError<LoadErrorCode> {
  override readonly name = 'LoadError';
  constructor(
    code: LoadErrorCode,
    message: string,
    readonly causeCode?: string,
  ) {
    super(code, message);
  }
}
