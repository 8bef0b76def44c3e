/**
 * `node dist/bench/zoo.js [--servers a,b,…] [--parts pm,mcmanus,real] [--pages a,b,…] [--runs N] [--out FILE] [--report FILE]`
 * — the server zoo on the packet-level link: for each member (bench/origins/zoo), the cells of
 * zoo-plan.ts with the member serving every origin in the server namespace, the contenders
 * interleaved as in real.js. Prints a table per member (zoo-table.ts) and writes every run to
 * FILE, which `report.js --zoo FILE` puts into RESULTS.md. Needs root or user namespaces, every
 * member's Debian package and Chromium.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { readJsonFile } from '../cli/results-file';
import { runMain } from '../cli/run-main';
import { ensureLinkPrivileges } from '../link/rootless';
import { startZoo } from '../origins/zoo/start-zoo';
import { isZooMember, ZOO_MEMBERS, type ZooMember } from '../origins/zoo/zoo-members';
import { runRealLink } from '../real/real-bench';
import { ZOO_MCMANUS_PAGE, ZOO_PARTS, ZOO_PM_PAGE, zooPlan } from './zoo-plan';
import { REAL_PAGE_NAMES } from '../corpus/page-real';
import { zooMarkdown, type ZooMemberResult } from './zoo-table';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/zoo.js [options]',
  options: {
    servers: { type: 'string', value: 'a,b,…', default: ZOO_MEMBERS.join(','), help: 'zoo members, in the order run' },
    parts: { type: 'string', value: 'a,b,…', default: ZOO_PARTS.join(','), help: 'pm (P&M at 50 ms), mcmanus (McManus-159 at 100 ms), real (real-shaped pages at 100 ms, TLS members only)' },
    pages: { type: 'string', value: 'a,b,…', help: 'only the cells of these pages (default: every page of the parts)' },
    runs: { type: 'string', value: 'N', default: '3', help: 'runs per contender and cell' },
    report: { type: 'string', value: 'FILE', help: 'run nothing: print the tables of an earlier run\'s JSON' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/tmp/zoo-latest.json', help: 'every run, as JSON' },
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return 0;
  const out = String(cl.values.out ?? 'bench/results/tmp/zoo-latest.json');
  if (cl.values.report !== undefined) {
    const file = String(cl.values.report);
    process.stdout.write(`${zooMarkdown((readJsonFile(file, (m) => benchUsage(`--report: ${m}`)) as { members: ZooMemberResult[] }).members, file)}\n`);
    return 0;
  }
  const list = (k: string, d: string) => String(cl.values[k] ?? d).split(',').map((s) => s.trim()).filter(Boolean);
  const servers = list('servers', ZOO_MEMBERS.join(','));
  const bad = servers.filter((s) => !isZooMember(s));
  if (bad.length > 0) throw benchUsage(`--servers: unknown ${bad.join(', ')}; expected some of ${ZOO_MEMBERS.join(', ')}`);
  const parts = list('parts', ZOO_PARTS.join(','));
  const badParts = parts.filter((p) => !(ZOO_PARTS as readonly string[]).includes(p));
  if (badParts.length > 0) throw benchUsage(`--parts: unknown ${badParts.join(', ')}; expected some of ${ZOO_PARTS.join(', ')}`);
  const pages = cl.values.pages === undefined ? undefined : list('pages', '');
  const known = [ZOO_PM_PAGE, ZOO_MCMANUS_PAGE, ...REAL_PAGE_NAMES];
  const badPages = (pages ?? []).filter((p) => !known.includes(p));
  if (badPages.length > 0 || pages?.length === 0) throw benchUsage(`--pages: unknown ${badPages.join(', ') || '(none given)'}; expected some of ${known.join(', ')}`);
  const runs = Number(cl.values.runs ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw benchUsage(`--runs must be an integer ≥ 1, got ${String(cl.values.runs)}`);
  await ensureLinkPrivileges();
  const cliPath = join(resolve(__dirname, '..', '..'), 'bin', 'getlist.js');
  const progress = (l: string) => process.stderr.write(`${l}\n`);
  const members: ZooMemberResult[] = [];
  const started = new Date().toISOString();
  const save = () => writeFileSync(out, `${JSON.stringify({ date: started, argv, runs, members }, null, 1)}\n`);
  for (const member of servers as ZooMember[]) {
    const result: ZooMemberResult = { member, cells: [] };
    members.push(result);
    try {
      for (const plan of zooPlan(member, parts, pages)) {
        progress(`${member}: ${plan.link.name}`);
        result.cells.push(...await runRealLink(plan.link, plan.cells, runs, cliPath, 60_000, (l) => progress(`${member} ${l}`), (o) => startZoo({ ...o, member })));
        save();
      }
    } catch (err) {
      result.error = String((err as Error).message).slice(0, 500);
      progress(`${member}: ${result.error}`);
    }
    save();
  }
  process.stdout.write(`${zooMarkdown(members, out)}\n`);
  return 0;
}

runMain('zoo', () => main(process.argv.slice(2)));
