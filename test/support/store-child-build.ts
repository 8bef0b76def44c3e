import { buildSync } from 'esbuild';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** Bundles store-child.ts into `outDir`; run it with {@link storeChildEnv}. */
export function buildStoreChild(outDir: string): string {
  const outfile = path.join(outDir, 'store-child.js');
  buildSync({
    entryPoints: [path.join(__dirname, 'store-child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['classic-level', 'lmdb'], // Native addons: loaded from the repo's node_modules.
    logLevel: 'warning',
  });
  return outfile;
}

export const storeChildEnv: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') };
