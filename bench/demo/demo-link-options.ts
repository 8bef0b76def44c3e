/**
 * The command line of `node dist/bench/demo-link.js`: the run mode (the demo) and the internal
 * `--serve` mode (the demo server, started by the run mode inside the server namespace).
 * Bad flags throw `E_BENCH_USAGE`, an unknown link `E_BENCH_UNKNOWN_LINK` (both exit 2).
 */
import { canonicalPageName, DemoPageError } from '../../native-host/demo/corpus';
import { DEMO_PAGES } from '../../native-host/cli/demo-command';
import { STRATEGY_NAMES, isStrategyName, type StrategyName } from '../../src/scheduler';
import { BenchRunError } from '../run/bench-run-error';
import { linkPreset } from '../run/link-presets';
import type { LinkParams } from '../run/results-schema';

export const DEMO_LINK_USAGE = 'usage: node dist/bench/demo-link.js [--link NAME] [--page pm95|mcmanus-159|pm95-<size>-<count>|all] '
  + '[--strategy a,b,...] [--repeat N] [--timeout MS] [--json] [--getlist PATH]';

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

const STRING_FLAGS = new Set(['link', 'page', 'strategy', 'repeat', 'timeout', 'getlist', 'host', 'port']);
const BOOLEAN_FLAGS = new Set(['json', 'serve', 'help']);

function usage(message: string): BenchRunError {
  return new BenchRunError('E_BENCH_USAGE', `${message}\n${DEMO_LINK_USAGE}`);
}

function parseFlags(argv: readonly string[]): Map<string, string | true> {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h') {
      flags.set('help', true);
      continue;
    }
    if (!arg.startsWith('--')) throw usage(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!STRING_FLAGS.has(name) && !BOOLEAN_FLAGS.has(name)) throw usage(`unknown option --${name}`);
    if (flags.has(name)) throw usage(`--${name} given more than once`);
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq >= 0) throw usage(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) throw usage(`--${name} needs a value`);
    flags.set(name, value);
  }
  return flags;
}

function intValue(flags: Map<string, string | true>, name: string, dflt: number, min: number, max: number): number {
  const v = flags.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min || n > max) throw usage(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

function list(flags: Map<string, string | true>, name: string): string[] | undefined {
  const v = flags.get(name);
  if (typeof v !== 'string') return undefined;
  const items = [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
  if (items.length === 0) throw usage(`--${name} needs at least one name`);
  return items;
}

function pagesFrom(flags: Map<string, string | true>): string[] {
  const given = list(flags, 'page');
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
  const flags = parseFlags(argv);
  if (flags.get('help') === true) return { mode: 'help' };
  if (flags.get('serve') === true) {
    const host = flags.get('host');
    if (typeof host !== 'string') throw usage('--serve needs --host ADDRESS');
    return { mode: 'serve', host, port: intValue(flags, 'port', 80, 0, 65535), pages: pagesFrom(flags) };
  }
  for (const name of ['host', 'port']) if (flags.has(name)) throw usage(`--${name} only goes with --serve`);
  const link = (flags.get('link') as string | undefined) ?? DEFAULT_DEMO_LINK;
  const linkParams = linkPreset(link); // E_BENCH_UNKNOWN_LINK names the valid presets
  const strategyNames = list(flags, 'strategy') ?? [...DEMO_LINK_STRATEGIES];
  const unknown = strategyNames.filter((s) => !isStrategyName(s));
  if (unknown.length > 0) throw usage(`--strategy: unknown ${unknown.map((u) => JSON.stringify(u)).join(', ')}; expected some of ${STRATEGY_NAMES.join(', ')}`);
  return {
    mode: 'run',
    options: {
      link,
      linkParams,
      pages: pagesFrom(flags),
      strategies: strategyNames as StrategyName[],
      repeat: intValue(flags, 'repeat', 1, 1, 100),
      timeoutMs: intValue(flags, 'timeout', 300_000, 100, 3_600_000),
      json: flags.get('json') === true,
      cliPath: flags.get('getlist') as string | undefined,
    },
  };
}
