import { STRATEGY_NAMES, isStrategyName, strategy, type Strategy, type StrategyName } from '../../src/scheduler';
import { intFlag, stringFlag, boolFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';
import type { LoadPageOptions } from '../run/page-loader';
import { readCaFile } from '../transport/ca-file';
import { DATA_DIR_FLAG } from './store-access';
import { describeStrategies } from '../../src/scheduler/strategy-summaries';
import type { HelpSection } from './command-help';

/**
 * Flags shared by every command that loads pages. `strategy` and `timeout` have no default here:
 * `load` and `demo` differ, and each states its own.
 */
export const LOAD_FLAGS = {
  strategy: { type: 'string', value: 'a,b,...', description: `strategies to compare, comma-separated: ${STRATEGY_NAMES.join(', ')}; each is described below` },
  repeat: { type: 'string', value: 'N', default: '1', description: 'runs per strategy, 1 to 100, interleaved a b a b … so drift hits every strategy alike; tables show the medians' },
  json: { type: 'boolean', description: 'print one JSON object (every run, request and handshake) instead of tables' },
  connections: { type: 'string', value: 'N', default: "each strategy's own", description: 'HTTP/1.1 connections per origin for every strategy, 1 to 64' },
  depth: { type: 'string', value: 'N', default: "each strategy's own", description: 'pipelining depth for every pipelining strategy, 1 to 256' },
  'h2-connections': {
    type: 'string', value: 'N', default: "each strategy's own: 6 for getlist, 1 for h2",
    description: "HTTP/2 connections one origin may have at once on a far path, for every strategy with HTTP/2, 1 to 16: extra congestion windows for requests that wait on a first visit, for the origins a page preconnects and for a revisit's learned list (docs/scheduler.md); 1 keeps one per origin, as browsers do and RFC 9113 §9.1 asks",
  },
  timeout: { type: 'string', value: 'MS', description: 'bound one page load to this many ms: what finished is kept, the rest is marked E_LOAD_TIMEOUT' },
  'no-speculative': { type: 'boolean', description: "on a revisit, do not ask for the page's learned request list before parsing finds it (getlist's GETLIST; browser and h2 never do)" },
  record: { type: 'boolean', description: 'also save every connection\'s handshake in the store (source "cli") for `getlist stats`, and what the runs learn about each origin (`getlist origins`) and the page for the next load and the extension\'s replays; off by default, so test runs never touch your data' },
  'data-dir': { ...DATA_DIR_FLAG, description: `with --record or --memory store: ${DATA_DIR_FLAG.description}` },
  'cold-discovery': { type: 'boolean', description: "do not warm the page-discovery code while the first document is on its way; a fresh process's first page then pays for its cold code (bench/README.md, \"Cold discovery\")" },
  'connect-in': {
    type: 'string', value: 'timer|loop', default: 'timer',
    description: "where TCP connects are made and timed: 'timer', a child process whose event loop does nothing else, which hands each connected socket over; 'loop', getlist's own process, where tcpMs includes the event loop's delay (up to each record's loopDelayMs)",
  },
} satisfies Record<string, FlagSpec>;

/** The `strategies:` section of `load` and `demo` help: each preset, what it is for and how it is set. */
export const STRATEGIES_HELP: HelpSection = {
  title: 'strategies (each run starts on fresh connections: no warm sockets, no TLS session reuse)',
  rows: describeStrategies().flatMap(({ name, summary, traits }): Array<[string, string]> => [[name, summary], ['', traits]]),
};

export function parseStrategies(args: ParsedArgs, dflt: readonly StrategyName[]): Strategy[] {
  const raw = stringFlag(args, 'strategy');
  const names = raw === undefined ? [...dflt] : raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new CliError('E_USAGE', '--strategy needs at least one name');
  const unknown = names.filter((n) => !isStrategyName(n));
  if (unknown.length) {
    throw new CliError('E_USAGE', `unknown strategy ${unknown.map((u) => JSON.stringify(u)).join(', ')}; expected some of ${STRATEGY_NAMES.join(', ')}`);
  }
  const connections = args.flags.has('connections') ? intFlag(args, 'connections', 6, 1, 64) : undefined;
  const depth = args.flags.has('depth') ? intFlag(args, 'depth', 16, 1, 256) : undefined;
  const h2Connections = args.flags.has('h2-connections') ? intFlag(args, 'h2-connections', 1, 1, 16) : undefined;
  const noSpeculative = boolFlag(args, 'no-speculative');
  return [...new Set(names)].map((n) => {
    const preset = strategy(n);
    // A flag tunes a policy the preset has; it never turns one on (`--depth` does not make `browser` pipeline).
    return strategy(n, {
      connections: { maxPerOrigin: connections },
      pipelining: preset.pipelining ? { maxDepth: depth } : undefined,
      http2: preset.http2 ? { connectionsForDemand: h2Connections } : undefined,
      memory: preset.memory && noSpeculative ? { speculativeList: false } : undefined,
    });
  });
}

/** Whether discovery warms up while the document is on its way (`--cold-discovery` says no). */
export function warmUpOption(args: ParsedArgs): Pick<LoadPageOptions, 'warmUp'> {
  return { warmUp: !boolFlag(args, 'cold-discovery') };
}

/**
 * TLS trust for `load`: `--ca FILE` adds a CA (read as a replay's `caFile` is: `E_CA_FILE` when
 * it cannot be used), `--insecure` skips verification.
 */
export async function transportOptions(args: ParsedArgs): Promise<LoadPageOptions['transport']> {
  const caFile = stringFlag(args, 'ca');
  const ca = caFile === undefined ? undefined : await readCaFile(caFile);
  const connectIn = stringFlag(args, 'connect-in') ?? 'timer';
  if (connectIn !== 'timer' && connectIn !== 'loop') throw new CliError('E_USAGE', `--connect-in must be timer or loop; got ${JSON.stringify(connectIn)}`);
  return { ...(ca !== undefined ? { ca } : {}), ...(boolFlag(args, 'insecure') ? { rejectUnauthorized: false } : {}), connectIn };
}
