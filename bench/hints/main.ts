/**
 * `node dist/bench/hints.js [--runs N] [--links a,b] [--pages a,b] [--browsers chromium,firefox]
 * [--hints-off] [--detailed] [--queue-bdp X] [--dwell MS] [--out FILE]` — learned hints in the user's own browser: each browser alone vs with the built
 * getlist extension, on the packet-level link (as root, in network namespaces), HTTPS/HTTP2 from
 * nginx origins sending `Cache-Control: no-store` (real-news: its http/1.1 first party). Each run:
 * two warm-up visits in one profile (the extension learns its list; the browser's own predictor
 * learns too), a browser restart, the measured visit; a run is a pair, back to back, the order
 * alternating by run. Prints page complete, FCP and LCP as medians with the ratio and the range of
 * the paired ratios, the path verdict that cut the hint list, and the origins' request counts
 * (extra or duplicate requests must be 0); writes bench/results/hints-latest.json. Chromium's times
 * are CDP's, Firefox's its own Resource and Paint Timing (its driver runs inside the namespace).
 * `node dist/bench/hints.js --table a.json,b.json [--out merged.json]` prints one table of cells run
 * separately (each run under the shared benchmark lock). `--hints-off` adds each browser with the extension and its hints switched off: the extension's own
 * cost, so what the hints cost is told apart from it. Each browser also loads each page's two bound
 * variants (bench/corpus/ideal-hints.ts) after the same warm-up, alone: `+ideal`, whose head carries
 * every late resource's preload and every origin's preconnect, and `+all`, which preloads every
 * subresource with `fetchpriority=high` (requests the browser finds early but holds, too). The goal
 * (complete ≤ 0.80 × alone, FCP no worse) counts as reachable by hinting where getlist's load or
 * either bound meets it (bench/hints/hints-table.ts); `--no-ideal` leaves both variants out.
 * `--detailed` loads a build holding Detailed capture's permissions from
 * install (webRequest, DNR: hints as a `Link` header, records from webRequest) instead of the shipped
 * lean one (Resource Timing records, hints as `<link>` elements): the two learn from different records.
 * `--queue-bdp X` sizes the link's drop-tail queue to X bandwidth-delay products per direction
 * (`queueBytesOf`; default: the link's own, max(64 KiB, 1 BDP)); its cells' link reads `… q=X×BDP`.
 * `--dwell MS` closes each warm-up visit's tab MS after `load` (Chromium), as a user who moves on
 * does: two warm-up visits whatever the extension learned of them, its cells' link reads `… dwell=MS`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { getBenchPage } from '../corpus/bench-corpus';
import { buildVariant } from '../overhead/overhead-variants';
import { ALL_SUFFIX, IDEAL_SUFFIX } from '../corpus/ideal-hints';
import { hintsFor } from '../../src/page/hints/hint-list';
import { CHROMIUM_HINT_LIMITS, FIREFOX_HINT_LIMITS } from '../../src/page/hints/hint-types';
import { learnedStateFromJson } from '../../src/page/hints/learned-state-json';
import { pageKey } from '../../src/page/hints/site-template';
import { hintsOverhead } from './hints-overhead';
import { firefoxSession, killFirefoxDriversSync } from './firefox-session';
import { hintsSession, killHintBrowsersSync, type HintsContender, type HintsRun } from './hints-session';
import { hostResolverRules } from '../link/host-resolution';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { netnsSpawn, startOrigins } from '../origins/start-origins';
import { linkPreset } from '../run/link-presets';
import type { LinkParams } from '../run/results-schema';
import { pageInfo } from '../run/page-info';
import { queueBytesOf } from './queue-size';
import { parseHintsArgs, type HintsBrowser } from './hints-args';
import { bounds, lcpName, pair, table, type Cell } from './hints-table';
import { readJsonFile } from '../cli/results-file';
import { runMain, stopOnSignals } from '../cli/run-main';
import { BenchRunError } from '../cli/bench-run-error';

/** The two link shapes the hints goal is judged on: McManus' 100 ms / 20 Mbit/s, and 40 ms / 5 Mbit/s. */
const LINKS: Readonly<Record<string, LinkParams>> = {
  'mcmanus-100': linkPreset('mcmanus-100'),
  'hints-40-5': { rttMs: 40, downBitsPerSec: 5_000_000, upBitsPerSec: 5_000_000, loss: 0 },
};
/**
 * Pages with late discoveries (CSS fonts and backgrounds, `@import`s, script-inserted images): the
 * almanac's median page, McManus' page, and the real-shaped pages (bench/corpus/page-real.ts,
 * each loaded over its own document scheme); then one without.
 */
const LATE_PAGES = ['almanac-median', 'mcmanus-159', 'real-news', 'real-shop', 'real-small', 'real-late'];
const PLAIN_PAGES = ['pm95-2544-10'];

