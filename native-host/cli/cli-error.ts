import { CodedError } from '../../src/core/coded-error';

/**
 * A failure the CLI itself finds (a bad command line, a file it cannot write). The CLI prints it,
 * like every other error with a code from any layer, as `getlist: <CODE>: <message>` with a
 * non-zero exit (see {@link exitStatusFor}).
 */
export class CliError extends CodedError {
  override readonly name = 'CliError';

  get exitCode(): number {
    return exitStatusFor(this.code);
  }
}

/** `E_USAGE` exits 2 (the command line was wrong); every other code exits 1. */
export function exitStatusFor(code: string): number {
  return code === 'E_USAGE' ? 2 : 1;
}

/** Exit status for an error without a code: a bug in getlist (EX_SOFTWARE, as the launcher always used). */
export const BUG_EXIT_STATUS = 70;
