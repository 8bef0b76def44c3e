/** The navigation benchmark's command line (bench/navigate/main.ts), checked in full before a browser or link starts. */
import { helpText, intValue, listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BenchRunError } from '../cli/bench-run-error';
import { NAV_CONTENDERS, type NavContender } from './nav-contenders';
import { parseOverheadLinks, type OverheadLinkSpec } from '../overhead/overhead-link-spec';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const NAV_BROWSERS = ['chromium', 'firefox'] as const;
export const NAV_CACHES = ['on', 'off'] as const;
/** The goal's two links: 100 ms / 20 Mbit/s and 40 ms / 5 Mbit/s. */
export const NAV_LINKS = ['100/20', '40/5'] as const;

export const NAV_COMMAND: CommandSpec = {
  usage: 'node dist/bench/navigate.js [--quick] [--browsers a,b] [--links RTT/RATE,…] [--cache on,off] [--steps N] [--seed N] [--walks N] [--prerender] [--rules] [--only a,b] [--out FILE] [--logs FILE] [--trace DIR] | --report a.json,b.json | --rejudge FILE --logs FILE [--out FILE] | --trace-summary DIR',
  options: {
    quick: { type: 'boolean', help: 'a smoke test: Chromium, 100/20, cache on, 6 navigations (options given still apply)' },
    browsers: { type: 'string', value: 'a,b', default: 'chromium,firefox', help: 'chromium, firefox (Firefox ESR, driven inside the client namespace)' },
    links: { type: 'string', value: 'RTT/RATE,…', default: NAV_LINKS.join(','), help: 'packet-level links: round trip in ms / rate in Mbit/s each way' },
    cache: { type: 'string', value: 'on,off', default: 'on,off', help: 'the browser\'s HTTP cache during the walk' },
    steps: { type: 'string', value: 'N', default: '24', help: 'navigations in the scripted user\'s path' },
    seed: { type: 'string', value: 'N', default: '1', help: 'the path\'s seed' },
    walks: { type: 'string', value: 'N', default: '1', help: 'walk each cell N times, its contenders alternating within each walk; the summaries pool the walks (one walk\'s median of 24 falls between its two slowest repeat visits)' },
    prerender: { type: 'boolean', help: 'Chromium: also the extension set to prerender, at the default eagerness and at eager' },
    rules: { type: 'boolean', help: 'Chromium: also the browser alone on pages carrying speculation rules the bench writes (the reference)' },
    only: { type: 'string', value: 'a,b', help: 'walk only these contenders (alone, getlist, getlist-prerender, getlist-prerender-eager, rules, and getlist-no-hints: the extension with its learned hints off, walked only when named here); the summaries need alone' },
    'hover-ms': { type: 'string', value: 'MS', default: '300', help: 'how long the user hovers each link' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/navigate-latest.json', help: 'where the cells are written as JSON' },
    logs: { type: 'string', value: 'FILE', help: 'also write each run\'s access-log lines, with its contender and step, as JSON lines' },
    report: { type: 'string', value: 'a.json,b.json', help: 'write the table of results files (a run made in parts) into bench/RESULTS.md, and nothing else' },
    rejudge: { type: 'string', value: 'FILE', help: 'judge a results file again from the log lines its run wrote (--logs FILE), and write it to --out (default: FILE itself); no browser' },
    trace: { type: 'string', value: 'DIR', help: 'Chromium: record a trace of every step, from the click to its metrics, as DIR/<contender>-<cache>-<link>-<step>.json (tracing slows the browser: compare traced walks with each other)' },
    'trace-summary': { type: 'string', value: 'DIR', help: 'print where each traced step\'s time went (view-trace.ts), and nothing else; no browser' },
  },
  notes: [
    'Needs root (network namespaces) and `npm run build`. Each cell walks the same path with the browser alone and with the extension, alternated.',
  ],
};

export interface NavArgs {
  help?: string;
  report?: string;
  /** A results file judged again from `logs`. */
  rejudge?: string;
  quick: boolean;
  browsers: Array<(typeof NAV_BROWSERS)[number]>;
  links: OverheadLinkSpec[];
  caches: Array<(typeof NAV_CACHES)[number]>;
  steps: number;
  seed: number;
  /** Walks per cell, pooled in its summaries. */
  walks: number;
  hoverMs: number;
  prerender: boolean;
  rules: boolean;
  out?: string;
  logs?: string;
  /** The contenders walked, when not all. */
  only?: NavContender[];
  /** Where each Chromium step's trace is written. */
  trace?: string;
  /** A folder of traces to summarize, and nothing else. */
  traceSummary?: string;
}

function oneOf<T extends string>(list: string[] | undefined, allowed: readonly T[], name: string): T[] | undefined {
  for (const x of list ?? []) if (!(allowed as readonly string[]).includes(x)) throw usage(`--${name}: unknown "${x}"; expected ${allowed.join(' or ')} (comma-separated)`);
  return list as T[] | undefined;
}

export function parseNavArgs(argv: readonly string[]): NavArgs {
  const { values: v, help } = parseCommandLine([...argv], NAV_COMMAND, usage);
  const quick = v.quick === true;
  const base: NavArgs = {
    quick,
    browsers: quick ? ['chromium'] : [...NAV_BROWSERS],
    links: parseOverheadLinks(quick ? [NAV_LINKS[0]] : [...NAV_LINKS]),
    caches: quick ? ['on'] : [...NAV_CACHES],
    steps: quick ? 6 : 24,
    seed: 1,
    walks: 1,
    hoverMs: 300,
    prerender: false,
    rules: false,
  };
  if (help) return { ...base, help: helpText(NAV_COMMAND) };
  if (typeof v.report === 'string') return { ...base, report: v.report };
  if (typeof v['trace-summary'] === 'string') return { ...base, traceSummary: v['trace-summary'] };
  if (typeof v.rejudge === 'string') {
    if (typeof v.logs !== 'string') throw usage('--rejudge needs --logs FILE: the log lines the run wrote');
    return { ...base, rejudge: v.rejudge, logs: v.logs, ...(typeof v.out === 'string' ? { out: v.out } : {}) };
  }
  const links = listValue(v.links);
  return {
    ...base,
    browsers: oneOf(listValue(v.browsers), NAV_BROWSERS, 'browsers') ?? base.browsers,
    links: links !== undefined ? parseOverheadLinks(links) : base.links,
    caches: oneOf(listValue(v.cache), NAV_CACHES, 'cache') ?? base.caches,
    steps: intValue(v.steps, 'steps', base.steps, 2, 200, usage),
    seed: intValue(v.seed, 'seed', 1, 0, 2 ** 31, usage),
    walks: intValue(v.walks, 'walks', 1, 1, 20, usage),
    hoverMs: intValue(v['hover-ms'], 'hover-ms', 300, 0, 5000, usage),
    prerender: v.prerender === true,
    rules: v.rules === true,
    ...(typeof v.out === 'string' ? { out: v.out } : {}),
    ...(typeof v.logs === 'string' ? { logs: v.logs } : {}),
    ...(typeof v.trace === 'string' ? { trace: v.trace } : {}),
    ...(typeof v.only === 'string' ? { only: oneOf(listValue(v.only), NAV_CONTENDERS, 'only') } : {}),
  };
}
