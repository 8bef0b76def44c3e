import type { OriginFacts } from '../../src/origins/origin-facts';
import { boolFlag, parseArgs, stringFlag, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import { formatTable } from './format-table';
import type { CliIo } from './io';
import { parseOriginFlag } from './query-flags';
import { DATA_DIR_FLAG, storeDirFromArgs, withStore } from './store-access';
import { existsSync } from 'node:fs';

const FLAGS: Record<string, FlagSpec> = {
  origin: { type: 'string', value: 'O', description: 'only this origin (https://host[:port])', default: 'every origin' },
  json: { type: 'boolean', description: 'print one JSON array of the stored records instead of a table' },
  'data-dir': DATA_DIR_FLAG,
};

export const ORIGINS_HELP: CommandHelp = {
  synopsis: 'origins',
  summary: 'what the engine learned per origin (pipelining, h2, request budget, path)',
  description:
    'Lists what the engine has learned per origin (the next load starts from it): pipelining health, ' +
    'most requests one connection carried, h2 support, path round-trip time and bandwidth-delay product, ' +
    'and when the origin was last seen. `getlist forget --origin O` removes an origin.',
  flags: FLAGS,
};

export const ORIGINS_USAGE = usageLine(ORIGINS_HELP.synopsis, FLAGS);

export async function originsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs('origins', argv, FLAGS);
  if (args.positionals.length > 0) throw new CliError('E_USAGE', `unexpected argument ${JSON.stringify(args.positionals[0])}\nusage: ${ORIGINS_USAGE}`);
  const flag = stringFlag(args, 'origin');
  const origin = flag === undefined ? undefined : parseOriginFlag(flag);
  const dir = storeDirFromArgs(args);
  const facts: OriginFacts[] = [];
  // A read must not create the user's data dir as a side effect.
  if (existsSync(dir)) {
    await withStore(dir, async (store) => {
      for await (const f of store.originFacts(origin)) facts.push(f);
    }, { readOnly: true });
  }
  if (boolFlag(args, 'json')) {
    io.out(`${JSON.stringify(facts)}\n`);
    return 0;
  }
  io.out(`${facts.length} origin${facts.length === 1 ? '' : 's'} in ${dir}\n`);
  if (facts.length === 0) return 0;
  const dash = '–';
  const rows = facts.map((f) => [
    f.origin,
    new Date(f.lastSeenAt).toISOString(),
    f.h2 === undefined ? dash : f.h2 ? 'yes' : 'no',
    f.pipelining ? `${f.pipelining.state}${f.pipelining.lastDemotion ? ` (${f.pipelining.lastDemotion})` : ''}` : dash,
    f.requestsPerConnection ?? dash,
    f.pathRttMs ?? dash,
    f.pathBdpBytes ?? dash,
  ]);
  io.out(`${formatTable(['origin', 'last seen', 'h2', 'pipelining', 'req/conn', 'rtt ms', 'bdp bytes'], rows)}\n`);
  return 0;
}
