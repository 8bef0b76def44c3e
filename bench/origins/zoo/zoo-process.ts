/**
 * Runs a member's processes and knows when they serve. Readiness is every listener's port in
 * `ss -Hltn` run the same way as the member (inside its network namespace, where this process
 * cannot connect), so it works on loopback and on the link alike. Each process gets its own
 * process group; stopping is SIGTERM to the group, then SIGKILL, and waits for the exit.
 */
import { openSync, closeSync, existsSync, readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type { SpawnFn } from '../nginx-process';
import { OriginsError } from '../origins-errors';
import type { ZooLaunch, ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';

export interface ZooProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<string>;
  readonly stderr: () => string;
}

function spawnLaunch(l: ZooLaunch, spawn: SpawnFn): ZooProcess {
  const out = l.stdoutPath === undefined ? 'ignore' : openSync(l.stdoutPath, 'a');
  const child = spawn(l.command, l.args, { stdio: ['ignore', out, 'pipe'], detached: true, env: { ...process.env, ...l.env } });
  if (typeof out === 'number') closeSync(out);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? String(code)));
    child.once('error', (err) => resolve(`spawn error: ${err.message}`));
  });
  return { child, exited, stderr: () => stderr };
}

/** The listening sockets `ss` shows, as `address:port`. */
async function listening(spawn: SpawnFn): Promise<Set<string>> {
  const child = spawn('ss', ['-Hltn'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  child.stdout?.on('data', (c: Buffer) => { text += c.toString(); });
  await new Promise((resolve) => {
    child.once('close', resolve);
    child.once('error', resolve);
  });
  return new Set(text.split('\n').map((line) => line.trim().split(/\s+/)[3] ?? '').filter(Boolean));
}

const hasSocket = (open: ReadonlySet<string>, l: ZooListener): boolean =>
  open.has(listenAddress(l.address, l.port)) || open.has(`0.0.0.0:${l.port}`) || open.has(`*:${l.port}`) || open.has(`[::]:${l.port}`);

/** One plain-HTTP GET of `path` through `listener`, made where the member runs (its namespace). */
async function probe(listener: ZooListener, path: string, spawn: SpawnFn): Promise<void> {
  const script = `require('node:http').get(${JSON.stringify({ host: listener.address, port: listener.port, path })}, (r) => { r.resume(); r.on('end', () => process.exit(0)); }).on('error', () => process.exit(1))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  await new Promise((resolve) => {
    child.once('close', resolve);
    child.once('error', resolve);
  });
}

/** Whether a request for the probe's path, made now, shows in the log (the writer has attached). */
async function probeLogged(p: NonNullable<ZooLaunch['readyProbe']>, spawn: SpawnFn): Promise<boolean> {
  await probe(p.listener, p.path, spawn);
  await new Promise((r) => setTimeout(r, 100));
  return existsSync(p.logPath) && readFileSync(p.logPath, 'utf8').includes(p.path);
}

export function isRunning(p: ZooProcess): boolean {
  return p.child.exitCode === null && p.child.signalCode === null;
}

export function killZooGroup(p: ZooProcess): void {
  if (p.child.pid === undefined || !isRunning(p)) return;
  try {
    process.kill(-p.child.pid, 'SIGKILL');
  } catch {
    p.child.kill('SIGKILL');
  }
}

export async function stopZooProcess(p: ZooProcess, graceMs = 5_000): Promise<void> {
  if (!isRunning(p) || p.child.pid === undefined) return;
  try {
    process.kill(-p.child.pid, 'SIGTERM');
  } catch {
    p.child.kill('SIGTERM');
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), graceMs); });
  if ((await Promise.race([p.exited, late])) === 'late') {
    killZooGroup(p);
    await p.exited;
  }
  clearTimeout(timer);
}

export interface StartZooProcessesOptions {
  member: string;
  launches: readonly ZooLaunch[];
  /** The sockets the first launch must listen on before the next starts. */
  listeners: readonly ZooListener[];
  spawn: SpawnFn;
  errorLogPath: string;
  timeoutMs?: number;
}

/**
 * Starts each launch in turn, the first until every listener is up, a later one until its
 * `readyFile` exists. On failure every started process is stopped and the error carries the
 * member's own words (its error log and stderr); `E_PORT_IN_USE` when a port was taken.
 */
export async function startZooProcesses(o: StartZooProcessesOptions): Promise<ZooProcess[]> {
  const started: ZooProcess[] = [];
  const why = (p: ZooProcess): string => {
    const log = existsSync(o.errorLogPath) ? readFileSync(o.errorLogPath, 'utf8').trim().slice(-4000) : '';
    return [log, p.stderr().trim().slice(-4000)].filter(Boolean).join('\n') || `(${o.member} printed nothing)`;
  };
  try {
    for (const [i, launch] of o.launches.entries()) {
      const p = spawnLaunch(launch, o.spawn);
      started.push(p);
      const deadline = Date.now() + (o.timeoutMs ?? 20_000);
      for (;;) {
        const open = i === 0 ? await listening(o.spawn) : new Set<string>();
        if (!isRunning(p)) {
          const text = why(p);
          const code = /in use|EADDRINUSE|Address already/i.test(text) ? 'E_PORT_IN_USE' : 'E_ZOO_FAILED';
          throw new OriginsError(code, `${o.member}: ${launch.command} exited (${await p.exited}) before serving:\n${text}`);
        }
        const ready = i === 0
          ? o.listeners.every((l) => hasSocket(open, l))
          : launch.readyProbe === undefined || await probeLogged(launch.readyProbe, o.spawn);
        if (ready) break;
        if (Date.now() > deadline) throw new OriginsError('E_ZOO_START_TIMEOUT', `${o.member}: ${launch.command} did not start within ${o.timeoutMs ?? 20_000} ms:\n${why(p)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return started;
  } catch (err) {
    for (const p of started.reverse()) await stopZooProcess(p);
    throw err;
  }
}
