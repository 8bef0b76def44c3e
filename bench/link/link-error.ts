import { CodedError } from '../../src/core/coded-error';

/**
 * Stable codes for what the link emulator can report. Callers match on `code`.
 *
 * - `E_LINK_NEEDS_ROOT`: network namespaces and TUN devices need root, and rootless mode (a user
 *   namespace, see rootless.ts) is not in effect or not available; the message says what failed.
 * - `E_LINK_BAD_OPTION`: an option to `startLink` is out of range; the message names it.
 * - `E_LINK_TOOL_MISSING`: `ip` (iproute2) or `gcc` is not installed, or /dev/net/tun is absent.
 * - `E_LINK_BUILD`: the forwarder did not compile; the message carries gcc's output.
 * - `E_LINK_SETUP`: an `ip`/`sysctl` step or the forwarder failed while the link was being built.
 * - `E_LINK_FORWARDER`: the forwarder died or did not answer while the link was up.
 * - `E_LINK_CLOSED`: the link was used after `close()`.
 */
export type LinkErrorCode =
  | 'E_LINK_NEEDS_ROOT'
  | 'E_LINK_BAD_OPTION'
  | 'E_LINK_TOOL_MISSING'
  | 'E_LINK_BUILD'
  | 'E_LINK_SETUP'
  | 'E_LINK_FORWARDER'
  | 'E_LINK_CLOSED';

/** A failure of the emulated link; the message says what was expected and what was found. */
export class LinkError extends CodedError<LinkErrorCode> {
  override readonly name = 'LinkError';
  constructor(code: LinkErrorCode, message: string) {
    super(code, `${code}: ${message}`);
  }
}
