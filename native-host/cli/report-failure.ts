import { isCodedError } from '../../src/core/coded-error';
import { BUG_EXIT_STATUS, exitStatusFor } from './cli-error';
import type { CliIo } from './io';

/**
 * Prints a command's failure and returns the exit status. Any error that carries a string code —
 * a `CodedError` of any layer, a Node or undici error (`EACCES`, `UND_ERR_SOCKET`), a plain
 * `{code, message}` from another bundle — is something the user can act on: one
 * `getlist: CODE: message` line, no stack (web-ext's split between "you can fix this" and "bug").
 * Only an error without a code is a bug, printed with its stack so it can be reported.
 */
export function reportFailure(err: unknown, io: CliIo): number {
  if (isCodedError(err)) {
    io.err(`getlist: ${err.code}: ${err.message}\n`);
    return exitStatusFor(err.code);
  }
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  io.err(`getlist: E_INTERNAL: an unexpected error, which is a bug in getlist; please report it with this output:\n${detail}\n`);
  return BUG_EXIT_STATUS;
}
