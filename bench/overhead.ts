/**
 * `node dist/bench/overhead.js` — what the extension costs the pages it observes. Headless
 * Chromium with and without the built extension (its native host registered) loads pages of
 * 20 and 600 images from a loopback server, HTTP cache off, runs interleaved (plain, extension,
 * plain, …) so drift hits both alike. Prints the medians of load and DOMContentLoaded, their
 * ratios (goal: ≤ 1.03), and the main-thread script time the extension adds per page (CDP
 * `ScriptDuration`, extension minus plain: the content script's share, as the page has no script).
 */
import { helpText, intValue, listValue, parseCommandLine, type CommandSpec } from './cli/command-line';
import { progress } from './engine/stats';
import { launchOverheadBrowser, type OverheadLoad } from './overhead/overhead-browser';
import { startOverheadSite } from './overhead/overhead-site';
import { formatTable, overheadCell, type OverheadCell } from './overhead/overhead-table';
import { BenchRunError } from './run/bench-run-error';

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);

export const OVERHEAD_COMMAND: CommandSpec = {
  usage: 'node dist/bench/overhead.js [--runs N] [--sizes 20,600] [--settle-ms MS] [--no-host] [--json]',
  options: {
    runs: { type: 'string', value: 'N', default: '8', help: 'loads per page and browser (medians over these)' },
    sizes: { type: 'string', value: 'a,b', default: '20,600', help: 'pages to load, by their number of images' },
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

  const site = await startOverheadSite();
  const plain = await launchOverheadBrowser({ withExtension: false, settleMs });
  const extension = await launchOverheadBrowser({ withExtension: true, withHost: v['no-host'] !== true, settleMs });
  const cells: OverheadCell[] = [];
  try {
    for (const size of sizes) {
      const url = site.url(size);
      // One warm-up load each (process start-up, first connection), not counted.
      await plain.load(url);
      await extension.load(url);
      const loads: { plain: OverheadLoad[]; extension: OverheadLoad[] } = { plain: [], extension: [] };
      for (let i = 0; i < runs; i++) {
        // Alternate which browser goes first, so neither always follows the other's idle time.
        const order = i % 2 === 0 ? [plain, extension] : [extension, plain];
        for (const b of order) (b.withExtension ? loads.extension : loads.plain).push(await b.load(url));
        progress(`${size} resources: run ${i + 1}/${runs}`);
      }
      cells.push(overheadCell(size, loads.plain, loads.extension));
    }
  } finally {
    await Promise.all([plain.close(), extension.close(), site.close()]);
  }
  process.stdout.write(v.json === true ? `${JSON.stringify(cells, null, 2)}\n` : `${formatTable(cells)}\n`);
}

main().catch((err: unknown) => {
  const e = err as { code?: string; message?: string };
  process.stderr.write(`overhead: ${e.code ?? 'E_BENCH_INTERNAL'}: ${e.message ?? String(err)}\n`);
  process.exit(e.code === 'E_BENCH_USAGE' ? 2 : 1);
});
