/** The command line of `zoo-first-response.js` (first-response-main.ts). */
import { type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { getBenchPage } from '../corpus/bench-corpus';
import { REAL_PAGE_NAMES } from '../corpus/page-real';
import { isZooMember, ZOO_INFO, type ZooMember } from '../origins/zoo/zoo-members';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/zoo-first-response.js [options]',
  options: {
    servers: { type: 'string', value: 'a,b,…', default: 'nginx,apache', help: 'zoo members that terminate TLS, in the order run' },
    page: { type: 'string', value: 'P', default: 'real-late', help: 'the real-shaped page served over https whose resources curl fetches' },
    paths: { type: 'string', value: 'a,b,…', default: 'index.html,img/p1.gif,img/p0.gif', help: "resources to fetch, relative to the page's document (real-late's: its 10 kB document, a 4 kB and a 20 kB image)" },
    fetches: { type: 'string', value: 'N', default: '5', help: 'fetches per member, each on a new connection' },
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
  const servers = String(cl.values.servers ?? 'nginx,apache').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = servers.filter((s) => !isZooMember(s) || !ZOO_INFO[s].tls);
  if (bad.length > 0 || servers.length === 0) throw benchUsage(`--servers: not a zoo member that terminates TLS: ${bad.join(', ') || '(none given)'}`);
  const page = String(cl.values.page ?? 'real-late');
  if (!(REAL_PAGE_NAMES as readonly string[]).includes(page) || getBenchPage(page).documentScheme !== 'https') throw benchUsage(`--page: expected a real-shaped page served over https, got ${page}`);
  const fetches = Number(cl.values.fetches ?? 5);
  if (!Number.isInteger(fetches) || fetches < 1) throw benchUsage(`--fetches must be an integer ≥ 1, got ${String(cl.values.fetches)}`);
  const paths = String(cl.values.paths ?? 'index.html,img/p1.gif,img/p0.gif').split(',').map((s) => s.trim()).filter(Boolean);
  if (paths.length === 0) throw benchUsage('--paths: expected one or more resources of the page, relative to its document');
  return { servers: servers as ZooMember[], page, paths, fetches };
}
