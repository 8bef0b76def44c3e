/** The hints benchmark's command line (bench/hints/main.ts), checked in full before a browser or link starts. */
import { helpText, intValue, listValue, parseCommandLine, type CommandSpec } from '../cli/command-line';
import { BenchRunError } from '../cli/bench-run-error';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const HINTS_BROWSERS = ['chromium', 'firefox'] as const;
export type HintsBrowser = (typeof HINTS_BROWSERS)[number];

export const HINTS_COMMAND: CommandSpec = {
  usage: 'node dist/bench/hints.js [--runs N] [--links a,b] [--pages a,b] [--browsers chromium,firefox] [--hints-off] [--no-ideal] [--detailed] [--queue-bdp X] [--dwell MS] [--out FILE] | --table a.json,b.json [--out merged.json]',
  options: {
    runs: { type: 'string', value: 'N', default: '5', help: 'measured pairs per page, link and browser (each after two warm-up visits and a browser restart)' },
    links: { type: 'string', value: 'a,b', help: 'packet-level link presets to run, one after the other (default: every preset)' },
    pages: { type: 'string', value: 'a,b', help: 'bench corpus pages to load (default: the late-discovery pages and the plain one)' },
    browsers: { type: 'string', value: 'b,…', default: 'chromium', help: 'chromium, firefox (Firefox ESR, driven inside the client namespace)' },
    'hints-off': { type: 'boolean', help: 'add each browser with the extension and its hints switched off (the extension\'s own cost)' },
    'no-ideal': { type: 'boolean', help: 'leave out the page\'s bound variants: +ideal (every late resource preloaded, every origin preconnected) and +all (every subresource preloaded, fetchpriority=high)' },
    detailed: { type: 'boolean', help: 'load a build holding Detailed capture\'s permissions (hints as a Link header) instead of the shipped lean one' },
    'queue-bdp': { type: 'string', value: 'X', help: 'size the link\'s drop-tail queue to X bandwidth-delay products per direction (default: the link\'s own)' },
    dwell: { type: 'string', value: 'MS', help: 'close each warm-up visit\'s tab MS after load (Chromium), as a user who moves on: two visits, learned or not' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/hints-latest.json', help: 'where the cells are written as JSON' },
    table: { type: 'string', value: 'a.json,b.json', help: 'print one table of cells measured by separate runs (each under the benchmark lock), and nothing else' },
  },
  notes: [
    'Needs root (network namespaces) and `npm run build`. Goal: page complete ≤ 0.80 × the browser alone on pages with late discoveries, first paint no worse, 0 extra and 0 duplicate requests.',
  ],
};

export interface HintsArgs {
  help?: string;
  /** `--table`: the result files to merge and print. */
  tables?: string[];
  out?: string;
  runs: number;
  links: string[];
  pages: string[];
  browsers: HintsBrowser[];
  hintsOff: boolean;
  ideal: boolean;
  detailed: boolean;
  queueBdp?: number;
  dwellMs?: number;
}

export interface HintsArgsKnown {
  links: readonly string[];
  /** The pages loaded when `--pages` is not given. */
  defaultPages: readonly string[];
  /** Whether the bench corpus has a page of this name. */
  isPage(name: string): boolean;
}

/** Throws E_BENCH_USAGE naming what was wrong (an unknown option, link, page or browser; a bad number). */
export function parseHintsArgs(argv: readonly string[], known: HintsArgsKnown): HintsArgs {
  const { values: v, help } = parseCommandLine([...argv], HINTS_COMMAND, usage);
  const base = { runs: 5, links: [...known.links], pages: [...known.defaultPages], browsers: ['chromium'] as HintsBrowser[], hintsOff: false, ideal: true, detailed: false };
  if (help) return { ...base, help: helpText(HINTS_COMMAND) };
  const out = typeof v.out === 'string' ? { out: v.out } : {};
  const tables = listValue(v.table);
  if (tables !== undefined) {
    const measuring = Object.keys(v).filter((k) => v[k] !== undefined && k !== 'table' && k !== 'out');
    if (measuring.length > 0) throw usage(`--table prints results already measured; ${measuring.map((k) => `--${k}`).join(', ')} would be ignored (try --help)`);
    return { ...base, tables, ...out };
  }
  const links = listValue(v.links) ?? base.links;
  for (const l of links) if (!known.links.includes(l)) throw usage(`--links: unknown link "${l}"; expected ${known.links.join(', ')}`);
  const pages = listValue(v.pages) ?? base.pages;
  for (const p of pages) if (!known.isPage(p)) throw usage(`--pages: no bench page "${p}" (the late-discovery pages: ${known.defaultPages.join(', ')})`);
  const browsers = listValue(v.browsers) ?? base.browsers;
  for (const b of browsers) if (!(HINTS_BROWSERS as readonly string[]).includes(b)) throw usage(`--browsers: unknown "${b}"; expected ${HINTS_BROWSERS.join(' or ')} (comma-separated)`);
  let queueBdp: number | undefined;
  if (typeof v['queue-bdp'] === 'string') {
    queueBdp = Number(v['queue-bdp']);
    if (!(queueBdp > 0) || !Number.isFinite(queueBdp)) throw usage(`--queue-bdp must be a positive number, got ${JSON.stringify(v['queue-bdp'])}`);
  }
  const dwell = v.dwell === undefined ? {} : { dwellMs: intValue(v.dwell, 'dwell', 1000, 0, 60_000, usage) };
  return {
    ...dwell,
    runs: intValue(v.runs, 'runs', 5, 1, 100, usage),
    links,
    pages,
    browsers: browsers as HintsBrowser[],
    hintsOff: v['hints-off'] === true,
    ideal: v['no-ideal'] !== true,
    detailed: v.detailed === true,
    ...(queueBdp !== undefined ? { queueBdp } : {}),
    ...out,
  };
}
