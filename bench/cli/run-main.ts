/**
 * How every bench entry point ends: `main` resolves to the exit status, and a thrown error becomes
 * one line on stderr, `<script>: <CODE>: <message>`, so a failure always shows its stable code
 * (`E_BENCH_INTERNAL` and the stack for an error that has none).
 * Usage errors (a bad command line, an unknown link or page) exit 2, anything else 1.
 */
import { toBenchError } from './bench-run-error';

/** Codes a user fixes on the command line: exit status 2. */
const USAGE_CODES: ReadonlySet<string> = new Set(['E_BENCH_USAGE', 'E_BENCH_UNKNOWN_LINK', 'E_BENCH_UNKNOWN_PAGE']);

export interface RunMainOptions {
  /** Codes beyond {@link USAGE_CODES} that exit 2 (e.g. the link's setup errors for `link.js`). */
  usage?: (code: string) => boolean;
}

/**
 * What an error prints: its message, prefixed with its code unless it already starts with it. An
 * error without a code is a bug, not a setting to fix: its stack follows.
 */
export function errorLine(script: string, err: unknown): string {
  const { code, message } = toBenchError(err);
  const coded = typeof (err as { code?: unknown } | undefined)?.code === 'string';
  const stack = !coded && err instanceof Error && err.stack !== undefined ? `\n${err.stack}` : '';
  return `${script}: ${message.startsWith(`${code}:`) ? message : `${code}: ${message}`}${stack}`;
}

export function exitStatusOf(err: unknown, o: RunMainOptions = {}): number {
  const { code } = toBenchError(err);
  return USAGE_CODES.has(code) || o.usage?.(code) === true ? 2 : 1;
}

/** Runs `main` and exits with its status; see the module comment for errors. */
export function runMain(script: string, main: () => Promise<number>, o: RunMainOptions = {}): void {
  main().then(
    (status) => process.exit(status),
    (err: unknown) => {
      process.stderr.write(`${errorLine(script, err)}\n`);
      process.exit(exitStatusOf(err, o));
    },
  );
}

/**
 * Ctrl-C, SIGTERM and SIGHUP stop the run at once: `stop` (e.g. killing the browsers of a load in
 * progress) runs, then the process exits 128 + the signal's number. The exit actions
 * (exit-actions.ts) remove the namespaces, devices and processes of every link and stop its origins.
 */
export function stopOnSignals(script: string, note: string, stop: () => void = () => undefined): void {
  for (const [signal, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
    process.once(signal, () => {
      process.stderr.write(`${script}: ${signal}: ${note}\n`);
      stop();
      process.exit(128 + n);
    });
  }
}
