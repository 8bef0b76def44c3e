/** Compiles bench/link/forwarder.c on first use into bench/.build/, keyed by the source's hash. */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LinkError } from './link-error';

const SOURCE = join('bench', 'link', 'forwarder.c');
const CFLAGS = ['-O2', '-Wall', '-Wextra', '-std=gnu11'];

/**
 * The checkout holding forwarder.c: found upwards from this file (bench/link, or dist/bench in the
 * bundle), else from the working directory.
 */
export function findRepoRoot(starts: readonly string[] = [__dirname, process.cwd()]): string {
  for (const start of starts) {
    let dir = start;
    for (let i = 0; i < 8; i++) {
      if (existsSync(join(dir, SOURCE))) return dir;
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  throw new LinkError('E_LINK_BUILD', `cannot find ${SOURCE} in ${starts.join(' or ')} or their parents`);
}

function gcc(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('gcc', args, { timeout: 60_000 }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new LinkError('E_LINK_TOOL_MISSING', 'gcc is not installed; the forwarder is compiled on first use (apt-get install gcc)'));
      }
      reject(new LinkError('E_LINK_BUILD', `gcc failed on ${SOURCE}:\n${stderr.trim() || err.message}`));
    });
  });
}

/**
 * The path of a forwarder binary built from the current source. Builds write to a temporary name
 * and rename, so concurrent runs never execute a half-written binary.
 */
export async function ensureForwarder(root: string = findRepoRoot()): Promise<string> {
  const source = join(root, SOURCE);
  const hash = createHash('sha256').update(readFileSync(source)).update(CFLAGS.join(' ')).digest('hex').slice(0, 16);
  const buildDir = join(root, 'bench', '.build');
  const binary = join(buildDir, `forwarder-${hash}`);
  if (existsSync(binary)) return binary;
  mkdirSync(buildDir, { recursive: true });
  const tmp = `${binary}.${process.pid}.tmp`;
  try {
    await gcc([...CFLAGS, '-o', tmp, source]);
    renameSync(tmp, binary);
  } finally {
    rmSync(tmp, { force: true });
  }
  return binary;
}
