/**
 * The command line of a bench entry point: parsed against its spec, bad input a usage error
 * (`E_BENCH_USAGE`, exit 2 through run-main.ts), and `--help` printed here.
 */
import { BenchRunError } from './bench-run-error';
import { helpText, parseCommandLine, type CommandLine, type CommandSpec } from './command-line';

export const benchUsage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

/** The parsed command line, or undefined once `--help` has printed the help (the run exits 0). */
export function benchCommandLine(argv: readonly string[], spec: CommandSpec): CommandLine | undefined {
  const cl = parseCommandLine(argv, spec, benchUsage);
  if (cl.help) {
    process.stdout.write(`${helpText(spec)}\n`);
    return undefined;
  }
  return cl;
}
