/**
 * A failure the CLI reports as `getlist: <CODE>: <message>` with a non-zero exit.
 * `E_USAGE` exits 2 (the command line was wrong); everything else exits 1.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  get exitCode(): number {
    return this.code === 'E_USAGE' ? 2 : 1;
  }
}
