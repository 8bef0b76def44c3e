import { EXPORT_FORMATS, exportStats, isExportFormat } from '../../src/stats/export-formats';
import { noPositionals, parseArgs, stringFlag, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import type { CliIo } from './io';
import { parseQueryFlags, QUERY_FLAGS } from './query-flags';
import { DATA_DIR_FLAG, readStore, storeDirFromArgs } from './store-access';
import { writeOutputFile } from './write-output';

const FLAGS: Record<string, FlagSpec> = {
  format: {
    type: 'string',
    value: EXPORT_FORMATS.join('|'),
    required: true,
    description:
      'csv: one row per CDF point (group,key,phase,ms,cdf,count); json: the `stats --json` groups with ' +
      'mergeable histograms, plus the stored page summaries; prom: Prometheus text, one histogram ' +
      'getlist_handshake_duration_seconds per phase, origin, protocol and TLS kind',
  },
  out: { type: 'string', value: 'FILE', default: 'stdout', description: 'write to FILE instead: atomically (temp file, fsync, rename), mode 0600' },
  ...QUERY_FLAGS,
  'data-dir': DATA_DIR_FLAG,
};

export const EXPORT_HELP: CommandHelp = {
  synopsis: 'export',
  summary: 'export the stored handshake stats as csv, json or prom',
  description: 'Writes the statistics of `getlist stats` for other tools. docs/cli.md describes each format in full.',
  flags: FLAGS,
};

export const EXPORT_USAGE = usageLine(EXPORT_HELP.synopsis, FLAGS);

/** Exports the stored handshake statistics as CSV, JSON (with page summaries) or Prometheus text. */
export async function exportCommand(argv: readonly string[], io: CliIo, now: () => number = Date.now): Promise<number> {
  const args = parseArgs('export', argv, FLAGS);
  noPositionals(args, EXPORT_USAGE);
  const format = stringFlag(args, 'format');
  if (format === undefined || !isExportFormat(format)) {
    throw new CliError('E_USAGE', `--format: expected one of ${EXPORT_FORMATS.join(', ')}, got ${format === undefined ? 'none' : JSON.stringify(format)}\nusage: ${EXPORT_USAGE}`);
  }
  const exportedAt = now();
  const query = parseQueryFlags(args, exportedAt);
  const dir = storeDirFromArgs(args);
  const { stats, pages } = await readStore(dir, query, format === 'json');
  const text = exportStats(format, stats, pages, {
    exportedAt: new Date(exportedAt).toISOString(),
    query: {
      origin: query.origin ?? null,
      since: query.since === undefined ? null : new Date(query.since).toISOString(),
      until: query.until === undefined ? null : new Date(query.until).toISOString(),
    },
  });
  const out = stringFlag(args, 'out');
  if (out === undefined) {
    io.out(text);
    return 0;
  }
  writeOutputFile(out, text);
  io.err(`getlist export: ${stats.count} handshakes as ${format} to ${out}\n`);
  return 0;
}
