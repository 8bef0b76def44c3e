// Bundles the CLI and the WebExtension with esbuild. `dist/extension/` is a ready-to-load unpacked
// extension for Chrome (chrome://extensions → Load unpacked) and Firefox (about:debugging).
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ICON_SIZES, iconPng } from './icons.mjs';

// lmdb (the store) and classic-level (only to migrate a LevelDB store of getlist ≤ 0.1) load native
// addons from prebuilt optional packages, which cannot be bundled: they are required from
// node_modules at run time.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning', external: ['classic-level', 'lmdb'] };

/**
 * The benchmarks' entry points (bench/README.md, "Map"), one per measurement folder, and the child
 * processes some of them start; each bundled to the dist/bench/ name its npm script and docs use.
 */
const BENCH_ENTRIES = [
  ['bench/matrix/main.ts', 'bench.js'],
  ['bench/report/main.ts', 'report.js'],
  ['bench/engine/main.ts', 'engine.js'],
  ['bench/engine/loopback-profile.ts', 'loopback-profile.js'],
  ['bench/link/main.ts', 'link.js'],
  ['bench/trace/main.ts', 'trace.js'],
  ['bench/demo/main.ts', 'demo-link.js'],
  ['bench/real/main.ts', 'real.js'],
  ['bench/zoo/main.ts', 'zoo.js'],
  // What holds a pipelined burst's tail on a zoo member: packets on both sides, ss, the server's log.
  ['bench/zoo/tail-trace-main.ts', 'zoo-tail-trace.js'],
  ['bench/zoo/h2-trace-main.ts', 'zoo-h2-trace.js'],
  ['bench/zoo/first-response-main.ts', 'zoo-first-response.js'],
  ['bench/faults/main.ts', 'faults.js'],
  ['bench/hints/main.ts', 'hints.js'],
  // The Firefox hints driver runs on its own inside the client namespace.
  ['bench/hints/firefox-driver.ts', 'hints-firefox-driver.js'],
  // Whether Chromium holds its first paint for a preloaded font (the evidence behind its hint limits).
  ['bench/hints/font-paint-hold.ts', 'font-paint-hold.js'],
  // What the extension's storage and rule writes cost Chromium's browser main thread, by size.
  ['bench/hints/extension-io-cost.ts', 'extension-io-cost.js'],
  ['bench/overhead/main.ts', 'overhead.js'],
  ['bench/navigate/main.ts', 'navigate.js'],
  // The Firefox side of the navigation bench runs on its own inside the client namespace.
  ['bench/navigate/firefox-walker.ts', 'navigate-firefox-driver.js'],
  ['bench/handshake/main.ts', 'handshake-fidelity.js'],
  ['bench/browser-handshake/main.ts', 'browser-handshake.js'],
  ['bench/connections/main.ts', 'connections.js'],
  ['bench/metrics/main.ts', 'metrics-scrape.js'],
  ['bench/diagnosis/main.ts', 'diagnosis.js'],
  ['bench/store/main.ts', 'store-kill-loss.js'],
  // What a getlist process costs before and around its command (the launcher's code cache).
  ['bench/start/main.ts', 'start-cost.js'],
  ['bench/engine/tls-stream-cost.ts', 'tls-stream-cost.js'],
  // The writer process bench/store/main.ts kills.
  ['bench/store/store-writer.ts', 'store-writer.js'],
];

// `--extension-only`: the WebExtension alone, e.g. a bench variant (bench/overhead/) into
// GETLIST_EXTENSION_OUT with the pieces named in GETLIST_BENCH_OFF switched off
// (extension/platform/bench-pieces.ts), and with GETLIST_BENCH_DETAILED=1 Detailed capture's
// optional permissions held from install. None of these is set by npm run build or package.
const extensionOnly = process.argv.includes('--extension-only');
const benchOff = process.env.GETLIST_BENCH_OFF ?? '';
if (!extensionOnly) await buildNode();

async function buildNode() {
  await build({ ...common, entryPoints: ['native-host/cli/main.ts'], outfile: 'dist/getlist.js' });
  for (const [entry, out] of BENCH_ENTRIES) {
    await build({ ...common, entryPoints: [entry], outfile: `dist/bench/${out}` });
  }
}

const EXT = process.env.GETLIST_EXTENSION_OUT || 'dist/extension';
/** GETLIST_RELEASE=1 (npm run package) leaves source maps out of the store packages. */
const release = process.env.GETLIST_RELEASE === '1';
const bundles = [
  ['extension/background/index.ts', 'background.js'],
  ['extension/content/start.ts', 'content-start.js'],
  ['extension/content/index.ts', 'content.js'],
  ['extension/content/speculate.ts', 'content-speculate.js'],
  ['extension/popup/popup.ts', 'popup.js'],
  ['extension/options/options.ts', 'options.js'],
  ['extension/waterfall/waterfall-page.ts', 'waterfall.js'],
];
const assets = [
  ['manifest.json', 'manifest.json'],
  ['extension/popup/popup.html', 'popup.html'],
  ['extension/popup/popup.css', 'popup.css'],
  ['extension/popup/time-went.css', 'time-went.css'],
  ['extension/ui/theme.css', 'theme.css'],
  ['extension/waterfall/waterfall.css', 'waterfall.css'],
  ['extension/waterfall/waterfall.html', 'waterfall.html'],
  ['extension/waterfall/waterfall-page.css', 'waterfall-page.css'],
  ['extension/options/options.html', 'options.html'],
  ['extension/options/options.css', 'options.css'],
];

rmSync(EXT, { recursive: true, force: true });
mkdirSync(join(EXT, 'icons'), { recursive: true });
const missing = [];
for (const [entry, out] of bundles) {
  if (!existsSync(entry)) {
    missing.push(entry);
    continue;
  }
  // The content scripts run in every page (content-start.js before the page parses): their maps go
  // to files of their own (DevTools loads them on demand), not inline.
  const sourcemap = release ? false : out.startsWith('content') ? 'linked' : 'inline';
  // The one bench define (extension/platform/bench-switches.ts): '' outside a bench variant, where
  // minifySyntax folds every switch to false and drops the code behind it. Names and whitespace stay.
  const define = { GETLIST_BENCH_OFF: JSON.stringify(benchOff) };
  await build({ entryPoints: [entry], outfile: join(EXT, out), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', sourcemap, define, minifySyntax: true, logLevel: 'warning' });
}
for (const [from, to] of assets) {
  if (existsSync(from)) copyFileSync(from, join(EXT, to));
  else missing.push(from);
}
if (process.env.GETLIST_BENCH_DETAILED === '1') {
  // Bench only (bench/overhead/ `detailed`): Detailed capture's optional permissions held from
  // install, as after a grant and a Chromium restart — the state a user who turned it on runs in.
  const manifest = JSON.parse(readFileSync(join(EXT, 'manifest.json'), 'utf8'));
  manifest.permissions = [...manifest.permissions, ...manifest.optional_permissions];
  delete manifest.optional_permissions;
  writeFileSync(join(EXT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
for (const size of ICON_SIZES) writeFileSync(join(EXT, 'icons', `icon-${size}.png`), iconPng(size));
if (missing.length) console.warn(`build: warning: the extension in ${EXT} is incomplete; not found: ${missing.join(', ')}`);
