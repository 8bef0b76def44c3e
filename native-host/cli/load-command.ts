import type { Strategy } from '../../src/scheduler';
import { LoadError } from '../load/load-errors';
import { loadPage, type LoadPageOptions } from '../load/page-loader';
import type { LoadRun } from '../load/run-summary';
import { boolFlag, intFlag, parseArgs, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { formatBytes, formatTable } from './format-table';
import type { CliIo } from './io';
import { Recorder } from './record-option';
import { SAFETY_FLAGS, formatFlags, safetyOptions } from './safety-options';
import { LOAD_FLAGS, parseStrategies, transportOptions } from './strategy-options';
import { runToJson, summarizeStrategies, type StrategySummary } from './strategy-summary';

export const LOAD_USAGE = 'getlist load URL [--strategy a,b,...] [--repeat N] [--json] [--connections N] [--depth N] [--timeout MS] [--request-timeout MS] [--idle-timeout MS] [--allow-unsafe-ports] [--ca FILE] [--insecure] [--record [--data-dir DIR]]';

const FLAGS: Record<string, FlagSpec> = {
  ...LOAD_FLAGS,
  ...SAFETY_FLAGS,
  ca: { type: 'string', description: 'trust this PEM CA file for https (e.g. a test server)' },
  insecure: { type: 'boolean', description: 'do not verify TLS certificates' },
};

/** `getlist help load`: every option, and what the exit status means. */
export const LOAD_DETAILS = `options:
${formatFlags(FLAGS)}

A request that fails (timeout, bad response, lost connection) is reported with its error code
and the load goes on; --timeout bounds the whole load and keeps what finished, marking the rest
E_LOAD_TIMEOUT.

exit status: 0 when the document loaded with every strategy (per-request errors are in the
results); 1 when a document itself failed (e.g. E_DOCUMENT_FAILED, E_LOAD_TIMEOUT, E_HTTP_STATUS,
E_UNSAFE_PORT); 2 for a usage error.`;

/**
 * Runs each strategy `repeat` times, interleaved (s1, s2, …, s1, s2, …) so that slow drift in the
 * network affects every strategy alike. Each run uses fresh connections.
 */
export async function runStrategies(
  url: string,
  strategies: readonly Strategy[],
  repeat: number,
  base: Omit<LoadPageOptions, 'url' | 'strategy'>,
  progress: (run: LoadRun, rep: number) => void,
): Promise<Array<{ run: LoadRun; repeat: number }>> {
  const runs: Array<{ run: LoadRun; repeat: number }> = [];
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
    body: rows.map((r) => [r.strategy, r.totalMs, r.meanTtfbMs, r.connectionsOpened, r.requestsPerConnection, r.requests, formatBytes(r.bytes), r.handshakeP50Ms, r.handshakeP90Ms, r.errors]),
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
  const safety = safetyOptions(args);
  const transport = { ...transportOptions(args), requestTimeoutMs: safety.requestTimeoutMs, requestTotalTimeoutMs: safety.requestTotalTimeoutMs };
  const recorder = await Recorder.open(args);
  let runs: Array<{ run: LoadRun; repeat: number }>;
  try {
    runs = await runStrategies(url, strategies, repeat, { transport, timeoutMs, allowUnsafePorts: safety.allowUnsafePorts }, (run, rep) => {
      if (!json) io.err(`  ${run.strategy.padEnd(9)} run ${rep}/${repeat}: ${run.totalMs.toFixed(0)} ms, ${run.requests.length} requests\n`);
    });
    await recorder?.record(runs.map((r) => r.run), json ? undefined : io);
  } catch (err) {
    if (err instanceof LoadError) throw new CliError(err.code, err.message);
    throw err;
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
  if (failed > 0) io.out(`\n${failedRequestLines(runs.map((r) => r.run))}\n`);
  return 0;
}

/** Failed requests, one line each: strategy, code, URL and the reason's first line (at most 20). */
export function failedRequestLines(runs: readonly LoadRun[], limit = 20): string {
  const failed = runs.flatMap((run) => run.requests.filter((r) => r.error).map((r) => ({ strategy: run.strategy, r })));
  const lines = failed.slice(0, limit).map(({ strategy, r }) => `  ${strategy.padEnd(9)} ${(r.error?.code ?? '').padEnd(18)} ${r.url} — ${oneLine(r.error?.message ?? '')}`);
  const more = failed.length > limit ? `\n  … and ${failed.length - limit} more; run with --json to see each error.` : '';
  return `${failed.length} request(s) failed:\n${lines.join('\n')}${more}`;
}

function oneLine(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return first.length > 160 ? `${first.slice(0, 157)}…` : first;
}
