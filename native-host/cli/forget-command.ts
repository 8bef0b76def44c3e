import { boolFlag, noPositionals, parseArgs, stringFlag, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import type { CliIo } from './io';
import { parseOriginFlag } from './query-flags';
import { DATA_DIR_FLAG, storeDirFromArgs, withStore } from './store-access';
import { existsSync } from 'node:fs';

const FLAGS: Record<string, FlagSpec> = {
  all: { type: 'boolean', description: 'forget everything: every handshake, page summary and origin\'s facts (one of --all and --origin is required)' },
  origin: {
    type: 'string',
    value: 'O',
    description: 'forget one origin (https://host[:port]): its connections, the connections its pages opened elsewhere (e.g. a CDN), its page summaries and its origin facts',
  },
  'data-dir': DATA_DIR_FLAG,
};

export const FORGET_HELP: CommandHelp = {
  synopsis: 'forget',
  summary: 'delete stored records: everything, or one origin',
  description:
    'Deletes stored records while hosts keep running: the store is rewritten without them, so they leave every ' +
    'file under the data dir, not only the index. Give exactly one of --all and --origin.',
  flags: FLAGS,
};

export const FORGET_USAGE = usageLine(FORGET_HELP.synopsis, FLAGS);

/** `getlist forget`: the command-line twin of the options page's "Forget" buttons. */
export async function forgetCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs('forget', argv, FLAGS);
  noPositionals(args, FORGET_USAGE);
  const all = boolFlag(args, 'all');
  const originFlag = stringFlag(args, 'origin');
  if (all === (originFlag !== undefined)) throw new CliError('E_USAGE', `give exactly one of --all and --origin\nusage: ${FORGET_USAGE}`);
  const origin = originFlag === undefined ? undefined : parseOriginFlag(originFlag);
  const dir = storeDirFromArgs(args);
  if (!existsSync(dir)) {
    io.out(`nothing to forget: there is no store in ${dir}\n`);
    return 0;
  }
  const removed = await withStore(dir, (store) => store.forget(origin));
  io.out(`forgot ${removed} record${removed === 1 ? '' : 's'}${origin ? ` of ${origin}` : ''} in ${dir}\n`);
  return 0;
}
