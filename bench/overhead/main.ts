/**
 * `node dist/bench/overhead.js` — what the extension costs the pages it observes. Headless
 * Chromium with and without the built extension (its native host registered) loads pages of
 * 20 and 600 images from a loopback server, HTTP cache off, runs interleaved (plain, extension,
 * plain, …) so drift hits both alike. Prints the medians of load and DOMContentLoaded, their
 * ratios (goal: ≤ 1.03), and the main-thread script time the extension adds per page (CDP
 * `ScriptDuration`, extension minus plain: the content script's share, as the page has no script).
 *
 * `--variants lean,detailed,detailed:webrequest+headers,…` loads bench-only builds with those pieces
 * switched off (extension/platform/bench-pieces.ts) beside Chromium alone, each in its own
 * browser, all interleaved per run (the order rotates), to attribute the cost piece by piece.
 *
 * `--tabs fresh,warm` loads in a new tab per load and/or in each browser's one warm tab (interleaved
 * per run, each load its own URL); `--browser firefox` runs Firefox ESR (WebDriver BiDi) against
 * itself alone; `--variants sham` adds a second browser alone, the bench's own zero. Besides the
 * ratio of medians, each cell carries paired figures (run i against run i, side by side) and splits
 * DOMContentLoaded at the document's first byte (overhead-table.ts formatPairedTable).
 *
 * `--pool a.json,b.json` runs nothing: it pools the pairs of earlier `--json` outputs (overhead-pool.ts).
 *
 * `--link 40/none,100/20` runs the same over the packet-level link (bench/link, as bench/real and
 * bench/hints use it): Chromium and its native host in the client namespace, the site's server in
 * the server namespace, one link after the other. Each cell carries its load average at start
 * and end (a shared machine).
 */
import { loadavg } from 'node:os';
import { progress } from '../engine/stats';
import { ensureLinkPrivileges } from '../link/rootless';
import { BenchRunError } from '../cli/bench-run-error';
import { parseOverheadArgs, type OverheadArgs } from './overhead-args';
import { launchOverheadBrowser, type OverheadBrowser, type OverheadBrowserOptions, type OverheadLoad, type OverheadTab } from './overhead-browser';
import { launchOverheadFirefox } from './overhead-firefox';
import { serveSite, startLinkSite } from './overhead-link-site';
import type { OverheadLinkSpec } from './overhead-link-spec';
import { startOverheadSite, type OverheadSite } from './overhead-site';
import { formatCpuTable, formatPairedTable, formatTable, overheadCell, type OverheadCell } from './overhead-table';
import { buildVariant } from './overhead-variants';
import { formatPooledTable, poolFiles } from './overhead-pool';
import { runMain } from '../cli/run-main';

/** The page's Resource Timing buffer (both browsers' default): a 600-image page lists its first 250. */
const RESOURCE_TIMING_BUFFER = 250;

