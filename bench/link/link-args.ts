/**
 * The command line of `node dist/bench/link.js`: a subcommand, `selfcheck [--json]` or `cleanup`.
 * Every mistake is `E_BENCH_USAGE` (exit 2).
 */
import { parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BenchRunError } from '../cli/bench-run-error';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const LINK_COMMAND: CommandSpec = {
  usage: 'node dist/bench/link.js selfcheck [--json] | cleanup',
  positionals: true,
  options: {
    json: { type: 'boolean', help: 'selfcheck: print the checks as one JSON document instead of lines' },
  },
  notes: [
    'selfcheck  checks the emulated link against its settings: connect time vs RTT, goodput vs rate,',
    '           drop rate vs loss (about 9 s). Needs root or unprivileged user namespaces.',
    'cleanup    as root, removes the namespaces left by dead runs (rootless runs leave none).',
    'Exit status: 0 passed; 1 a check failed; 2 usage (E_BENCH_USAGE) or setup (E_LINK_*).',
  ],
};

export type LinkArgs = { mode: 'help' } | { mode: 'selfcheck'; json: boolean } | { mode: 'cleanup' };

export function parseLinkArgs(argv: readonly string[]): LinkArgs {
  const { values: v, positionals, help } = parseCommandLine(argv, LINK_COMMAND, usage);
  if (help) return { mode: 'help' };
  const [command, ...extra] = positionals;
  if (command === undefined) throw usage('expected a subcommand, selfcheck or cleanup (try --help)');
  if (extra.length > 0) throw usage(`unexpected argument ${JSON.stringify(extra[0])} (try --help)`);
  if (command === 'selfcheck') return { mode: 'selfcheck', json: v.json === true };
  if (command === 'cleanup') {
    if (v.json !== undefined) throw usage('--json only goes with selfcheck');
    return { mode: 'cleanup' };
  }
  throw usage(`unknown subcommand ${JSON.stringify(command)}; expected selfcheck or cleanup (try --help)`);
}
