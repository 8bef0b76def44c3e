/**
 * Runs nginx in the foreground as a child and knows when it is serving: nginx writes its pid file
 * only after it has bound every listening socket, so the pid file appearing means "listening"
 * even when nginx runs in another network namespace, where this process cannot connect to it.
 */
import { execFileSync, spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { NGINX_INSTALL_HINT, OriginsError } from './origins-errors';

/** Starts a child; a caller running nginx elsewhere wraps the command (see {@link netnsSpawn}). */
export type SpawnFn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export const defaultSpawn: SpawnFn = (command, args, options) => nodeSpawn(command, args, options);

/** Runs the command inside network namespace `ns` (`ip netns exec <ns> …`, which execs it: same pid). */
export function netnsSpawn(ns: string, spawn: SpawnFn = defaultSpawn): SpawnFn {
  return (command, args, options) => spawn('ip', ['netns', 'exec', ns, command, ...args], options);
}

/** The nginx binary: on PATH, else in the sbin dirs a non-root PATH often lacks. */
export function findNginx(pathEnv = process.env.PATH ?? ''): string {
  const dirs = [...pathEnv.split(delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new OriginsError('E_NGINX_MISSING', `nginx was not found (looked on PATH and in /usr/sbin): ${NGINX_INSTALL_HINT}`);
}

/** `nginx -v` text, e.g. `nginx version: nginx/1.22.1`. */
export function nginxVersion(nginx: string): string {
  try {
    return execFileSync(nginx, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 }).toString();
  } catch (err) {
    const e = err as { stderr?: string; status?: number };
    if (e.status === 0 || e.stderr !== undefined) return e.stderr ?? '';
    throw err;
  }
}

export interface NginxRun {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal) once nginx has exited. */
  readonly exited: Promise<string>;
}

export interface StartNginxOptions {
  nginx: string;
  confPath: string;
  pidPath: string;
  errorLogPath: string;
  prefix: string;
  spawn: SpawnFn;
  /** @default 10000 */
  startTimeoutMs?: number;
}

/**
 * Spawns `nginx -c <conf> -g 'daemon off; pid <file>;'` and resolves once it listens. On failure
 * the child is killed and the error carries nginx's own words (its error log and stderr).
 */
export async function startNginx(o: StartNginxOptions): Promise<NginxRun> {
  const child = o.spawn(o.nginx, ['-p', o.prefix, '-e', o.errorLogPath, '-c', o.confPath, '-g', `daemon off; pid ${o.pidPath};`],
    // Its own process group, so a last-resort SIGKILL reaches the workers as well as the master.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  let exitedWith: string | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve((exitedWith = signal ?? String(code))));
    child.once('error', (err) => resolve((exitedWith = `spawn error: ${err.message}`)));
  });
  const deadline = Date.now() + (o.startTimeoutMs ?? 10_000);
  const why = (): string => {
    const log = existsSync(o.errorLogPath) ? readFileSync(o.errorLogPath, 'utf8').trim() : '';
    return [log, stderr.trim()].filter(Boolean).join('\n') || '(nginx printed nothing)';
  };
  while (true) {
    if (exitedWith !== undefined) {
      const text = why();
      const code = /Address already in use/.test(text) ? 'E_PORT_IN_USE' : 'E_NGINX_FAILED';
      throw new OriginsError(code, `nginx exited (${exitedWith}) before serving:\n${text}`);
    }
    if (existsSync(o.pidPath) && readFileSync(o.pidPath, 'utf8').trim() !== '') return { child, exited };
    if (Date.now() > deadline) {
      killGroup(child);
      await exited;
      throw new OriginsError('E_NGINX_START_TIMEOUT', `nginx did not start within ${o.startTimeoutMs ?? 10_000} ms:\n${why()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGTERM (nginx's fast shutdown), then SIGKILL if it lingers. Resolves once it has exited. */
export async function stopNginx(run: NginxRun, graceMs = 5_000): Promise<void> {
  if (run.child.exitCode !== null || run.child.signalCode !== null) return;
  run.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), graceMs); });
  if ((await Promise.race([run.exited, late])) === 'late') {
    killGroup(run.child);
    await run.exited;
  }
  clearTimeout(timer);
}

/** SIGKILL to the child's process group (master and workers). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
