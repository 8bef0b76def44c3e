// Bundles the CLI (and later the host and extension) with esbuild.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

// classic-level loads a native addon (node-gyp-build), which cannot be bundled: it is required from
// node_modules at run time.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning', external: ['classic-level'] };

await build({ ...common, entryPoints: ['native-host/cli/main.ts'], outfile: 'dist/getlist.js' });
if (existsSync('bench/engine.ts')) {
  await build({ ...common, entryPoints: ['bench/engine.ts'], outfile: 'dist/bench/engine.js' });
}
