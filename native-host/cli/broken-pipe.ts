/**
 * `getlist export | head`: once the reader of stdout is gone nothing more is worth writing, so the
 * command ends at once and quietly, as Unix tools do when SIGPIPE kills them (exit 128 + 13). Node
 * ignores SIGPIPE, so the write fails with EPIPE instead, which without a listener is an uncaught
 * error and a stack trace. A failed write to stderr is dropped. Not for `getlist host`, whose
 * stdout is the browser's channel and whose shutdown flushes the store (native-host/host/host.ts).
 */
export const BROKEN_PIPE_EXIT = 141;

export function endQuietlyOnBrokenPipe(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr, exit: (code: number) => void = (c) => process.exit(c)): void {
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') exit(BROKEN_PIPE_EXIT);
    else throw err;
  });
  stderr.on('error', () => undefined);
}
