import { spawn as realSpawn } from 'node:child_process';
import { parseHostMessage, PROTOCOL_VERSION, type HelloReply } from '../../src/protocol';
import { encodeFrame, preview, readFrame } from './native-frame';
import type { Platform } from './system';

/** What the doctor sends: the protocol's opening message. */
export const HELLO_REQUEST = { type: 'hello', id: 'doctor-1', protocolVersion: PROTOCOL_VERSION } as const;

export interface HelloProbeOptions {
  /** The manifest's `path`. */
  launcher: string;
  /** What the browser would pass (Chrome: the caller origin; Firefox: manifest path and add-on id). */
  args: readonly string[];
  /** The environment the host gets; the doctor passes a minimal one like a browser's. */
  env: Record<string, string>;
  /** @default 5000 */
  timeoutMs?: number;
  platform: Platform;
  spawn?: typeof realSpawn;
}

export type HelloFailureCode = 'E_HOST_SPAWN' | 'E_HOST_TIMEOUT' | 'E_HOST_EXITED' | 'E_HOST_NOT_FRAME' | 'E_HOST_BAD_REPLY';

export type HelloResult =
  | { ok: true; reply: HelloReply; ms: number }
  | { ok: false; code: HelloFailureCode; reason: string; stderr: string };

const STDERR_TAIL = 2000;
const KILL_GRACE_MS = 1000;

/**
 * Starts the launcher the way a browser does (pipes on stdio, the browser's arguments), sends one
 * hello frame and waits for the matching reply. Settles exactly once; the child is always ended
 * (stdin closed, then killed after a grace period) before the promise resolves, so no host
 * outlives the doctor.
 */
export function probeHello(opts: HelloProbeOptions): Promise<HelloResult> {
  const spawn = opts.spawn ?? realSpawn;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const started = Date.now();
  return new Promise((resolve) => {
    const child =
      opts.platform === 'win32'
        ? // Batch files only run through cmd.exe; /s strips the outer quotes of the command line.
          spawn(opts.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `""${opts.launcher}" ${opts.args.map((a) => `"${a}"`).join(' ')}"`], { env: opts.env, windowsVerbatimArguments: true, windowsHide: true })
        : spawn(opts.launcher, [...opts.args], { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = Buffer.alloc(0);
    let stderr = '';
    let settled = false;
    const timer = setTimeout(() => fail('E_HOST_TIMEOUT', `host did not answer hello within ${timeoutMs / 1000} s`), timeoutMs);

    const finish = (result: HelloResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve(withStderr(result));
      child.stdin?.end();
      const kill = setTimeout(() => child.kill('SIGKILL'), result.ok ? KILL_GRACE_MS : 0);
      child.once('exit', () => {
        clearTimeout(kill);
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve(withStderr(result));
      });
    };
    const withStderr = (r: HelloResult): HelloResult => (r.ok ? r : { ...r, stderr: stderr.slice(-STDERR_TAIL) });
    const fail = (code: HelloFailureCode, reason: string) => finish({ ok: false, code, reason, stderr: '' });

    child.on('error', (err: NodeJS.ErrnoException) => fail('E_HOST_SPAWN', `cannot start ${opts.launcher}: ${err.code ?? ''} ${err.message}`.trim()));
    child.stdin?.on('error', () => undefined); // EPIPE when the host exits first; reported via 'close'.
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.stdout?.on('data', (d: Buffer) => {
      if (settled) return;
      out = Buffer.concat([out, d]);
      const r = readFrame(out);
      if (r.kind === 'not-a-frame') fail('E_HOST_NOT_FRAME', `host wrote something that is not a frame: ${r.reason}`);
      else if (r.kind === 'frame') finish(checkReply(r.message, Date.now() - started));
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (out.length > 0) fail('E_HOST_NOT_FRAME', `host ${how} after writing ${out.length} byte(s) that are not a complete frame: ${preview(out)}`);
      else fail('E_HOST_EXITED', `host ${how} before answering hello`);
    });
    child.stdin?.write(encodeFrame(HELLO_REQUEST));
  });
}

/** The reply as the extension would judge it (src/protocol's own check), then hello-specific. */
function checkReply(message: unknown, ms: number): HelloResult {
  const bad = (reason: string): HelloResult => ({ ok: false, code: 'E_HOST_BAD_REPLY', reason, stderr: '' });
  let reply;
  try {
    reply = parseHostMessage(message);
  } catch (err) {
    return bad(`host replied with a message the extension would refuse (${(err as Error).message}): ${JSON.stringify(message).slice(0, 200)}`);
  }
  if (reply.type === 'error') return bad(`host answered hello with an error: ${reply.code}: ${reply.message}`);
  if (reply.type !== 'hello' || reply.id !== HELLO_REQUEST.id) {
    return bad(`host replied ${JSON.stringify(message).slice(0, 200)}; expected type "hello" with id "${HELLO_REQUEST.id}"`);
  }
  if (reply.protocolVersion !== PROTOCOL_VERSION) return bad(`host speaks protocol version ${reply.protocolVersion}; this getlist speaks ${PROTOCOL_VERSION}`);
  return { ok: true, reply, ms };
}
