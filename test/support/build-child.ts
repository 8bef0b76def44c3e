import { buildSync, stop } from 'esbuild';

/**
 * Bundles a TypeScript entry into one CommonJS file a test can run as a process of its own
 * (`node outfile`), then stops esbuild's service, which would otherwise keep the test process alive.
 */
export function buildChildScript(entry: string, outfile: string): void {
  buildSync({ entryPoints: [entry], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
  void stop();
}
