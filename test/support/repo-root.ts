import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The checkout's root: the nearest directory at or above `from` that holds package.json. Test
 * helpers name their files from it, so they are found both from their own folder and bundled into
 * dist/bench/ (a benchmark that drives the end-to-end harness).
 */
export function repoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json at or above ${from}`);
  }
}
