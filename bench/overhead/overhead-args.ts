/** The overhead benchmark's command line (bench/overhead/main.ts), checked in full before anything starts. */
import { helpText, intValue, listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BENCH_PIECES } from '../../extension/platform/bench-pieces';
import { BenchRunError } from '../cli/bench-run-error';
import { parseOverheadLinks, type OverheadLinkSpec } from './overhead-link-spec';
import { OVERHEAD_TABS, type OverheadTab } from './overhead-load';
import { parseVariant, type OverheadVariant } from './overhead-variants';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const OVERHEAD_COMMAND: CommandSpec = {
  usage: 'node dist/bench/overhead.js [--runs N] [--sizes 20,600] [--variants lean,detailed,none,sham,PIECE+PIECE,detailed:PIECE+PIECE,…] [--browser chromium,firefox] [--tabs fresh,warm] [--link NAME|RTT/RATE,…] [--settle-ms MS] [--no-host] [--json] | --pool FILE,… [--json]',
  options: {
    runs: { type: 'string', value: 'N', default: '8', help: 'loads per page and browser (medians over these)' },
    sizes: { type: 'string', value: 'a,b', default: '20,600', help: 'pages to load, by their number of images' },
    variants: { type: 'string', value: 'v,…', default: 'lean', help: `extension builds to compare with Chromium alone: lean (the shipped build; "full" is an alias); detailed (Detailed capture granted: webRequest and DNR held); none (Chromium's extension system on, getlist not loaded); sham (a second browser alone: the bench's own zero); or pieces switched off joined with +, after "detailed:" for the detailed build (${Object.keys(BENCH_PIECES).join(', ')})` },
    browser: { type: 'string', value: 'b,…', default: 'chromium', help: 'browsers to run, each against itself alone: chromium, firefox (Firefox ESR over WebDriver BiDi; loopback only; `none` is skipped there, its extension system is always on)' },
    tabs: { type: 'string', value: 't,…', default: 'fresh', help: 'fresh: a new tab per load (its renderer starts inside the navigation); warm: each browser\'s one tab navigates to the next URL, as a user mostly does; both interleaved per run' },
    link: { type: 'string', value: 'L,…', help: 'run over the packet-level link instead of loopback (as root or rootless): a preset name (mcmanus-100, …) or RTT/RATE with RTT in ms and RATE in Mbit/s or none, e.g. 40/none,100/20; each link in turn' },
    'settle-ms': { type: 'string', value: 'MS', default: '1200', help: 'wait after each load (the extension measures 500 ms after load)' },
    'no-host': { type: 'boolean', help: 'do not register the native host (the extension observes only)' },
    json: { type: 'boolean', help: 'print the cells as JSON instead of the table (each cell keeps its pairs, for --pool)' },
    pool: { type: 'string', value: 'FILE,…', help: 'run nothing: pool the pairs of earlier --json outputs into one paired figure per browser, link, page, tab kind and build' },
    'serve-site': { type: 'string', value: 'HOST:PORT', hidden: true, help: 'internal: serve the site (run in the link\'s server namespace)' },
  },
  notes: [
    'Goal: load and DOMContentLoaded medians within +3 % of Chromium alone. Needs `npm run build` (dist/extension).',
    'With --link, Chromium (and the native host it starts) runs in the link\'s client namespace and the site\'s server in its server namespace, HTTP/1.1 on port 80.',
  ],
};

export interface OverheadArgs {
  help?: string;
  runs: number;
  settleMs: number;
  sizes: number[];
  variants: OverheadVariant[];
  /** Empty: loopback. */
  links: OverheadLinkSpec[];
  browsers: Array<'chromium' | 'firefox'>;
  tabs: OverheadTab[];
  withHost: boolean;
  json: boolean;
  /** `--pool`: the --json files to pool (overhead-pool.ts); nothing is run. */
  pool?: string[];
  /** `--serve-site HOST:PORT`: this process is the site's server (overhead-link-site.ts). */
  serveSite?: string;
}

/** Throws E_BENCH_USAGE (E_BENCH_UNKNOWN_LINK for an unknown preset) naming what was wrong. */
export function parseOverheadArgs(argv: readonly string[]): OverheadArgs {
  const { values: v, help } = parseCommandLine([...argv], OVERHEAD_COMMAND, usage);
  const args: OverheadArgs = {
    runs: intValue(v.runs, 'runs', 8, 1, 1000, usage),
    settleMs: intValue(v['settle-ms'], 'settle-ms', 1200, 0, 60_000, usage),
    sizes: (listValue(v.sizes) ?? ['20', '600']).map((s) => intValue(s, 'sizes', 0, 1, 5000, usage)),
    variants: (listValue(v.variants) ?? ['lean']).map(parseVariant),
    links: parseOverheadLinks(listValue(v.link) ?? []),
    browsers: oneOf(listValue(v.browser) ?? ['chromium'], 'browser', ['chromium', 'firefox'] as const),
    tabs: oneOf(listValue(v.tabs) ?? ['fresh'], 'tabs', OVERHEAD_TABS),
    withHost: v['no-host'] !== true,
    json: v.json === true,
  };
  if (args.links.length > 0 && args.browsers.includes('firefox')) throw usage('--link runs Chromium only (Firefox would need its driver inside the link\'s namespace); drop --browser firefox or --link');
  if (help) args.help = helpText(OVERHEAD_COMMAND);
  if (typeof v['serve-site'] === 'string') args.serveSite = v['serve-site'];
  const pool = listValue(v.pool);
  if (pool !== undefined) {
    if (pool.length === 0) throw usage('--pool: name at least one --json output file');
    const running = ['runs', 'sizes', 'variants', 'browser', 'tabs', 'link', 'settle-ms', 'no-host'].filter((k) => v[k] !== undefined);
    if (running.length > 0) throw usage(`--pool runs nothing; --${running.join(', --')} would be ignored`);
    args.pool = pool;
  }
  return args;
}

/** Each of `values` checked against `allowed`, duplicates dropped; throws E_BENCH_USAGE naming both. */
function oneOf<T extends string>(values: readonly string[], option: string, allowed: readonly T[]): T[] {
  for (const x of values) {
    if (!allowed.includes(x as T)) throw usage(`--${option}: unknown "${x}"; expected ${allowed.join(' or ')} (comma-separated)`);
  }
  return [...new Set(values as T[])];
}
