/** The command line of `zoo-first-response.js` (first-response-main.ts). */
import { type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { getBenchPage } from '../corpus/bench-corpus';
import { REAL_PAGE_NAMES } from '../corpus/page-real';
import type { ZooMember } from '../origins/zoo/zoo-members';
import { tlsMembers } from './zoo-link';

/** Each option's default, as the help shows it and as a missing option reads. */
const DEFAULTS = { servers: 'nginx,apache', page: 'real-late', paths: 'index.html,img/p1.gif,img/p0.gif', fetches: '5' };

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/zoo-first-response.js [options]',
  options: {
    servers: { type: 'string', value: 'a,b,…', default: DEFAULTS.servers, help: 'zoo members that terminate TLS, in the order run' },
    page: { type: 'string', value: 'P', default: DEFAULTS.page, help: 'the real-shaped page served over https whose resources curl fetches' },
    paths: { type: 'string', value: 'a,b,…', default: DEFAULTS.paths, help: "resources to fetch, relative to the page's document (real-late's: its 10 kB document, a 4 kB and a 20 kB image)" },
    fetches: { type: 'string', value: 'N', default: DEFAULTS.fetches, help: 'fetches per member and resource, each on a new connection' },
  },
};

export interface FirstResponseArgs {
  servers: ZooMember[];
  page: string;
  paths: string[];
  fetches: number;
}

/** The parsed command line, or undefined after `--help` was printed. Throws `E_BENCH_USAGE` on a bad one. */
export function parseFirstResponseArgs(argv: readonly string[]): FirstResponseArgs | undefined {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return undefined;
  const value = (k: keyof typeof DEFAULTS): string => String(cl.values[k] ?? DEFAULTS[k]);
  const servers = tlsMembers(value('servers'));
  const page = value('page');
  if (!(REAL_PAGE_NAMES as readonly string[]).includes(page) || getBenchPage(page).documentScheme !== 'https') throw benchUsage(`--page: expected a real-shaped page served over https, got ${page}`);
  const fetches = Number(value('fetches'));
  if (!Number.isInteger(fetches) || fetches < 1) throw benchUsage(`--fetches must be an integer ≥ 1, got ${value('fetches')}`);
  const paths = value('paths').split(',').map((s) => s.trim()).filter(Boolean);
  if (paths.length === 0) throw benchUsage('--paths: expected one or more resources of the page, relative to its document');
  return { servers, page, paths, fetches };
}
