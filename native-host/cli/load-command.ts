import { RUN_TIMEOUT_MS } from '../../src/protocol/run-limits';
import { runToJson, summarizeStrategies, type Run, type StrategySummary } from '../../src/run';
import type { Strategy } from '../../src/scheduler';
import type { OriginMemory } from '../../src/origins/origin-memory';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { readMemoryFile, writeMemoryFile } from './memory-file';
import { loadPage, type LoadPageOptions } from '../run/page-loader';
import type { AddressCheck } from '../transport/connection-gate';
import type { HostMapping } from '../transport/host-mapping';
import { mappedLookup, privateNetworkCheck } from '../transport/private-network';
import { TlsSessions } from '../transport/tls-sessions';
import { boolFlag, intFlag, parseArgs, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import { FIDELITY_FLAGS, fidelityOptions } from './fidelity-options';
import { formatBytes, formatTable } from './format-table';
import type { CliIo } from './io';
import { Recorder } from './record-option';
import { boundLines, runBoundJson } from './run-bound-lines';
import type { RunBoundLink } from '../../src/bound/run-bound';
import { SAFETY_FLAGS, safetyOptions } from './safety-options';
import { LOAD_FLAGS, parseStrategies, STRATEGIES_HELP, transportOptions, warmUpOption } from './strategy-options';

const FLAGS: Record<string, FlagSpec> = {
  ...LOAD_FLAGS,
  strategy: { ...LOAD_FLAGS.strategy, default: 'http10,browser,pipelined,getlist' },
  timeout: { ...LOAD_FLAGS.timeout, default: String(RUN_TIMEOUT_MS) },
  ...SAFETY_FLAGS,
  ca: { type: 'string', value: 'FILE', description: 'trust this PEM CA file for https besides the system\'s roots (e.g. a test server\'s)' },
  insecure: { type: 'boolean', description: 'do not verify TLS certificates' },
  revisit: { type: 'boolean', description: 'model a returning visitor: each strategy first loads the page once unmeasured, then every measured run starts from what the earlier loads learned (origin memory, size hints) and resumes the TLS sessions they were given (each strategy its own); only getlist uses origin memory' },
  memory: {
    type: 'string',
    value: 'FILE|store',
    description:
      'start getlist\'s runs from origin memory (pipelining, protocol, request budget, path, the page\'s origins) and write back what they learn: ' +
      'FILE is read before the runs and written after (a missing FILE starts empty); `store` is the store\'s memory (--data-dir), ' +
      'what the extension\'s replays and earlier `load --record`s learned, written back as it is learned (a file named store: ./store)',
    default: 'none: every run is a first visit',
  },
  ...FIDELITY_FLAGS,
  rtt: { type: 'string', value: 'MS', default: "the run's fastest TCP handshake", description: 'the round trip each run\'s lower bound is computed for (MODEL.md)' },
  rate: { type: 'string', value: 'MBIT', default: 'unlimited', description: 'the delivery rate towards the client each run\'s lower bound is computed for, Mbit/s' },
};

export const LOAD_HELP: CommandHelp = {
  synopsis: 'load URL',
  summary: 'load a page with each strategy and compare',
  description:
    'Fetches the document at URL and, as the streaming scanner finds each resource in it, fetches that ' +
    'resource at once, choosing as a browser does (one srcset candidate for the viewport, the first usable ' +
    '<picture> source, CSS url()s only for rules an element matches, fonts only for text set in them; lazy ' +
    'content beyond the fold last, mixed content upgraded or skipped). Bodies are asked for and decoded as a ' +
    'browser would (Accept per destination, gzip/deflate/br). Each strategy ' +
    'loads the page in turn and the table compares them: total ms, mean time to first byte, connections ' +
    'opened, requests per connection, bytes, handshake p50/p90 and errors. Progress goes to stderr.',
  flags: FLAGS,
  sections: [
    STRATEGIES_HELP,
    {
      title: 'exit status',
      rows: [
        ['0', 'the document loaded with every strategy; a request that failed (timeout, bad response, lost connection) is listed with its code and a one-line reason, and the load goes on; --timeout keeps what finished and marks the rest E_LOAD_TIMEOUT'],
        ['1', 'a document itself failed (e.g. E_DOCUMENT_FAILED, E_LOAD_TIMEOUT, E_HTTP_STATUS, E_UNSAFE_PORT)'],
        ['2', 'a usage error'],
      ],
    },
  ],
};

export const LOAD_USAGE = usageLine(LOAD_HELP.synopsis, FLAGS);

/**
 * Runs each strategy `repeat` times, interleaved (s1, s2, …, s1, s2, …) so that slow drift in the
 * network affects every strategy alike. Each run uses fresh connections. With `revisit`, each
 * strategy first loads the page once, unmeasured, so that every measured run is a returning
 * visitor's: its size hints and (getlist) `base.memory` hold what the earlier loads learned, and
 * its connections resume the TLS sessions that strategy's earlier loads were given, as a browser
 * still open resumes its own (tls-sessions.ts).
 * `freshMemory` gives each run without a shared memory an empty one of its own (a first visit
 * still), for what the run learns to be collected (`--record` writes it to the store).
 */
export async function runStrategies(
  url: string,
  strategies: readonly Strategy[],
  repeat: number,
  base: Omit<LoadPageOptions, 'url' | 'strategy'>,
  progress: (run: Run, rep: number) => void,
  revisit = false,
  freshMemory?: () => OriginMemory,
): Promise<Array<{ run: Run; repeat: number }>> {
  const runs: Array<{ run: Run; repeat: number }> = [];
  // A returning visitor's browser resumes the TLS sessions its earlier visits got, each strategy its own.
  const sessions = new Map(revisit ? strategies.map((s) => [s, new TlsSessions()]) : []);
  const withSessions = (s: Strategy) => (revisit ? { transport: { ...base.transport, tlsSessions: sessions.get(s) } } : {});
  if (revisit) {
    base = { ...base, sizeHints: base.sizeHints ?? new Map(), memory: base.memory ?? freshMemory?.() ?? new InMemoryOriginMemory() };
    for (const s of strategies) await loadPage({ ...base, url, strategy: s, ...withSessions(s) });
  }
  for (let rep = 1; rep <= repeat; rep++) {
    for (const s of strategies) {
      // Without a shared memory every run is a first visit; `freshMemory` (--record) only collects what it learns.
      const memory = base.memory ?? freshMemory?.();
      const run = await loadPage({ ...base, url, strategy: s, ...(memory ? { memory } : {}), ...withSessions(s) });
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
  const timeoutMs = intFlag(args, 'timeout', RUN_TIMEOUT_MS, 100, 3_600_000);
  const json = boolFlag(args, 'json');
  const { userAgent, hostMappings, ...fidelity } = fidelityOptions(args);
  const safety = safetyOptions(args, timeoutMs);
  const addressCheck = await pagePrivateNetworkCheck(url, safety.allowPrivateNetwork, hostMappings);
  const transport = {
    ...(await transportOptions(args)),
    ...(addressCheck ? { addressCheck } : {}),
    requestTimeoutMs: safety.requestTimeoutMs,
    requestTotalTimeoutMs: safety.requestTotalTimeoutMs,
    ...(userAgent !== undefined ? { userAgent } : {}),
    ...(hostMappings ? { hostMappings } : {}),
  };
  const link = boundLink(args);
  const revisit = boolFlag(args, 'revisit');
  const memoryFlag = stringFlag(args, 'memory');
  const fromStore = memoryFlag === 'store';
  const memoryFile = fromStore ? undefined : memoryFlag;
  const recorder = await Recorder.open(args, { withStore: fromStore, io });
  let runs: Array<{ run: Run; repeat: number }>;
  try {
    // --record writes what the runs learn to the store's memory, whichever memory they start from.
    const listener = recorder?.memoryWriter();
    let memory: OriginMemory | undefined;
    let fileMemory: InMemoryOriginMemory | undefined;
    if (fromStore && recorder) memory = await recorder.storeMemory(url);
    else if (memoryFile !== undefined) {
      memory = fileMemory = await readMemoryFile(memoryFile, listener ? { listener } : {});
      // Skipped, not fatal: a corrupt record only costs what it would have taught.
      for (const problem of fileMemory.skipped) io.err(`getlist: E_MEMORY_RECORD: ${memoryFile}: skipped ${problem}\n`);
    }
    const freshMemory = listener ? () => new InMemoryOriginMemory({ listener }) : undefined;
    runs = await runStrategies(url, strategies, repeat, { transport, timeoutMs, allowUnsafePorts: safety.allowUnsafePorts, ...fidelity, ...warmUpOption(args), ...(memory ? { memory } : {}) }, (run, rep) => {
      if (!json) io.err(`  ${run.strategy.padEnd(9)} run ${rep}/${repeat}: ${run.totalMs.toFixed(0)} ms, ${run.requests.length} requests\n`);
    }, revisit, freshMemory);
    if (memoryFile !== undefined && fileMemory) writeMemoryFile(memoryFile, fileMemory);
    await recorder?.record(runs.map((r) => r.run), json ? undefined : io);
  } finally {
    await recorder?.close();
  }
  if (json) {
    io.out(`${JSON.stringify({ url, runs: runs.map(({ run, repeat: r }) => ({ ...runToJson(run, r), bound: runBoundJson(run, link) })) })}\n`);
    return 0;
  }
  const { header, body } = comparisonRows(summarizeStrategies(runs.map((r) => r.run)));
  io.out(`${url} — ${strategies.length} strateg${strategies.length === 1 ? 'y' : 'ies'} × ${repeat} run${repeat === 1 ? '' : 's'} (medians)\n`);
  io.out(`${formatTable(header, body)}\n`);
  io.out(`lower bound of each run, on the path it measured:\n${boundLines(runs, link)}\n`);
  const failed = runs.reduce((a, r) => a + r.run.errors, 0);
  if (failed > 0) io.out(`\n${failedRequestLines(runs.map((r) => r.run))}\n`);
  const contradicted = contradictionLines(runs.map((r) => r.run));
  if (contradicted) io.out(`\n${contradicted}\n`);
  return 0;
}

/**
 * Requests whose response type contradicted their kind (not failures: each was delivered as the
 * server answered), one line each (at most `limit`); empty when there were none.
 */
export function contradictionLines(runs: readonly Run[], limit = 20): string {
  const noted = runs.flatMap((run) => run.requests.filter((r) => r.contradiction !== undefined).map((r) => ({ strategy: run.strategy, r })));
  if (noted.length === 0) return '';
  const lines = noted.slice(0, limit).map(({ strategy, r }) => `  ${strategy.padEnd(9)} ${r.url} — ${oneLine(r.contradiction ?? '')}`);
  const more = noted.length > limit ? `\n  … and ${noted.length - limit} more; run with --json to see each.` : '';
  return `${noted.length} response(s) contradicted their request's type:\n${lines.join('\n')}${more}`;
}

/** Failed requests, one line each: strategy, code, URL and the reason's first line (at most 20). */
export function failedRequestLines(runs: readonly Run[], limit = 20): string {
  const failed = runs.flatMap((run) => run.requests.filter((r) => r.error).map((r) => ({ strategy: run.strategy, r })));
  const lines = failed.slice(0, limit).map(({ strategy, r }) => `  ${strategy.padEnd(9)} ${(r.error?.code ?? '').padEnd(18)} ${r.url} — ${oneLine(r.error?.message ?? '')}`);
  const more = failed.length > limit ? `\n  … and ${failed.length - limit} more; run with --json to see each error.` : '';
  return `${failed.length} request(s) failed:\n${lines.join('\n')}${more}`;
}

function oneLine(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return first.length > 160 ? `${first.slice(0, 157)}…` : first;
}

/** `--rtt` and `--rate`: the path each run's bound is computed for. */
function boundLink(args: ParsedArgs): RunBoundLink {
  const link: RunBoundLink = {};
  for (const [flag, scale] of [['rtt', 1], ['rate', 1e6]] as const) {
    const raw = stringFlag(args, flag);
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || value > 1e6) throw new CliError('E_USAGE', `--${flag} must be a number above 0 and at most 1000000, not ${JSON.stringify(raw)}\nusage: ${LOAD_USAGE}`);
    if (flag === 'rtt') link.rttMs = value;
    else link.downBitsPerSec = value * scale;
  }
  return link;
}

/**
 * Private Network Access for the page `load` fetches, as a browser applies it to the page's
 * subresources: undefined for a URL that does not parse (the load reports that itself).
 */
async function pagePrivateNetworkCheck(url: string, allowed: boolean, hostMappings: readonly HostMapping[] | undefined): Promise<AddressCheck | undefined> {
  if (!URL.canParse(url)) return undefined;
  return privateNetworkCheck(url, allowed, hostMappings && mappedLookup(url, hostMappings), 'with --allow-private-network');
}
