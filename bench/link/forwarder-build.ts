/**
 * Compiles bench/link/forwarder.c on first use, keyed by the source's hash, into bench/.build/ or,
 * when that is not writable (an unprivileged user in a checkout owned by root), into a cache
 * directory of the user's own (see `buildDirs`).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** A directory a forwarder binary may live in; `shared` for one under a temp dir other users can write. */
export interface BuildDir {
  path: string;
  shared: boolean;
}

/**
 * Where a forwarder binary may live, in order: the checkout's bench/.build, then
 * $XDG_CACHE_HOME/getlist (or ~/.cache/getlist), then <tmp>/getlist-forwarder-<uid>. A binary
 * already built in any of them is used; a new one goes into the first that is writable.
 */
export function buildDirs(root: string, env: NodeJS.ProcessEnv = process.env, uid: number = process.getuid?.() ?? -1, tmp: string = tmpdir()): BuildDir[] {
  const cache = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : undefined);
  return [
    { path: join(root, 'bench', '.build'), shared: false },
    ...(cache ? [{ path: join(cache, 'getlist'), shared: false }] : []),
    { path: join(tmp, `getlist-forwarder-${uid}`), shared: true },
  ];
}

/**
 * Someone else could have made a directory under a shared temp dir and could then swap the binary:
 * such a directory is used only if it is a real directory owned by this user and writable by no
 * one else. The others are trusted like the checkout itself.
 */
function trusted(dir: BuildDir): boolean {
  if (!dir.shared) return true;
  try {
    const st = lstatSync(dir.path);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function writable(dir: BuildDir): boolean {
  try {
    mkdirSync(dir.path, { recursive: true, ...(dir.shared ? { mode: 0o700 } : {}) });
    accessSync(dir.path, constants.W_OK);
    return trusted(dir);
  } catch {
    return false;
  }
}

/** Builds in progress in this process, by binary path: concurrent links share one gcc run. */
const building = new Map<string, Promise<string>>();
let buildCount = 0;

/**
 * The path of a forwarder binary built from the current source. Builds write to a temporary name
 * (unique per process and build) and rename, so concurrent runs never execute a half-written
 * binary, and links started at once in one process (`bench --jobs`) wait for the same build.
 */
export async function ensureForwarder(root: string = findRepoRoot(), dirs: readonly BuildDir[] = buildDirs(root)): Promise<string> {
  const source = join(root, SOURCE);
  const hash = createHash('sha256').update(readFileSync(source)).update(CFLAGS.join(' ')).digest('hex').slice(0, 16);
  const name = `forwarder-${hash}`;
  const built = dirs.find((dir) => existsSync(join(dir.path, name)) && trusted(dir));
  if (built) return join(built.path, name);
  const buildDir = dirs.find(writable);
  if (buildDir === undefined) throw new LinkError('E_LINK_BUILD', `no writable directory for the forwarder binary; tried ${dirs.map((d) => d.path).join(', ')}`);
  const binary = join(buildDir.path, name);
  const pending = building.get(binary);
  if (pending) return pending;
  const build = (async () => {
    const tmp = `${binary}.${process.pid}-${++buildCount}.tmp`;
    try {
      await gcc([...CFLAGS, '-o', tmp, source]);
      renameSync(tmp, binary);
    } finally {
      rmSync(tmp, { force: true });
    }
    return binary;
  })();
  building.set(binary, build);
  try {
    return await build;
  } finally {
    building.delete(binary);
  }
}