const load1 = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** Every size on one link (or loopback) in one browser kind, every browser interleaved per run, the order rotating. */
async function runOn(link: OverheadLinkSpec | undefined, kind: 'chromium' | 'firefox', args: OverheadArgs, builds: ReadonlyArray<{ dir: string }>): Promise<OverheadCell[]> {
  const where = link?.name ?? 'loopback';
  const site: OverheadSite & { clientNs?: string } = link !== undefined ? await startLinkSite(link.params) : await startOverheadSite();
  const browsers: OverheadBrowser[] = [];
  const cells: OverheadCell[] = [];
  const alone = kind === 'firefox' ? 'Firefox' : 'Chromium';
  try {
    const common = { settleMs: args.settleMs, ...(site.clientNs !== undefined ? { clientNs: site.clientNs } : {}) };
    const launch = (o: OverheadBrowserOptions) => (kind === 'firefox' ? launchOverheadFirefox(o) : launchOverheadBrowser(o));
    browsers.push(await launch({ withExtension: false, ...common }));
    for (const [k, variant] of args.variants.entries()) {
      // Firefox's extension system is always on: `none` would be a second Firefox alone, as `sham` is.
      if (kind === 'firefox' && variant.noExtension === true && variant.sham !== true) continue;
      const label = variant.sham === true ? `sham (a second ${alone} alone)` : variant.name;
      browsers.push(await launch(variant.sham === true
        ? { withExtension: false, label, ...common }
        : { withExtension: variant.noExtension !== true, extensionsEnabled: true, extensionDir: builds[k]?.dir, label, withHost: args.withHost, ...common }));
    }
    for (const size of args.sizes) {
      // Each run's own URL (per tab kind too), so no load is a reload of the one before.
      const url = (run: number | 'warm-up', tab: OverheadTab) => `${site.url(size)}?run=${run}&tab=${tab}`;
      const loadBefore = load1();
      // One warm-up load each and per tab kind (process start-up, first connection, the warm tab), not counted.
      // Each checked to have fetched the page's images: a page that is not the one asked for (a 404) fails the run.
      for (const tab of args.tabs) {
        for (const b of browsers) {
          const warmUp = await b.load(url('warm-up', tab), tab);
          if (warmUp.resources !== Math.min(size, RESOURCE_TIMING_BUFFER)) throw new BenchRunError('E_RUN_BAD_OUTPUT', `${b.label} (${kind}, ${tab} tab) fetched ${warmUp.resources} resources for ${url('warm-up', tab)}, expected the page's ${size} images (at most the ${RESOURCE_TIMING_BUFFER} the buffer keeps)`);
        }
      }
      const loads = new Map(args.tabs.map((tab) => [tab, new Map<OverheadBrowser, OverheadLoad[]>(browsers.map((b) => [b, []]))]));
      for (let i = 0; i < args.runs; i++) {
        // Rotate which browser goes first, so none always follows another's idle time.
        const order = browsers.map((_, k) => browsers[(i + k) % browsers.length] as OverheadBrowser);
        for (const tab of args.tabs) for (const b of order) loads.get(tab)?.get(b)?.push(await b.load(url(i, tab), tab));
        progress(`${where}, ${kind}, ${size} resources: run ${i + 1}/${args.runs}`);
      }
      const loadAverage: [number, number] = [loadBefore, load1()];
      const [plain, ...extensions] = browsers as [OverheadBrowser, ...OverheadBrowser[]];
      for (const tab of args.tabs) {
        const byBrowser = loads.get(tab);
        for (const e of extensions) cells.push(overheadCell(size, e.label, byBrowser?.get(plain) ?? [], byBrowser?.get(e) ?? [], { link: where, loadAverage, browser: kind, tab }));
      }
    }
  } finally {
    await Promise.all([...browsers.map((b) => b.close()), site.close()]);
  }
  return cells;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseOverheadArgs(argv);
  if (args.help !== undefined) {
    process.stdout.write(`${args.help}\n`);
    return 0;
  }
  if (args.serveSite !== undefined) {
    await serveSite(args.serveSite);
    return 0;
  }
  if (args.pool !== undefined) {
    const pooled = poolFiles(args.pool);
    process.stdout.write(args.json ? `${JSON.stringify(pooled, null, 2)}\n` : `${formatPooledTable(pooled)}\n`);
    return 0;
  }
  if (args.links.length > 0) await ensureLinkPrivileges();
  const builds: Array<ReturnType<typeof buildVariant>> = [];
  const cells: OverheadCell[] = [];
  try {
    for (const variant of args.variants) builds.push(buildVariant(variant));
    for (const kind of args.browsers) {
      for (const link of args.links.length > 0 ? args.links : [undefined]) cells.push(...(await runOn(link, kind, args, builds)));
    }
  } finally {
    for (const b of builds) b.remove();
  }
  process.stdout.write(args.json ? `${JSON.stringify(cells, null, 2)}\n` : `${formatTable(cells)}\n\n${formatPairedTable(cells)}\n\n${formatCpuTable(cells)}\n`);
  return 0;
}

runMain('overhead', () => main(process.argv.slice(2)));
