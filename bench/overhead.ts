/**
 * `node dist/bench/overhead.js` — what the extension costs the pages it observes. Headless
 * Chromium with and without the built extension (its native host registered) loads pages of
 * 20 and 600 images from a loopback server, HTTP cache off, runs interleaved (plain, extension,
 * plain, …) so drift hits both alike. Prints the medians of load and DOMContentLoaded, their
 * ratios (goal: ≤ 1.03), and the main-thread script time the extension adds per page (CDP
 * `ScriptDuration`, extension minus plain: the content script's share, as the page has no script).
 *
 * `--variants full,webrequest,headers+webrequest,…` loads bench-only builds with those pieces
 * switched off (extension/platform/bench-switches.ts) beside Chromium alone, each in its own
 * browser, all interleaved per run (the order rotates), to attribute the cost piece by piece.
 */
import { helpText, intValue, listValue, parseCommandLine, type CommandSpec } from './cli/command-line';
import { progress } from './engine/stats';
import { launchOverheadBrowser, type OverheadBrowser, type OverheadLoad } from './overhead/overhead-browser';
import { startOverheadSite } from './overhead/overhead-site';
import { formatCpuTable, formatTable, overheadCell, type OverheadCell } from './overhead/overhead-table';
import { buildVariant, parseVariant } from './overhead/overhead-variants';
import { BENCH_PIECES } from '../extension/platform/bench-switches';
import { BenchRunError } from './run/bench-run-error';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const OVERHEAD_COMMAND: CommandSpec = {
  usage: 'node dist/bench/overhead.js [--runs N] [--sizes 20,600] [--variants full,PIECE+PIECE,…] [--settle-ms MS] [--no-host] [--json]',
  options: {
    runs: { type: 'string', value: 'N', default: '8', help: 'loads per page and browser (medians over these)' },
    sizes: { type: 'string', value: 'a,b', default: '20,600', help: 'pages to load, by their number of images' },
    variants: { type: 'string', value: 'v,…', default: 'full', help: `extension builds to compare with Chromium alone: full; none (Chromium's extension system on, getlist not loaded); or pieces switched off joined with + (${Object.keys(BENCH_PIECES).join(', ')})` },
    'settle-ms': { type: 'string', value: 'MS', default: '1200', help: 'wait after each load (the extension measures 500 ms after load)' },
    'no-host': { type: 'boolean', help: 'do not register the native host (the extension observes only)' },
    json: { type: 'boolean', help: 'print the cells as JSON instead of the table' },
  },
  notes: ['Goal: load and DOMContentLoaded medians within +3 % of Chromium alone. Needs `npm run build` (dist/extension).'],
};

async function main(): Promise<void> {
  const { values: v, help } = parseCommandLine(process.argv.slice(2), OVERHEAD_COMMAND, usage);
  if (help) {
    process.stdout.write(`${helpText(OVERHEAD_COMMAND)}\n`);
    return;
  }
  const runs = intValue(v.runs, 'runs', 8, 1, 200, usage);
  const settleMs = intValue(v['settle-ms'], 'settle-ms', 1200, 0, 60_000, usage);
  const sizes = (listValue(v.sizes) ?? ['20', '600']).map((s) => intValue(s, 'sizes', 0, 1, 5000, usage));

  const variants = (listValue(v.variants) ?? ['full']).map(parseVariant);

  const site = await startOverheadSite();
  const browsers: OverheadBrowser[] = [];
  const builds: Array<{ remove(): void }> = [];
  const cells: OverheadCell[] = [];
  try {
    browsers.push(await launchOverheadBrowser({ withExtension: false, settleMs }));
    for (const variant of variants) {
      const build = buildVariant(variant);
      builds.push(build);
      browsers.push(await launchOverheadBrowser({ withExtension: variant.noExtension !== true, extensionsEnabled: true, extensionDir: build.dir, label: variant.name, withHost: v['no-host'] !== true, settleMs }));
    }
    for (const size of sizes) {
      const url = site.url(size);
      // One warm-up load each (process start-up, first connection), not counted.
      for (const b of browsers) await b.load(url);
      const loads = new Map<OverheadBrowser, OverheadLoad[]>(browsers.map((b) => [b, []]));
      for (let i = 0; i < runs; i++) {
        // Rotate which browser goes first, so none always follows another's idle time.
        const order = browsers.map((_, k) => browsers[(i + k) % browsers.length] as OverheadBrowser);
        for (const b of order) loads.get(b)?.push(await b.load(url));
        progress(`${size} resources: run ${i + 1}/${runs}`);
      }
      const [plain, ...extensions] = browsers as [OverheadBrowser, ...OverheadBrowser[]];
      for (const e of extensions) cells.push(overheadCell(size, e.label, loads.get(plain) ?? [], loads.get(e) ?? []));
    }
  } finally {
    await Promise.all([...browsers.map((b) => b.close()), site.close()]);
    for (const b of builds) b.remove();
  }
  process.stdout.write(v.json === true ? `${JSON.stringify(cells, null, 2)}\n` : `${formatTable(cells)}\n\n${formatCpuTable(cells)}\n`);
}

main().catch((err: unknown) => {
  const e = err as { code?: string; message?: string };
  process.stderr.write(`overhead: ${e.code ?? 'E_BENCH_INTERNAL'}: ${e.message ?? String(err)}\n`);
  process.exit(e.code === 'E_BENCH_USAGE' ? 2 : 1);
});
