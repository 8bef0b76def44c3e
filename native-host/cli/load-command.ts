import { runToJson, summarizeStrategies, type Run, type StrategySummary } from '../../src/run';
import type { Strategy } from '../../src/scheduler';
import { loadPage, type LoadPageOptions } from '../load/page-loader';
import { boolFlag, intFlag, parseArgs, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import { formatBytes, formatTable } from './format-table';
import type { CliIo } from './io';
import { Recorder } from './record-option';
import { LOAD_FLAGS, parseStrategies, STRATEGIES_HELP, transportOptions } from './strategy-options';

const FLAGS: Record<string, FlagSpec> = {
  ...LOAD_FLAGS,
  strategy: { ...LOAD_FLAGS.strategy, default: 'http10,browser,pipelined,getlist' },
  timeout: { ...LOAD_FLAGS.timeout, default: '120000' },
  ca: { type: 'string', value: 'FILE', description: 'trust this PEM CA file for https (e.g. a test server\'s)' },
  insecure: { type: 'boolean', description: 'do not verify TLS certificates' },
};

export const LOAD_HELP: CommandHelp = {
  synopsis: 'load URL',
  summary: 'load a page with each strategy and compare',
  description:
    'Fetches the document at URL and, as the streaming scanner finds each resource in it, fetches that ' +
    'resource at once (stylesheets are scanned for url() and @import when they arrive). Each strategy ' +
    'loads the page in turn and the table compares them: total ms, mean time to first byte, connections ' +
    'opened, requests per connection, bytes, handshake p50/p90 and errors. Progress goes to stderr.',
  flags: FLAGS,
  sections: [STRATEGIES_HELP],
};

export const LOAD_USAGE = usageLine(LOAD_HELP.synopsis, FLAGS);

/**
 * Runs each strategy `repeat` times, interleaved (s1, s2, …, s1, s2, …) so that slow drift in the
 * network affects every strategy alike. Each run uses fresh connections.
 */
export async function runStrategies(
  url: string,
  strategies: readonly Strategy[],
  repeat: number,
  base: Omit<LoadPageOptions, 'url' | 'strategy'>,
  progress: (run: Run, rep: number) => void,
): Promise<Array<{ run: Run; repeat: number }>> {
  const runs: Array<{ run: Run; repeat: number }> = [];
  for (let rep = 1; rep <= repeat; rep++) {
    for (const s of strategies) {
      const run = await loadPage({ ...base, url, strategy: s });
      progress(run, rep);
      runs.push({ run, repeat: rep });
    }
  }
  return runs;
}

export function comparisonRows(rows: readonly StrategySummary[]): { header: string[]; body: Array<Array<string | number>> } {
  return {
    header: ['strategy', 'total ms', 'mean TTFB ms', 'conns', 'req/conn', 'requests', 'bytes', 'hs p50 ms', 'hs p90 ms', 'errors'],
    body: rows.map((r) => [r.strategy, r.totalMs, r.meanTtfbMs, r.connectionsOpened, r.requestsPerConnection, r.requests, formatBytes(r.bytes), r.handshakeP50Ms ?? NaN, r.handshakeP90Ms ?? NaN, r.errors]),
  };
}

export async function loadCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs('load', argv, FLAGS);
  if (args.positionals.length !== 1) {
    throw new CliError('E_USAGE', `expected exactly one URL\nusage: ${LOAD_USAGE}`);
  }
  const url = args.positionals[0] as string;
  const strategies = parseStrategies(args, ['http10', 'browser', 'pipelined', 'getlist']);
  const repeat = intFlag(args, 'repeat', 1, 1, 100);
  const timeoutMs = intFlag(args, 'timeout', 120_000, 100, 3_600_000);
  const json = boolFlag(args, 'json');
  const transport = transportOptions(args);
  const recorder = await Recorder.open(args);
  let runs: Array<{ run: Run; repeat: number }>;
  try {
    runs = await runStrategies(url, strategies, repeat, { transport, timeoutMs }, (run, rep) => {
      if (!json) io.err(`  ${run.strategy.padEnd(9)} run ${rep}/${repeat}: ${run.totalMs.toFixed(0)} ms, ${run.requests.length} requests\n`);
    });
    await recorder?.record(runs.map((r) => r.run), json ? undefined : io);
  } finally {
    await recorder?.close();
  }
  if (json) {
    io.out(`${JSON.stringify({ url, runs: runs.map(({ run, repeat: r }) => runToJson(run, r)) })}\n`);
    return 0;
  }
  const { header, body } = comparisonRows(summarizeStrategies(runs.map((r) => r.run)));
  io.out(`${url} — ${strategies.length} strateg${strategies.length === 1 ? 'y' : 'ies'} × ${repeat} run${repeat === 1 ? '' : 's'} (medians)\n`);
  io.out(`${formatTable(header, body)}\n`);
  const failed = runs.reduce((a, r) => a + r.run.errors, 0);
  if (failed > 0) io.out(`\n${failed} request(s) failed; run with --json to see each error.\n`);
  return 0;
}
