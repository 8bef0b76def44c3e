/**
 * `node dist/bench/real.js [--rtts 40,100,200] [--caps none,10] [--pages …] [--runs N] [--out FILE]
 * [--contenders …] [--timeline] [--queue] [--report FILE,…]`
 * — the real-shaped benchmark (bench/real/real-bench.ts): real-shaped pages at each RTT with and
 * without a downlink cap, plus the P&M page (20 × 2,544 B) at 50 ms on plain HTTP/1.1; first
 * visit and revisit side by side. Prints the lower bounds, the medians and ratios (and with
 * `--timeline` every request's timeline beside the bound's, with `--queue` how late each run's first
 * bytes came beyond a round trip); writes every run to FILE as JSON.
 * Needs root or user namespaces, nginx and Chromium, like bench.js.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CommandSpec } from '../cli/command-line';
import { benchCommandLine, benchUsage } from '../cli/bench-command-line';
import { ensureLinkPrivileges } from '../link/rootless';
import { REAL_PAGE_NAMES } from '../corpus/page-real';
import { REAL_CONTENDERS, REAL_OPTIONAL_CONTENDERS, realOptionalLines, realLinks, realServerLines, realTable, runRealLink, type RealCellResult, type RealContender } from './real-bench';
import { realTimeline } from './real-timeline';
import { poolRealCells } from './real-pool';
import { realQueueLines } from './real-queue';
import { readJsonFile } from '../cli/results-file';
import { runMain } from '../cli/run-main';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/real.js [options]',
  options: {
    rtts: { type: 'string', value: 'a,b,…', default: '40,100,200', help: 'round-trip times in ms' },
    caps: { type: 'string', value: 'a,b,…', default: 'none,10', help: 'downlink caps in Mbit/s; none = no cap' },
    pages: { type: 'string', value: 'a,b,…', default: REAL_PAGE_NAMES.join(','), help: 'real-shaped pages' },
    pm: { type: 'boolean', help: 'also the P&M page pm95-2544-20 at 50 ms, no cap, plain HTTP/1.1 (browser, getlist, revisit)' },
    'pm-only': { type: 'boolean', help: 'only the P&M cell' },
    runs: { type: 'string', value: 'N', default: '3', help: 'runs per contender and cell' },
    contenders: { type: 'string', value: 'a,b,…', default: REAL_CONTENDERS.join(','), help: `contenders of the real-shaped cells; also ${REAL_OPTIONAL_CONTENDERS.join(', ')}` },
    timeline: { type: 'boolean', help: 'also print every request\'s timeline (median run per contender) beside the lower bound\'s' },
    queue: { type: 'boolean', help: 'also print how late each run\'s first bytes came beyond a round trip: the queue that says the link limited it' },
    report: { type: 'string', value: 'FILE,…', help: 'run nothing: print the table (and --timeline) of an earlier run\'s JSON; several, comma-separated, pool the loads of each link and page' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/tmp/real-latest.json', help: 'every run, as JSON' },
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const cl = benchCommandLine(argv, COMMAND);
  if (!cl) return 0;
  const list = (k: string, d: string) => String(cl.values[k] ?? d).split(',').map((s) => s.trim()).filter(Boolean);
  const contenders = list('contenders', REAL_CONTENDERS.join(','));
  const known: readonly string[] = [...REAL_CONTENDERS, ...REAL_OPTIONAL_CONTENDERS];
  const bad = contenders.filter((c) => !known.includes(c));
  if (bad.length > 0) throw benchUsage(`--contenders: unknown ${bad.join(', ')}; expected some of ${known.join(', ')}`);
  const print = (cells: readonly RealCellResult[]): void => {
    process.stdout.write(`${realTable(cells)}\n`);
    const server = realServerLines(cells);
    if (server !== '') process.stdout.write(`\n${server}\n`);
    const optional = realOptionalLines(cells);
    if (optional !== '') process.stdout.write(`\n${optional}\n`);
    if (cl.values.timeline) for (const c of cells) process.stdout.write(`\n${realTimeline(c, Object.keys(c.runs))}\n`);
    if (cl.values.queue) process.stdout.write(`\n${realQueueLines(cells, contenders)}\n`);
  };
  if (cl.values.report !== undefined) {
    const files = String(cl.values.report).split(',').map((f) => f.trim()).filter(Boolean);
    print(poolRealCells(files.map((f) => (readJsonFile(f, (m) => benchUsage(`--report: ${m}`)) as { cells: RealCellResult[] }).cells)));
    return 0;
  }
  const rtts = list('rtts', '40,100,200').map(Number);
  const caps = list('caps', 'none,10').map((c) => (c === 'none' ? undefined : Number(c) * 1e6));
  const pages = list('pages', REAL_PAGE_NAMES.join(','));
  const runs = Number(cl.values.runs ?? 3);
  const out = String(cl.values.out ?? 'bench/results/tmp/real-latest.json');
  await ensureLinkPrivileges();
  const cliPath = join(resolve(__dirname, '..', '..'), 'bin', 'getlist.js');
  const progress = (l: string) => process.stderr.write(`${l}\n`);
  const all: RealCellResult[] = [];
  const save = () => writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), argv, cells: all }, null, 1)}\n`);
  if (cl.values.pm || cl.values['pm-only']) {
    all.push(...(await runRealLink({ name: 'pm-50', rttMs: 50, capBitsPerSec: undefined }, [{ page: 'pm95-2544-20', contenders: ['browser', 'getlist', 'getlist-revisit'] }], runs, cliPath, 60_000, progress)));
    save();
  }
  if (!cl.values['pm-only']) {
    for (const link of realLinks(rtts, caps)) {
      all.push(...(await runRealLink(link, pages.map((page) => ({ page, contenders: contenders as RealContender[] })), runs, cliPath, 120_000, progress)));
      save();
    }
  }
  print(all);
  return 0;
}

runMain('real', () => main(process.argv.slice(2)));
