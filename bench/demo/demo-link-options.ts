/**
 * The command line of `node dist/bench/demo-link.js`: the run mode (the demo) and the internal
 * `--serve` mode (the demo server, started by the run mode inside the server namespace).
 * Bad flags throw `E_BENCH_USAGE` with a one-line message, an unknown link `E_BENCH_UNKNOWN_LINK`
 * (both exit 2).
 */
import { canonicalPageName, DemoPageError } from '../../native-host/demo/corpus';
import { DEMO_PAGES } from '../../native-host/cli/demo-command';
import { STRATEGY_NAMES, isStrategyName, type StrategyName } from '../../src/scheduler';
import { BenchRunError } from '../cli/bench-run-error';
import { linkPreset } from '../run/link-presets';
import { intValue, listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import type { LinkParams } from '../run/results-schema';

/** Same as `getlist demo`. */
export const DEMO_LINK_STRATEGIES: readonly StrategyName[] = ['http10', 'browser', 'pipelined', 'getlist'];
export const DEFAULT_DEMO_LINK = 'mcmanus-100';

export interface DemoLinkOptions {
  /** A preset of bench/run/link-presets.ts. */
  link: string;
  linkParams: LinkParams;
  /** Page names as given (aliases such as `pm95` kept); validated. */
  pages: string[];
  strategies: StrategyName[];
  repeat: number;
  /** Each `getlist load`'s own `--timeout`. */
  timeoutMs: number;
  json: boolean;
  /** The getlist launcher to load pages with; undefined = bin/getlist.js of this checkout. */
  cliPath: string | undefined;
}

export type DemoLinkArgs =
  | { mode: 'help' }
  | { mode: 'serve'; host: string; port: number; pages: string[] }
  | { mode: 'run'; options: DemoLinkOptions };

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const DEMO_LINK_COMMAND: CommandSpec = {
  usage: 'node dist/bench/demo-link.js [options]',
  options: {
    link: { type: 'string', value: 'NAME', default: DEFAULT_DEMO_LINK, help: 'link preset: pm95, mcmanus-100, mcmanus-300, spdy-dsl-<rtt>-<loss>, mobile' },
    page: { type: 'string', value: 'a,b,…', default: `all (${DEMO_PAGES.join(', ')})`, help: `demo pages: ${DEMO_PAGES.join(', ')}, pm95-<size>-<count>, or all` },
    strategy: { type: 'string', value: 'a,b,…', default: DEMO_LINK_STRATEGIES.join(','), help: `strategies to compare, of ${STRATEGY_NAMES.join(', ')}` },
    repeat: { type: 'string', value: 'N', default: '1', help: 'loads per strategy per page, 1 to 100; the table shows the median' },
    timeout: { type: 'string', value: 'MS', default: '300000', help: "each getlist load's own --timeout, 100 to 3600000" },
    json: { type: 'boolean', help: 'print one JSON document instead of the tables' },
    getlist: { type: 'string', value: 'PATH', default: 'bin/getlist.js of this checkout', help: 'the getlist launcher to load pages with' },
    serve: { type: 'boolean', hidden: true, help: 'internal: be the demo server (needs --host)' },
    host: { type: 'string', hidden: true, help: 'internal: the address the demo server listens on' },
    port: { type: 'string', hidden: true, default: '80', help: 'internal: the demo server\'s port' },
  },
  notes: [
    '`getlist demo` over the packet-level link of bench/link/: the demo server in the server namespace,',
    'each `getlist load` in the client namespace, so handshakes, slow start and RTT are real kernel TCP.',
    'Needs Linux, and root or unprivileged user namespaces. Exit status: 0 done; 1 a load, the server or',
    'the link failed; 2 usage (E_BENCH_USAGE, E_BENCH_UNKNOWN_LINK).',
  ],
};

function pagesFrom(value: string | boolean | undefined): string[] {
  const given = listValue(value);
  if (given !== undefined && given.length === 0) throw usage('--page needs at least one name (try --help)');
  const pages = given === undefined || (given.length === 1 && given[0] === 'all') ? [...DEMO_PAGES] : given;
  for (const p of pages) {
    try {
      canonicalPageName(p);
    } catch (err) {
      if (err instanceof DemoPageError) throw usage(`--page: ${err.message}`);
      throw err;
    }
  }
  return pages;
}

export function parseDemoLinkArgs(argv: readonly string[]): DemoLinkArgs {
  const { values: v, help } = parseCommandLine(argv, DEMO_LINK_COMMAND, usage);
  if (help) return { mode: 'help' };
  if (v.serve === true) {
    if (typeof v.host !== 'string') throw usage('--serve needs --host ADDRESS');
    return { mode: 'serve', host: v.host, port: intValue(v.port, 'port', 80, 0, 65535, usage), pages: pagesFrom(v.page) };
  }
  for (const name of ['host', 'port']) if (v[name] !== undefined) throw usage(`--${name} only goes with --serve`);
  const link = typeof v.link === 'string' ? v.link : DEFAULT_DEMO_LINK;
  const linkParams = linkPreset(link); // E_BENCH_UNKNOWN_LINK names the valid presets
  const strategyNames = listValue(v.strategy) ?? [...DEMO_LINK_STRATEGIES];
  if (strategyNames.length === 0) throw usage('--strategy needs at least one name (try --help)');
  const unknown = strategyNames.filter((s) => !isStrategyName(s));
  if (unknown.length > 0) throw usage(`--strategy: unknown ${unknown.map((u) => JSON.stringify(u)).join(', ')}; expected some of ${STRATEGY_NAMES.join(', ')}`);
  return {
    mode: 'run',
    options: {
      link,
      linkParams,
      pages: pagesFrom(v.page),
      strategies: strategyNames as StrategyName[],
      repeat: intValue(v.repeat, 'repeat', 1, 1, 100, usage),
      timeoutMs: intValue(v.timeout, 'timeout', 300_000, 100, 3_600_000, usage),
      json: v.json === true,
      cliPath: typeof v.getlist === 'string' ? v.getlist : undefined,
    },
  };
}
