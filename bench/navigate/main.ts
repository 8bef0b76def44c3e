/**
 * `node dist/bench/navigate.js` — the next page before the click, in real browsers: a scripted
 * user (user-path.ts) walks a multi-page https site on three nginx origins (nav-site.ts,
 * nav-nginx.ts) over the packet-level link (bench/link), hovering links for 300 ms before it clicks
 * one, in Chromium and Firefox ESR, the HTTP cache on and off, with the browser alone and with the
 * built extension, the two runs of a cell back to back on the same path (the order alternating
 * by cell). The servers' access logs judge what was fetched (nav-judge.ts); each view's own
 * timelines give navigation start → LCP, TTFB and how the document was delivered (view-metrics.ts).
 * Writes its results file (`--out`, default under bench/results/); `--report FILE` writes a results file's table into
 * bench/RESULTS.md.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostResolverRules } from '../link/host-resolution';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { netnsSpawn } from '../origins/nginx-process';
import { NO_CAP_BITS_PER_SEC } from '../real/real-bounds';
import { replaceSection } from '../cli/markdown-section';
import { readJsonFile } from '../cli/results-file';
import { BenchRunError } from '../cli/bench-run-error';
import { runMain, stopOnSignals } from '../cli/run-main';
import type { OverheadLinkSpec } from '../overhead/overhead-link-spec';
import { parseNavArgs, type NavArgs } from './nav-args';
import { judge, runEntries, summariesOf, type NavCell, type NavRun } from './nav-cell';
import { stepOf } from './nav-judge';
import { readRunLogs } from './nav-log';
import type { NavContender } from './nav-contenders';
import { startNavServers } from './nav-nginx';
import { NAV_ORIGINS, navSiteFiles } from './nav-site';
import { navTable } from './nav-table';
import { NAV_SECTION, navSectionBody, type NavResultsFile } from './nav-section';
import { traceSummary } from './trace-summary';
import { userPath } from './user-path';
import { killWalkersSync, walkSession, type NavBrowser } from './walk-session';

const ROOT = resolve(__dirname, '..', '..');

/** The cell's contenders in the order of an odd cell: the bench's own speculation rules and the prerender setting are Chromium's. */
function contendersOf(browser: NavBrowser, args: NavArgs): NavContender[] {
  const all: NavContender[] = ['alone', 'getlist', ...(args.only?.includes('getlist-no-hints') ? ['getlist-no-hints' as const] : []), ...(browser === 'chromium' && args.prerender ? (['getlist-prerender', 'getlist-prerender-eager'] as const) : []), ...(browser === 'chromium' && args.rules ? ['rules' as const] : [])];
  return all.filter((c) => args.only === undefined || args.only.includes(c));
}

async function runLink(link: OverheadLinkSpec, args: NavArgs, cells: NavCell[], flush: () => void, progress: (s: string) => void): Promise<void> {
  const origins = Object.values(NAV_ORIGINS);
  const rate = (bits: number) => (bits > 0 ? bits : NO_CAP_BITS_PER_SEC);
  const emulated = await startLink({ rttMs: link.params.rttMs, downBitsPerSec: rate(link.params.downBitsPerSec), upBitsPerSec: rate(link.params.upBitsPerSec), loss: 0, hosts: origins.length, seed: 1 });
  let servers: Awaited<ReturnType<typeof startNavServers>> | undefined;
  try {
    const hostMap = Object.fromEntries(origins.map((o, i) => [o, emulated.serverAddrs[i] ?? '']));
    // Chromium is given the names by flag; Firefox reads the namespace's hosts file.
    emulated.setClientHosts(hostMap);
    servers = await startNavServers(hostMap, navSiteFiles(), netnsSpawn(emulated.serverNs));
    const steps = userPath(args.seed, args.steps);
    for (const browser of args.browsers as NavBrowser[]) {
      for (const cache of args.caches) {
        const cell: NavCell = { browser, link: link.name, cache, runs: [] };
        cells.push(cell);
        const contenders = contendersOf(browser, args);
        for (let walk = 1; walk <= args.walks; walk++) {
          // Alternate which contender goes first, cell by cell and walk by walk.
          const order = (cells.length + walk) % 2 === 0 ? contenders : [...contenders].reverse();
          const walked = args.walks > 1 ? { walk } : {};
          for (const contender of order) {
            const startedAt = Date.now();
            const tag = `${link.name}, ${browser}, cache ${cache}, ${contender}${args.walks > 1 ? `, walk ${walk}/${args.walks}` : ''}`;
            const label = `${contender}-${cache}-${link.name.replace(/[^0-9A-Za-z]+/g, '-')}${args.walks > 1 ? `-walk${walk}` : ''}`;
            let run: Omit<NavRun, 'judgement'>;
            try {
              const result = await walkSession({
                browser, clientNs: emulated.clientNs, origin: `https://${NAV_ORIGINS.www}`, steps, hostResolverRules: hostResolverRules(hostMap),
                spkiHashes: servers.spkiHashes, contender, extensionDir: join(ROOT, 'dist', 'extension'),
                cacheOn: cache === 'on', hoverMs: args.hoverMs, timeoutMs: 60_000, settleMs: 1000, progress: (s) => progress(`${tag}: ${s}`),
                ...(args.trace !== undefined ? { trace: { dir: args.trace, label } } : {}),
              });
              run = { contender, startedAt, endedAt: Date.now(), steps: result, ...walked };
            } catch (err) {
              progress(`${tag}: ERROR ${(err as Error).message}`);
              run = { contender, startedAt, endedAt: Date.now(), steps: [], error: (err as Error).message, ...walked };
            }
            // Late log lines (a connection's last response) land within a second.
            await new Promise((r) => setTimeout(r, 1000));
            const log = servers.log();
            cell.runs.push(judge(log, run));
            if (args.logs !== undefined) {
              const lines = runEntries(log, run.startedAt, run.endedAt).map((e) => JSON.stringify({ browser, link: link.name, cache, contender, ...walked, step: stepOf(e, run.steps), ...e }));
              appendFileSync(args.logs, lines.map((l) => `${l}\n`).join(''));
            }
          }
        }
        cell.summaries = summariesOf(cell);
        flush();
      }
    }
  } finally {
    await servers?.stop().catch(() => undefined);
    await emulated.close().catch(() => undefined);
  }
}

