import { readFileSync } from 'node:fs';
import { STRATEGY_NAMES, isStrategyName, strategy, type Strategy, type StrategyName } from '../../src/scheduler';
import { intFlag, stringFlag, boolFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';
import type { LoadPageOptions } from '../load/page-loader';
import { DATA_DIR_FLAG } from './store-access';

/** Flags shared by every command that loads pages. */
export const LOAD_FLAGS: Record<string, FlagSpec> = {
  strategy: { type: 'string', description: `comma-separated strategies (${STRATEGY_NAMES.join(', ')})` },
  repeat: { type: 'string', description: 'runs per strategy, interleaved (default 1)' },
  json: { type: 'boolean', description: 'print one JSON object instead of tables' },
  connections: { type: 'string', description: 'override connections per origin for every strategy' },
  depth: { type: 'string', description: 'override the pipelining depth for every strategy' },
  timeout: { type: 'string', description: 'bound one page load to this many ms: what finished is kept, the rest is marked E_LOAD_TIMEOUT (default 120000)' },
  record: { type: 'boolean', description: 'also save the handshakes in the store (source "cli"); off by default' },
  'data-dir': DATA_DIR_FLAG,
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
  return [...new Set(names)].map((n) =>
    strategy(n, {
      ...(connections !== undefined ? { maxConnectionsPerOrigin: connections } : {}),
      ...(depth !== undefined ? { maxPipelineDepth: depth } : {}),
    }),
  );
}

/** TLS trust for `load`: `--ca FILE` adds a CA, `--insecure` skips verification. */
export function transportOptions(args: ParsedArgs): LoadPageOptions['transport'] {
  const caFile = stringFlag(args, 'ca');
  let ca: string | undefined;
  if (caFile !== undefined) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (err) {
      throw new CliError('E_USAGE', `--ca ${caFile}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { ...(ca !== undefined ? { ca } : {}), ...(boolFlag(args, 'insecure') ? { rejectUnauthorized: false } : {}) };
}
