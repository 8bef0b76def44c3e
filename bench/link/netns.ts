/** Thin wrappers over iproute2 and sysctl for the namespaces a link owns. */
import { execFile, spawnSync } from 'node:child_process';
import { LinkError } from './link-error';

const STEP_TIMEOUT_MS = 10_000;

/** Runs one setup command; its failure becomes `E_LINK_SETUP` carrying the command and its stderr. */
export function run(cmd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: STEP_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new LinkError('E_LINK_TOOL_MISSING', `${cmd} is not installed (the link needs iproute2 and procps)`));
      }
      reject(new LinkError('E_LINK_SETUP', `\`${cmd} ${args.join(' ')}\` failed: ${stderr.trim() || err.message}`));
    });
  });
}

export function ip(args: readonly string[]): Promise<string> {
  return run('ip', args);
}

/** Runs `cmd` inside namespace `ns`. */
export function inNamespace(ns: string, cmd: string, args: readonly string[]): Promise<string> {
  return ip(['netns', 'exec', ns, cmd, ...args]);
}

export async function readSysctl(ns: string, key: string): Promise<string> {
  return (await inNamespace(ns, 'sysctl', ['-n', key])).trim();
}

/** Namespace names from `ip netns list` ("name (id: 3)" lines). */
export async function listNamespaces(): Promise<string[]> {
  const out = await ip(['netns', 'list']);
  return out.split('\n').map((line) => line.split(' ')[0] ?? '').filter(Boolean);
}

/** Pids of processes inside `ns` (`ip netns pids`). */
export async function namespacePids(ns: string): Promise<number[]> {
  const out = await ip(['netns', 'pids', ns]).catch(() => '');
  return out.split('\n').map(Number).filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** Synchronous delete for exit and signal handlers, where no promise will ever settle. */
export function deleteNamespaceSync(ns: string): void {
  spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore', timeout: STEP_TIMEOUT_MS });
}

export async function deleteNamespace(ns: string): Promise<void> {
  await ip(['netns', 'del', ns]).catch(() => undefined);
}