/** Whether the bench corpus builds a page of this name. */
function isPage(name: string): boolean {
  try {
    getBenchPage(name);
    return true;
  } catch {
    return false;
  }
}
/**
 * The contenders of one run, in the order of an even run: each browser also loads the page's `+ideal`
 * and `+all` variants (the bounds; `--no-ideal` leaves them out) and, with `--hints-off`, the
 * extension with its hints switched off.
 */
const contendersOf = (b: HintsBrowser, o: { hintsOff: boolean; ideal: boolean }): HintsContender[] => [
  ...pair(b),
  ...(o.ideal ? bounds(b) : []),
  ...(o.hintsOff ? [`${b}+getlist-off` as const] : []),
];

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}


async function runLink(name: string, pages: readonly string[], browsers: readonly HintsBrowser[], extras: { hintsOff: boolean; ideal: boolean; detailed: boolean; queueBdp?: number; dwellMs?: number }, runs: number, extensionDir: string, progress: (s: string) => void): Promise<Cell[]> {
  const params = LINKS[name] as LinkParams;
  const origins = [...new Set(pages.flatMap((p) => getBenchPage(p).origins))];
  const queueBytes = queueBytesOf(params, extras.queueBdp);
  const link = await startLink({ ...params, hosts: origins.length, seed: 1, ...(queueBytes !== undefined ? { queueBytes } : {}) });
  // A cell on a queue other than the link's default is named for it.
  const cellLink = `${queueBytes !== undefined ? `${name} q=${extras.queueBdp}×BDP` : name}${extras.dwellMs !== undefined ? ` dwell=${extras.dwellMs}` : ''}`;
  const cells: Cell[] = [];
  let served: Awaited<ReturnType<typeof startOrigins>> | undefined;
  try {
    const hostMap = Object.fromEntries(origins.map((n, i) => [n, link.serverAddrs[i] ?? '']));
    // Chromium is given the names by flag; Firefox reads the namespace's hosts file.
    link.setClientHosts(hostMap);
    served = await startOrigins({ bindings: origins.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })), pages: [...pages, ...pages.flatMap((p) => [`${p}${IDEAL_SUFFIX}`, `${p}${ALL_SUFFIX}`])], linkHosts: 'name', spawn: netnsSpawn(link.serverNs) });
    const droppedPackets = async () => {
      const { up, down } = await link.stats();
      return up.droppedLoss + up.droppedQueue + down.droppedLoss + down.droppedQueue;
    };
    for (const page of pages) {
      const scheme = getBenchPage(page).documentScheme ?? 'https';
      const url = served.pageUrl(page, scheme);
      const variant = { ideal: served.pageUrl(`${page}${IDEAL_SUFFIX}`, scheme), all: served.pageUrl(`${page}${ALL_SUFFIX}`, scheme) };
      const urls: Partial<Record<HintsContender, string>> = Object.fromEntries(browsers.flatMap((b) => bounds(b).map((c, i) => [c, i === 0 ? variant.ideal : variant.all])));
      const lateResources = new Set(getBenchPage(page).resources.filter((r) => r.discoveredBy !== 'html').map((r) => `${r.origin}${r.path}`));
      const byBrowser = new Map(browsers.map((browser) => [browser, { link: cellLink, page, browser, late: LATE_PAGES.includes(page), runs: Object.fromEntries(contendersOf(browser, extras).map((c) => [c, []])), errors: [] } as Cell]));
      cells.push(...byBrowser.values());
      const loadAtStart = loadavg()[0] ?? NaN;
      for (let run = 0; run < runs; run++) {
        for (const [browser, cell] of byBrowser) {
          const order = run % 2 === 0 ? contendersOf(browser, extras) : contendersOf(browser, extras).reverse();
          const done = new Map<HintsContender, HintsRun>();
          for (const contender of order) {
            try {
              const session = browser === 'firefox' ? firefoxSession : hintsSession;
              const r = await session({ clientNs: link.clientNs, url: urls[contender] ?? url, hostResolverRules: hostResolverRules(hostMap), spkiHashes: [served.spkiHash, served.caSpkiHash], extensionDir, contender, expectedRequests: pageInfo(getBenchPage(page)).requests, timeoutMs: 120_000, origins: served, lateResources, droppedPackets, ...(extras.dwellMs !== undefined ? { dwellMs: extras.dwellMs } : {}) });
              if (r.learned !== undefined) {
                if (cell.overhead === undefined) cell.overhead = hintsOverhead(r.learned, url);
                // The path verdict the measured load's list was cut by (src/page/hints/path-sample.ts).
                const state = learnedStateFromJson(r.learned);
                // The limits the extension uses in this browser (extension/background/index.ts).
                const list = hintsFor(state.entries, url, browser === 'firefox' ? FIREFOX_HINT_LIMITS : CHROMIUM_HINT_LIMITS);
                const visits = state.entries.get(pageKey(url) ?? '')?.visits ?? [];
                r.samples = visits.map((v) => v.path ?? null);
                r.paints = visits.map((v) => [v.documentMs ?? null, v.paintMs ?? null]);
                r.learnedResources = visits.map((v) => v.resources.map((x) => `${x.late ? 'late' : 'early'} ${x.as} ${x.size} ${x.url}`));
                if (list.path) r.path = list.path;
                r.preloads = list.preloads.map((p) => `${p.as} ${p.href}`);
                r.preconnects = list.preconnects.map((p) => `${p.href}${p.crossorigin ? ` ${p.crossorigin}` : ''}`);
                // The detailed build's hints are its DNR `Link` header, not elements: the list it is built from.
                if (extras.detailed) r.hints = list.preconnects.length + list.preloads.length;
              }
              delete r.learned;
              done.set(contender, r);
              progress(`${cellLink} ${page} run ${run + 1}/${runs} ${contender}: ${Math.round(r.completeMs)} ms, fcp ${Math.round(r.fcpMs ?? NaN)}, lcp ${Math.round(r.lcpMs ?? NaN)}${r.lcpElement ? ` (${lcpName(r.lcpElement)})` : ''}, ${r.serverRequests} requests${r.hints !== undefined ? `, ${r.hints} hints` : ''}${r.learnedWarmUps !== undefined ? `, ${r.learnedWarmUps}/2 visits learned` : ''}${r.path ? `, path ${r.path.criticalRtts} RTTs${r.path.bandwidthBound ? ' (bandwidth-bound)' : ''}` : ''}${r.preloads ? `, preloads [${r.preloads.map((p) => p.replace(/^(\w+) .*\//, '$1 ')).join(', ')}]` : ''}${r.droppedPackets !== undefined ? `, ${r.droppedPackets} dropped` : ''}${r.duplicates.length ? `, DUPLICATES ${r.duplicates.join(' ')}` : ''}`);
            } catch (err) {
              cell.errors.push(`${contender} run ${run + 1}: ${(err as Error).message}`);
              progress(`${cellLink} ${page} run ${run + 1} ${contender}: ERROR ${(err as Error).message.slice(0, 200)}`);
            }
          }
          // Only whole sets are kept: the spread is of paired ratios.
          if (done.size === order.length) for (const [contender, r] of done) cell.runs[contender]?.push(r);
        }
      }
      for (const cell of byBrowser.values()) cell.load = [round2(loadAtStart), round2(loadavg()[0] ?? NaN)];
    }
  } finally {
    await served?.stop().catch(() => undefined);
    await link.close().catch(() => undefined);
  }
  return cells;
}


/** `--table a.json,b.json [--out merged.json]`: one table of cells measured by separate (locked) runs. */
function mergeTables(files: readonly string[], out: string | undefined): number {
  const commands: string[] = [];
  const cells: Cell[] = [];
  for (const f of files) {
    const r = readJsonFile(f, (m) => new BenchRunError('E_BENCH_USAGE', `--table: ${m}`)) as { command?: string; cells?: Cell[] };
    if (r.command) commands.push(r.command);
    // Results of the Chromium-only bench had no browser field.
    for (const c of r.cells ?? []) cells.push({ ...c, browser: c.browser ?? 'chromium' });
  }
  if (out) writeFileSync(out, `${JSON.stringify({ commands, links: LINKS, cells }, null, 2)}\n`);
  process.stdout.write(`${table(cells)}\n${out ? `wrote ${out}\n` : ''}`);
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseHintsArgs(argv, { links: Object.keys(LINKS), defaultPages: [...LATE_PAGES, ...PLAIN_PAGES], isPage });
  if (args.help !== undefined) {
    process.stdout.write(`${args.help}\n`);
    return 0;
  }
  if (args.tables) return mergeTables(args.tables, args.out);
  await ensureLinkPrivileges();
  const root = resolve(__dirname, '..', '..');
  const { runs, links, pages, browsers } = args;
  const extras = { hintsOff: args.hintsOff, ideal: args.ideal, detailed: args.detailed, ...(args.queueBdp !== undefined ? { queueBdp: args.queueBdp } : {}), ...(args.dwellMs !== undefined ? { dwellMs: args.dwellMs } : {}) };
  const out = args.out ?? join(root, 'bench', 'results', 'hints-latest.json');
  const progress = (s: string) => process.stderr.write(`[hints] ${s}\n`);
  const cells: Cell[] = [];
  const build = extras.detailed ? buildVariant({ name: 'detailed', off: [], detailed: true }) : { dir: join(root, 'dist', 'extension'), remove: () => undefined };
  try {
    for (const l of links) {
      cells.push(...(await runLink(l, pages, browsers, extras, runs, build.dir, progress)));
      writeFileSync(out, `${JSON.stringify({ command: ['node', 'dist/bench/hints.js', ...argv].join(' '), links: LINKS, cells }, null, 2)}\n`);
    }
  } finally {
    build.remove();
  }
  process.stdout.write(`${table(cells)}\nwrote ${out}\n`);
  return cells.some((c) => c.errors.length > 0) ? 1 : 0;
}

stopOnSignals('hints', 'stopping; finished links are in the results file', () => {
  killHintBrowsersSync();
  killFirefoxDriversSync();
});
runMain('hints', () => main(process.argv.slice(2)));
