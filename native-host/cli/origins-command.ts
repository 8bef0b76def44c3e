import type { OriginFacts } from '../../src/origins/origin-facts';
import { boolFlag, noPositionals, parseArgs, stringFlag, type FlagSpec } from './args';
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
  summary: 'what the engine learned per origin (pipelining, protocol, request budget, path)',
  description:
    'Lists what the engine has learned per origin (the next load and the extension\'s replays start from it): ' +
    'pipelining health (bad: until when), the protocol ALPN chose, the request budget (requests the server ' +
    'answered on one connection before closing it), the path\'s round-trip time, bottleneck rate (kB/s; ' +
    '"uncapped" when too fast to measure) and the HTTP/1.1 connections it took, and when the origin was last ' +
    'seen. Facts older than 7 days are not used. `getlist forget --origin O` removes an origin.',
  flags: FLAGS,
};

export const ORIGINS_USAGE = usageLine(ORIGINS_HELP.synopsis, FLAGS);

export async function originsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs('origins', argv, FLAGS);
  noPositionals(args, ORIGINS_USAGE);
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
    new Date(f.lastSeen).toISOString(),
    f.protocol ?? dash,
    f.pipelining === 'bad' && f.pipeliningBadUntil !== undefined ? `bad until ${new Date(f.pipeliningBadUntil).toISOString()}` : f.pipelining ?? dash,
    f.requestBudget ?? dash,
    f.maxConcurrentStreams ?? dash,
    f.rttMs === undefined ? dash : Math.round(f.rttMs * 10) / 10,
    // bytes per ms is kB per s.
    f.rateBytesPerMs === undefined ? dash : f.rateBytesPerMs === null ? 'uncapped' : Math.round(f.rateBytesPerMs),
    f.connectionCap ?? dash,
    // A peak the load did not hold is a floor under the link's rate (peak-delivery.ts).
    f.peakBytesPerMs === undefined ? dash : f.peakHeld === false ? `≥ ${Math.round(f.peakBytesPerMs)}` : Math.round(f.peakBytesPerMs),
  ]);
  io.out(`${formatTable(['origin', 'last seen', 'protocol', 'pipelining', 'req budget', 'h2 streams', 'rtt ms', 'rate kB/s', 'conns', 'peak kB/s'], rows)}\n`);
  return 0;
}
