import { INSTALL_FROM_CHECKOUT } from '../../src/page/messages/install-hint';
import type { HostStatus } from '../../src/page/messages/messages';

/** The name the host is registered under (README "Installing the native host"). */
export const HOST_NAME = 'dev.getlist.host';

/**
 * What the browsers say when they cannot start a native host at all: no manifest (Chrome "Specified
 * native messaging host not found.", Firefox "No such native application …"), or a manifest that
 * does not admit this extension ("Access to the specified native messaging host is forbidden.").
 */
const MISSING = /not found|no such native application|forbidden|not allowed|not registered/i;


/** `<this installation's CLI> doctor`, or `getlist doctor` when the host never said where it lives. */
export function doctorCommand(cliCommand: string | undefined): string {
  return `${cliCommand ?? 'getlist'} doctor`;
}

/**
 * Turns the reason a port closed (or never opened) into a status the UI can act on. `cliCommand`
 * is what an earlier `hello` of this browser session reported, if any.
 */
export function statusFromConnectFailure(reason: string, answeredBefore: boolean, cliCommand?: string): HostStatus {
  if (!answeredBefore && MISSING.test(reason)) {
    return {
      state: 'missing',
      message: `The getlist native host is not installed for this browser, so pages cannot be measured or replayed (${reason.trim() || 'the browser could not start it'}).`,
      fix: cliCommand ? `${cliCommand} install` : INSTALL_FROM_CHECKOUT,
      ...(cliCommand ? { cliCommand } : {}),
    };
  }
  return {
    state: 'error',
    message: answeredBefore
      ? `The getlist native host stopped: ${reason.trim() || 'it exited'}. It is restarted on the next request.`
      : `The getlist native host could not be started or did not speak the protocol: ${reason.trim() || 'it exited at once'}.`,
    fix: doctorCommand(cliCommand),
    ...(cliCommand ? { cliCommand } : {}),
  };
}
