/**
 * The command line of `node dist/bench/trace.js`: one load, one link, one page. Every mistake is
 * `E_BENCH_USAGE` (exit 2), an unknown link `E_BENCH_UNKNOWN_LINK`, both found before any namespace
 * is made.
 */
import { STRATEGY_NAMES, isStrategyName, type StrategyName } from '../../src/scheduler';
import { intValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BenchRunError } from '../cli/bench-run-error';
import { linkPreset } from '../run/link-presets';
import type { Scheme } from '../run/results-schema';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const TRACE_COMMAND: CommandSpec = {
  usage: 'node dist/bench/trace.js --link NAME --page NAME [options]',
  options: {
    link: { type: 'string', value: 'NAME', help: 'link preset (required): pm95, mcmanus-100, mcmanus-300, spdy-dsl-<rtt>-<loss>, mobile' },
    page: { type: 'string', value: 'NAME', help: 'bench corpus page (required), e.g. mcmanus-159, almanac-median, pm95-2544-10' },
    strategy: { type: 'string', value: 'NAME', default: 'getlist', help: `the getlist strategy to load with: ${STRATEGY_NAMES.join(', ')}` },
    scheme: { type: 'string', value: 'http|https', default: 'http', help: 'http is HTTP/1.1 only; https lets ALPN pick h2' },
    'ss-every': { type: 'string', value: 'MS', default: '20', help: "how often to sample the server's `ss -tin`, 1 to 10000 ms" },
  },
  notes: [
    "Prints one JSON line: every request's discovery, send, first byte, end and connection, and the",
    "server side's TCP state (cwnd, bytes acked, RTT) over time. Needs root or unprivileged user namespaces, and nginx.",
  ],
};

export interface TraceOptions {
  link: string;
  page: string;
  strategy: StrategyName;
  scheme: Scheme;
  ssEveryMs: number;
}

export type TraceArgs = { mode: 'help' } | { mode: 'run'; options: TraceOptions };

export function parseTraceArgs(argv: readonly string[]): TraceArgs {
  const { values: v, help } = parseCommandLine(argv, TRACE_COMMAND, usage);
  if (help) return { mode: 'help' };
  if (typeof v.link !== 'string' || typeof v.page !== 'string') throw usage('--link and --page are required (try --help)');
  linkPreset(v.link); // E_BENCH_UNKNOWN_LINK names the valid presets
  const strategy = typeof v.strategy === 'string' ? v.strategy : 'getlist';
  if (!isStrategyName(strategy)) throw usage(`--strategy: unknown ${JSON.stringify(strategy)}; expected one of ${STRATEGY_NAMES.join(', ')}`);
  const scheme = typeof v.scheme === 'string' ? v.scheme : 'http';
  if (scheme !== 'http' && scheme !== 'https') throw usage(`--scheme must be http or https, got ${JSON.stringify(scheme)}`);
  return {
    mode: 'run',
    options: { link: v.link, page: v.page, strategy, scheme, ssEveryMs: intValue(v['ss-every'], 'ss-every', 20, 1, 10_000, usage) },
  };
}
