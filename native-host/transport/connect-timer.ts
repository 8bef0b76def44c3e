import { spawn, type ChildProcess } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import { CONNECT_TIMER_CHILD_SOURCE } from './connect-timer-child';
import { TransportError } from './transport-errors';

export interface ConnectTarget {
  /** Addresses the connection gate passed, tried in this order. */
  addresses: readonly LookupAddress[];
  port: number;
  /** Fails with `UND_ERR_CONNECT_TIMEOUT` (undici's code for it) if not connected by then. */
  timeoutMs: number;
}

export interface TimedTcp {
  /** The connected socket, now owned by this process. */
  socket: Socket;
  /** The first connection attempt (the SYN) to `connect`, timed on the child's quiet loop. */
  tcpMs: number;
  remoteAddress: string;
}

interface Pending {
  resolve: (t: TimedTcp) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

type ChildMessage = { ready?: true; id: number; tcpMs?: number; remoteAddress?: string; error?: { code?: string; message?: string } };

/**
 * Opens TCP connections in a child process whose event loop does nothing else, and takes each
 * connected socket over: the IPC channel passes its descriptor (SCM_RIGHTS) and the child closes
 * its own copy, so this process holds the very connection that was timed. A socket event in this
 * process is dispatched only when its loop gets to it, so on a loop busy with a page (parsing,
 * dispatch, TLS crypto of other connections) a `connect` timestamp taken here carries that work;
 * the child's does not. A worker thread cannot do this: Node has no way to let a thread's socket
 * go without closing its descriptor.
 *
 * The child starts on the first connect (or `warmUp`) and stays while connects are pending; it does
 * not hold the process open. Starting it is a Node process start, tens of milliseconds: a connect
 * made before it says it is up waits that long, so the connector makes those in its own loop
 * (timing-connector.ts). Passed sockets go one at a time (Node waits for this loop to acknowledge
 * each), which is what handing over costs: bench/README.md, "Handshake fidelity". The socket is
 * handed over once connected, not while connecting: two processes reading one connecting socket
 * race for its pending error (the kernel gives a refusal to whichever reads first), and the other
 * would report a refused connection as made.
 */
export class ConnectTimer {
  private child: ChildProcess | undefined;
  /** The child that said it listens (a child gone or replaced is no longer {@link child}). */
  private listening: ChildProcess | undefined;
  private readonly upWaiters: Array<(up: boolean) => void> = [];
  private unavailable = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /**
   * @param source the child's program (connect-timer-child.ts); tests pass a faulty one.
   * @param command what runs it: this process's own node.
   */
  constructor(
    private readonly source: string = CONNECT_TIMER_CHILD_SOURCE,
    private readonly command: string = process.execPath,
  ) {}

  connect(target: ConnectTarget, signal?: AbortSignal): Promise<TimedTcp> {
    const child = this.start();
    const id = this.nextId++;
    return new Promise<TimedTcp>((resolve, reject) => {
      const settle = (e: Error) => {
        if (!this.forget(id)) return;
        if (child.connected) child.send({ cancel: id }, () => undefined);
        reject(e);
      };
      const onAbort = () => settle(Object.assign(new Error('connecting was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
      const timer = setTimeout(() => settle(Object.assign(new Error(`connect timeout after ${target.timeoutMs} ms`), { name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT' })), target.timeoutMs);
      this.pending.set(id, {
        resolve: (t) => { signal?.removeEventListener('abort', onAbort); resolve(t); },
        reject: (e) => { signal?.removeEventListener('abort', onAbort); reject(e); },
        timer,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.hold();
      // With a callback a failed write (the child gone or never started) is reported here, not thrown.
      child.send({ id, addresses: target.addresses, port: target.port }, (err) => {
        if (err) settle(new TransportError('E_CONNECT_TIMER', `the connect timer process cannot be reached (${err.message}); connection not made`));
      });
    });
  }

  /**
   * False once the child could not be started (no process may be spawned here): connects are then
   * made in the caller's loop instead (timing-connector.ts).
   */
  get usable(): boolean {
    return !this.unavailable;
  }

  /** The child is running and listening: a connect now waits for no process start. */
  get warm(): boolean {
    return this.listening !== undefined && this.listening === this.child && this.child.connected;
  }

  /** Starts the child if it is not running; true once it listens, false if it could not start or died first. */
  warmUp(): Promise<boolean> {
    if (this.unavailable) return Promise.resolve(false);
    if (this.warm) return Promise.resolve(true);
    this.start();
    return new Promise((resolve) => this.upWaiters.push(resolve));
  }

  /** The child's process id while it runs (what it costs is measured on it: bench/handshake/connect-cost.ts). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the child; pending connects fail with `E_CONNECT_TIMER`. */
  close(): void {
    this.child?.kill();
  }

  private start(): ChildProcess {
    if (this.child?.connected) return this.child;
    // stdout is never the child's: on the native host it carries frames only.
    const child = spawn(this.command, ['-e', this.source], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: connectTimerEnv(process.env) });
    child.on('message', (m: ChildMessage, socket?: Socket) => {
      if (m.ready !== true) this.received(m, socket);
      else if (this.child === child) {
        this.listening = child;
        this.settleWaiters(true);
      }
    });
    const gone = (why: string) => {
      if (this.child === child) {
        this.child = undefined;
        this.settleWaiters(false);
      }
      for (const [id, p] of this.pending) {
        this.forget(id);
        p.reject(new TransportError('E_CONNECT_TIMER', `the connect timer process ${why}; connection not made`));
      }
    };
    // 'error' is a spawn that failed; a later one (a write to a channel closing) changes nothing.
    child.on('error', (e) => {
      if (child.pid === undefined) this.unavailable = true;
      gone(`${child.pid === undefined ? 'could not run' : 'failed'} (${e.message})`);
    });
    child.once('exit', (code, sig) => gone(`exited (${sig ?? code})`));
    this.child = child;
    this.release();
    return child;
  }

  private settleWaiters(up: boolean): void {
    for (const resolve of this.upWaiters.splice(0)) resolve(up);
  }

  private received(m: ChildMessage, socket: Socket | undefined): void {
    const p = this.pending.get(m.id);
    if (!p) {
      socket?.destroy(); // cancelled or timed out while the child was connecting
      return;
    }
    this.forget(m.id);
    if (socket && m.tcpMs !== undefined) {
      p.resolve({ socket, tcpMs: m.tcpMs, remoteAddress: m.remoteAddress ?? socket.remoteAddress ?? '' });
    } else {
      p.reject(Object.assign(new Error(m.error?.message ?? 'connect failed'), { code: m.error?.code }));
    }
  }

  private forget(id: number): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (this.pending.size === 0) this.release();
    return true;
  }

  /** While a connect is pending the child and its channel keep this process alive; otherwise not. */
  private hold(): void {
    this.child?.ref();
    (this.child?.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private release(): void {
    this.child?.unref();
    (this.child?.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}

/**
 * The child's environment: this process's, less what would make its Node start do work it never
 * uses. Node 20 loads `NODE_EXTRA_CA_CERTS` with its own root store when a process starts, before
 * any code runs (nodejs/node#23354); a system bundle named there makes that most of a start's CPU.
 * The child opens TCP connections only, and its start overlaps a page's first round trips, on the
 * cores the page's own work needs (bench/README.md, "What a fresh process pays at a load's start").
 */
export function connectTimerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _unused, ...rest } = env;
  return rest;
}

let shared: ConnectTimer | undefined;

/** The process's one connect timer: every connector shares its child. */
export function sharedConnectTimer(): ConnectTimer {
  shared ??= new ConnectTimer();
  return shared;
}
