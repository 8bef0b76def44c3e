import { CodedError } from '../../src/core/coded-error';

/**
 * Why the origin servers could not start. `code` is stable; the message says what to do.
 * User-fixable: E_NGINX_MISSING, E_OPENSSL_MISSING, E_BAD_BINDING, E_ORIGIN_UNBOUND, E_PORT_IN_USE.
 */
export type OriginsErrorCode =
  | 'E_NGINX_MISSING'
  | 'E_OPENSSL_MISSING'
  | 'E_OPENSSL_FAILED'
  | 'E_BAD_BINDING'
  | 'E_ORIGIN_UNBOUND'
  | 'E_ORIGIN_PATH_CONFLICT'
  | 'E_PORT_IN_USE'
  | 'E_NGINX_FAILED'
  | 'E_NGINX_START_TIMEOUT'
  | 'E_ZOO_MISSING'
  | 'E_ZOO_FAILED'
  | 'E_ZOO_START_TIMEOUT';

export class OriginsError extends CodedError<OriginsErrorCode> {
  override readonly name = 'OriginsError';
}

/** The fix for a machine without nginx; the test suites print it too. */
export const NGINX_INSTALL_HINT =
  'install it with `apt-get install -y nginx` (Debian/Ubuntu; .ci/run does this), or set GETLIST_NGINX=0 to skip the suites that need it';
