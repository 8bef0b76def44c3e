import type { HandshakePhase } from '../../src/stats/handshake';
import { orderedPhases, statsToJSON, type HandshakeStats, type PhaseSet } from '../../src/stats/handshake-stats';
import { boolFlag, noPositionals, parseArgs, type FlagSpec } from './args';
import { asciiCdf } from './ascii-cdf';
import { usageLine, type CommandHelp } from './command-help';
import { formatTable } from './format-table';
import type { CliIo } from './io';
import { describeQuery, parseQueryFlags, QUERY_FLAGS } from './query-flags';
import { DATA_DIR_FLAG, readStore, storeDirFromArgs } from './store-access';

/** Origins listed in the per-origin table, busiest first. */
const TOP_ORIGINS = 20;

const FLAGS: Record<string, FlagSpec> = {
  ...QUERY_FLAGS,
  json: { type: 'boolean', description: 'print the aggregation (percentiles, CDF points, mergeable histograms) as one JSON object' },
  'data-dir': DATA_DIR_FLAG,
};

/** How handshakes get into the store, for an empty `stats`. */
export const HOW_TO_RECORD =
  'Handshakes get there in two ways: with the browser extension loaded and its host registered (`getlist install`), ' +
  'the host times the connections of every page you visit; and `getlist load --record URL` or `getlist demo --record` save theirs.';

export const STATS_HELP: CommandHelp = {
  synopsis: 'stats',
  summary: 'handshake-time percentiles and CDFs from the store',
  description:
    'Prints handshake-time statistics from the store: percentiles (n, min, p50, p75, p90, p95, p99, max, mean) ' +
    'of each phase (dns, tcp, tls, total) over every connection, full against resumed TLS, per protocol and ' +
    `per origin (the ${TOP_ORIGINS} busiest), then an ASCII CDF of each phase. The tls phase counts https connections only. ` +
    HOW_TO_RECORD,
  flags: FLAGS,
};

export const STATS_USAGE = usageLine(STATS_HELP.synopsis, FLAGS);

/**
 * Handshake-time percentiles and CDFs from the store: every connection, full vs resumed TLS,
 * per protocol and per origin.
 */
export async function statsCommand(argv: readonly string[], io: CliIo, now: () => number = Date.now): Promise<number> {
  const args = parseArgs('stats', argv, FLAGS);
  noPositionals(args, STATS_USAGE);
  const query = parseQueryFlags(args, now());
  const dir = storeDirFromArgs(args);
  const { stats, exists } = await readStore(dir, query);
  if (boolFlag(args, 'json')) {
    io.out(`${JSON.stringify({ store: dir, query, ...statsToJSON(stats) })}\n`);
    return 0;
  }
  io.out(`${stats.count} handshake${stats.count === 1 ? '' : 's'} in ${dir} (${describeQuery(query)})\n`);
  if (stats.count > 0) io.out(`${renderStats(stats)}\n`);
  else if (!exists) io.out(`Nothing is stored yet. ${HOW_TO_RECORD}\n`);
  else if (Object.keys(query).length > 0) io.out('No stored handshake matches; without --origin, --since and --until every one counts.\n');
  else io.out(`The store holds no handshakes. ${HOW_TO_RECORD}\n`);
  return 0;
}

const PERCENTILE_HEADER = ['n', 'min', 'p50', 'p75', 'p90', 'p95', 'p99', 'max', 'mean'];

function percentileCells(set: PhaseSet, phase: HandshakePhase): Array<string | number> {
  const h = set.phases.get(phase)?.histogram;
  if (!h) return [0, '–', '–', '–', '–', '–', '–', '–', '–'];
  return [h.count, h.min, h.percentile(50), h.percentile(75), h.percentile(90), h.percentile(95), h.percentile(99), h.max, h.mean];
}

export function renderStats(stats: HandshakeStats): string {
  const groups = stats.groups();
  const all = groups.find((g) => g.group === 'all');
  const out: string[] = [];
  if (all) {
    out.push('\nEvery connection, ms (tls: https connections only)');
    out.push(formatTable(['phase', ...PERCENTILE_HEADER], [...orderedPhases(all)].map(([phase]) => [phase, ...percentileCells(all, phase)])));
  }
  const tls = groups.filter((g) => g.group === 'tls');
  if (tls.length > 0) {
    out.push('\nTLS: full vs resumed handshakes, ms');
    out.push(formatTable(['tls', 'phase', ...PERCENTILE_HEADER], tls.flatMap((g) => [...orderedPhases(g)].map(([phase]) => [g.key, phase, ...percentileCells(g, phase)]))));
  }
  const protocols = groups.filter((g) => g.group === 'protocol');
  out.push('\nBy protocol, total handshake ms');
  out.push(formatTable(['protocol', ...PERCENTILE_HEADER], protocols.map((g) => [g.key, ...percentileCells(g, 'total')])));
  const origins = groups.filter((g) => g.group === 'origin').sort((a, b) => b.count - a.count);
  out.push(`\nBy origin, total handshake ms${origins.length > TOP_ORIGINS ? ` (the ${TOP_ORIGINS} busiest of ${origins.length})` : ''}`);
  out.push(formatTable(['origin', ...PERCENTILE_HEADER], origins.slice(0, TOP_ORIGINS).map((g) => [g.key, ...percentileCells(g, 'total')])));
  if (all) {
    out.push('\nCDF, every connection');
    out.push(asciiCdf([...orderedPhases(all)].map(([phase, p]) => ({ label: phase, histogram: p.histogram }))));
  }
  return out.join('\n');
}