/** `--report a.json,b.json`: the cells of one or more results files (a full run may be made in parts, each under the lock). */
function writeReport(files: readonly string[]): number {
  const results = files.map((file) => ({ ...(readJsonFile(file, (m) => new BenchRunError('E_BENCH_USAGE', `--report: ${m}`)) as Omit<NavResultsFile, 'file'>), file: file.replace(`${ROOT}/`, '') }));
  const md = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(md, replaceSection(readFileSync(md, 'utf8'), NAV_SECTION, navSectionBody(results), 'Figures'));
  process.stdout.write(`wrote ${md}\n`);
  return 0;
}

/**
 * `--rejudge FILE --logs LOGS`: each run's judgement and each cell's summaries again, from the log
 * lines the run wrote with `--logs` (the judge changed; the walks stand).
 */
function rejudge(file: string, logsFile: string, out: string): number {
  const results = readJsonFile(file, (m) => new BenchRunError('E_BENCH_USAGE', `--rejudge: ${m}`)) as Omit<NavResultsFile, 'file'>;
  const cells = results.cells ?? [];
  const logs = readRunLogs(logsFile, (m) => new BenchRunError('E_BENCH_USAGE', `--rejudge: ${m}`));
  for (const cell of cells) {
    cell.runs = cell.runs.map((run) => judge(logs.filter((l) => l.browser === cell.browser && l.link === cell.link && l.cache === cell.cache && l.contender === run.contender && (l.walk ?? 1) === (run.walk ?? 1)), run));
    cell.summaries = summariesOf(cell);
  }
  results.command = `${results.command ?? 'node dist/bench/navigate.js'}, judged again by node dist/bench/navigate.js --rejudge … --logs ${logsFile.replace(`${ROOT}/`, '')}`;
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${navTable(cells)}\nwrote ${out}\n`);
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseNavArgs(argv);
  if (args.help !== undefined) {
    process.stdout.write(`${args.help}\n`);
    return 0;
  }
  if (args.report !== undefined) return writeReport(args.report.split(',').filter(Boolean));
  if (args.rejudge !== undefined && args.logs !== undefined) return rejudge(args.rejudge, args.logs, args.out ?? args.rejudge);
  if (args.traceSummary !== undefined) {
    process.stdout.write(`${traceSummary(args.traceSummary)}\n`);
    return 0;
  }
  if (args.trace !== undefined) mkdirSync(args.trace, { recursive: true });
  await ensureLinkPrivileges();
  const out = args.out ?? join(ROOT, 'bench', 'results', 'navigate-latest.json');
  const progress = (s: string) => process.stderr.write(`[navigate] ${s}\n`);
  const cells: NavCell[] = [];
  const command = ['node', 'dist/bench/navigate.js', ...argv].join(' ');
  const date = new Date().toISOString();
  const flush = () => writeFileSync(out, `${JSON.stringify({ command, date, seed: args.seed, steps: userPath(args.seed, args.steps), cells }, null, 2)}\n`);
  for (const link of args.links) await runLink(link, args, cells, flush, progress);
  flush();
  process.stdout.write(`${navTable(cells)}\nwrote ${out}\n`);
  return cells.every((c) => c.runs.every((r) => r.error === undefined)) ? 0 : 1;
}

stopOnSignals('navigate', 'stopping; finished cells are in the results file', killWalkersSync);
runMain('navigate', () => main(process.argv.slice(2)));
