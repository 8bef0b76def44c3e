/**
 * `node dist/bench/overhead.js` — what the extension costs the pages it observes. Headless
 * Chromium with and without the built extension (its native host registered) loads pages of
 * 20 and 600 images from a loopback server, HTTP cache off, runs interleaved (plain, extension,
 * plain, …) so drift hits both alike. Prints the medians of load and DOMContentLoaded, their
 * ratios (goal: ≤ 1.03), and the main-thread script time the extension adds per page (CDP
 * `ScriptDuration`, extension minus plain: the content script's share, as the page has no script).
 *
 * `--variants lean,detailed,detailed:webrequest+headers,…` loads bench-only builds with those pieces
 * switched off (extension/platform/bench-switches.ts) beside Chromium alone, each in its own
 * browser, all interleaved per run (the order rotates), to attribute the cost piece by piece.
 *
 * `--link 40/none,100/20` runs the same over the packet-level link (bench/link, as bench/real and
 * bench/hints use it): Chromium and its native host in the client namespace, the site's server in
 * the server namespace, one link after the other. Each cell carries its load average at start
 * and end (a shared machine).
 */
import { loadavg } from 'node:os';
import { progress } from './engine/stats';
import { ensureLinkPrivileges } from './link/rootless';
import { parseOverheadArgs, type OverheadArgs } from './overhead/overhead-args';
import { launchOverheadBrowser, type OverheadBrowser, type OverheadLoad } from './overhead/overhead-browser';
import { serveSite, startLinkSite } from './overhead/overhead-link-site';
import type { OverheadLinkSpec } from './overhead/overhead-link-spec';
import { startOverheadSite, type OverheadSite } from './overhead/overhead-site';
import { formatCpuTable, formatTable, overheadCell, type OverheadCell } from './overhead/overhead-table';
import { buildVariant } from './overhead/overhead-variants';

const load1 = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** Every size on one link (or loopback), every browser interleaved per run, the order rotating. */
async function runOn(link: OverheadLinkSpec | undefined, args: OverheadArgs, builds: ReadonlyArray<{ dir: string }>): Promise<OverheadCell[]> {
  const where = link?.name ?? 'loopback';
  const site: OverheadSite & { clientNs?: string } = link !== undefined ? await startLinkSite(link.params) : await startOverheadSite();
  const browsers: OverheadBrowser[] = [];
  const cells: OverheadCell[] = [];
  try {
    const common = { settleMs: args.settleMs, ...(site.clientNs !== undefined ? { clientNs: site.clientNs } : {}) };
    browsers.push(await launchOverheadBrowser({ withExtension: false, ...common }));
    for (const [k, variant] of args.variants.entries()) {
      browsers.push(await launchOverheadBrowser({
        withExtension: variant.noExtension !== true, extensionsEnabled: true, extensionDir: builds[k]?.dir, label: variant.name, withHost: args.withHost, ...common,
      }));
    }
    for (const size of args.sizes) {
      const url = site.url(size);
      const loadBefore = load1();
      // One warm-up load each (process start-up, first connection), not counted.
      for (const b of browsers) await b.load(url);
      const loads = new Map<OverheadBrowser, OverheadLoad[]>(browsers.map((b) => [b, []]));
      for (let i = 0; i < args.runs; i++) {
        // Rotate which browser goes first, so none always follows another's idle time.
        const order = browsers.map((_, k) => browsers[(i + k) % browsers.length] as OverheadBrowser);
        for (const b of order) loads.get(b)?.push(await b.load(url));
        progress(`${where}, ${size} resources: run ${i + 1}/${args.runs}`);
      }
      const loadAverage: [number, number] = [loadBefore, load1()];
      const [plain, ...extensions] = browsers as [OverheadBrowser, ...OverheadBrowser[]];
      for (const e of extensions) cells.push(overheadCell(size, e.label, loads.get(plain) ?? [], loads.get(e) ?? [], { link: where, loadAverage }));
    }
  } finally {
    await Promise.all([...browsers.map((b) => b.close()), site.close()]);
  }
  return cells;
}

async function main(): Promise<void> {
  const args = parseOverheadArgs(process.argv.slice(2));
  if (args.help !== undefined) {
    process.stdout.write(`${args.help}\n`);
    return;
  }
  if (args.serveSite !== undefined) return serveSite(args.serveSite);
  if (args.links.length > 0) await ensureLinkPrivileges();
  const builds: Array<ReturnType<typeof buildVariant>> = [];
  const cells: OverheadCell[] = [];
  try {
    for (const variant of args.variants) builds.push(buildVariant(variant));
    for (const link of args.links.length > 0 ? args.links : [undefined]) cells.push(...(await runOn(link, args, builds)));
  } finally {
    for (const b of builds) b.remove();
  }
  process.stdout.write(args.json ? `${JSON.stringify(cells, null, 2)}\n` : `${formatTable(cells)}\n\n${formatCpuTable(cells)}\n`);
}

main().catch((err: unknown) => {
  const e = err as { code?: string; message?: string };
  process.stderr.write(`overhead: ${e.code ?? 'E_BENCH_INTERNAL'}: ${e.message ?? String(err)}\n`);
  process.exit(e.code === 'E_BENCH_USAGE' || e.code === 'E_BENCH_UNKNOWN_LINK' ? 2 : 1);
});
