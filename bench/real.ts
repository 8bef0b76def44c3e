/**
 * `node dist/bench/real.js [--rtts 40,100,200] [--caps none,10] [--pages …] [--runs N] [--out FILE]`
 * — the real-shaped benchmark (bench/real/real-bench.ts): real-shaped pages at each RTT with and
 * without a downlink cap, plus the P&M page (20 × 2,544 B) at 50 ms on plain HTTP/1.1; first
 * visit and revisit side by side. Prints the medians and ratios; writes every run to FILE as JSON.
 * Needs root or user namespaces, nginx and Chromium, like bench.js.
 */
import { CodedError } from '../src/errors/coded-error';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { helpText, parseCommandLine, type CommandSpec } from './cli/command-line';
import { ensureLinkPrivileges } from './link/rootless';
import { REAL_PAGE_NAMES } from './corpus/page-real';
import { realLinks, realTable, runRealLink, type RealCellResult, type RealContender } from './real/real-bench';

const COMMAND: CommandSpec = {
  usage: 'node dist/bench/real.js [options]',
  options: {
    rtts: { type: 'string', value: 'a,b,…', default: '40,100,200', help: 'round-trip times in ms' },
    caps: { type: 'string', value: 'a,b,…', default: 'none,10', help: 'downlink caps in Mbit/s; none = no cap' },
    pages: { type: 'string', value: 'a,b,…', default: REAL_PAGE_NAMES.join(','), help: 'real-shaped pages' },
    pm: { type: 'boolean', help: 'also the P&M page pm95-2544-20 at 50 ms, no cap, plain HTTP/1.1 (browser, getlist, revisit)' },
    'pm-only': { type: 'boolean', help: 'only the P&M cell' },
    runs: { type: 'string', value: 'N', default: '3', help: 'runs per contender and cell' },
    out: { type: 'string', value: 'FILE', default: 'bench/results/tmp/real-latest.json', help: 'every run, as JSON' },
  },
};

class UsageError extends CodedError<'E_BENCH_USAGE'> {
  constructor(message: string) {
    super('E_BENCH_USAGE', message);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const cl = parseCommandLine(argv, COMMAND, (m) => new UsageError(m));
  if (cl.help) {
    process.stdout.write(`${helpText(COMMAND)}\n`);
    return 0;
  }
  const list = (k: string, d: string) => String(cl.values[k] ?? d).split(',').map((s) => s.trim()).filter(Boolean);
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
  const contenders: RealContender[] = ['browser', 'getlist', 'getlist-revisit', 'h2', 'chromium'];
  if (cl.values.pm || cl.values['pm-only']) {
    all.push(...(await runRealLink({ name: 'pm-50', rttMs: 50, capBitsPerSec: undefined }, [{ page: 'pm95-2544-20', contenders: ['browser', 'getlist', 'getlist-revisit'] }], runs, cliPath, 60_000, progress)));
    save();
  }
  if (!cl.values['pm-only']) {
    for (const link of realLinks(rtts, caps)) {
      all.push(...(await runRealLink(link, pages.map((page) => ({ page, contenders })), runs, cliPath, 120_000, progress)));
      save();
    }
  }
  process.stdout.write(`${realTable(all)}\n`);
  return 0;
}

main(process.argv.slice(2)).then((c) => process.exit(c), (err: unknown) => {
  const e = err as { code?: string; message?: string };
  process.stderr.write(`real.js: ${e.code ?? 'ERROR'}: ${e.message ?? String(err)}\n`);
  process.exit(e.code === 'E_BENCH_USAGE' ? 2 : 1);
});
