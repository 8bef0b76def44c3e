/** The forwarder child: starts it, waits until its TUN devices exist, asks it for counters, stops it. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { TUN_DEV } from './link-addresses';
import { LinkError } from './link-error';
import type { DirectionConfig, LinkConfig } from './link-options';

/** Counters for one direction since the forwarder started. */
export interface DirectionStats {
  /** IPv4 packets read from the sending side's TUN device, and their bytes (IP header included). */
  packetsIn: number;
  bytesIn: number;
  /** Packets written to the receiving side, and their bytes. */
  packetsOut: number;
  bytesOut: number;
  /** Dropped by the random-loss draw. */
  droppedLoss: number;
  /** Dropped because the byte-bounded queue was full (drop-tail). */
  droppedQueue: number;
  /** Dropped because 65,536 packets were already in flight (a sign of a mis-sized link). */
  droppedOverflow: number;
  /** Dropped because the receiving TUN device refused the write. */
  droppedWrite: number;
  /** Non-IPv4 frames, which are never forwarded. */
  ignored: number;
  queuedBytes: number;
  maxQueuedBytes: number;
  /** Packets accepted but not yet delivered (queued or in propagation). */
  inFlight: number;
}

export interface ForwarderStats {
  /** Increases by one per snapshot. */
  seq: number;
  /** True for the snapshot written as the forwarder exits. */
  final: boolean;
  elapsedMs: number;
  /** Client → server. */
  up: DirectionStats;
  /** Server → client. */
  down: DirectionStats;
}

const READY_TIMEOUT_MS = 5_000;
const STATS_TIMEOUT_MS = 2_000;
const STOP_TIMEOUT_MS = 2_000;

function directionArgs(name: 'up' | 'down', d: DirectionConfig): string[] {
  return [`${name}-rate=${d.bitsPerSec}`, `${name}-delay-ns=${d.delayNs}`, `${name}-queue=${d.queueBytes}`, `${name}-loss=${d.loss}`];
}

export class ForwarderProcess {
  private lastStats: ForwarderStats | undefined;
  private waiters: Array<{ after: number; resolve: (s: ForwarderStats) => void }> = [];
  private stderr = '';
  private exitedPromise: Promise<void>;
  exited = false;

  private constructor(private readonly child: ChildProcessByStdio<null, Readable, Readable>) {
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      this.stderr = (this.stderr + s).slice(-4000);
    });
    // 'close', not 'exit': by then stdout has been read to the end, final counters included.
    this.exitedPromise = new Promise((resolve) => child.once('close', () => {
      this.exited = true;
      resolve();
    }));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Spawns the forwarder and resolves once it has created `gl0` in both namespaces. */
  static async start(binary: string, config: LinkConfig, clientNs: string, serverNs: string): Promise<ForwarderProcess> {
    const args = [
      `client-ns=${clientNs}`, `server-ns=${serverNs}`, `dev=${TUN_DEV}`, `seed=${config.seed}`,
      `max-seconds=${config.maxLifetimeSeconds}`, ...directionArgs('up', config.up), ...directionArgs('down', config.down),
    ];
    const fwd = new ForwarderProcess(spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    await fwd.waitReady();
    return fwd;
  }

  private waitReady(): Promise<void> {
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => fail(`no ready line within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
      const fail = (why: string): void => {
        clearTimeout(timer);
        this.child.kill('SIGKILL');
        reject(new LinkError('E_LINK_SETUP', `forwarder did not start: ${why}${this.stderr ? `; stderr: ${this.stderr.trim()}` : ''}`));
      };
      this.child.once('error', (err) => fail(err.message));
      this.child.once('exit', (code, signal) => {
        if (!ready) setImmediate(() => fail(`exited with ${signal ?? `status ${code}`}`));
      });
      createInterface({ input: this.child.stdout }).on('line', (line) => {
        let msg: { type?: string };
        try {
          msg = JSON.parse(line) as { type?: string };
        } catch {
          return; // not ours: the forwarder only writes JSON lines
        }
        if (msg.type === 'ready' && !ready) {
          ready = true;
          clearTimeout(timer);
          resolve();
        } else if (msg.type === 'stats') this.onStats(line);
      });
    });
  }

  private onStats(line: string): void {
    const raw = JSON.parse(line) as Omit<ForwarderStats, 'elapsedMs'> & { elapsedNs: number };
    const { elapsedNs, ...rest } = raw;
    const stats: ForwarderStats = { ...rest, elapsedMs: elapsedNs / 1e6 };
    this.lastStats = stats;
    const due = this.waiters.filter((w) => stats.seq > w.after);
    this.waiters = this.waiters.filter((w) => stats.seq <= w.after);
    for (const w of due) w.resolve(stats);
  }

  private nextStats(): Promise<ForwarderStats> {
    const after = this.lastStats?.seq ?? 0;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new LinkError('E_LINK_FORWARDER', `forwarder gave no counters within ${STATS_TIMEOUT_MS} ms`)), STATS_TIMEOUT_MS);
      this.waiters.push({ after, resolve: (s) => { clearTimeout(timer); resolve(s); } });
    });
  }

  /** A fresh snapshot of the counters (SIGUSR1 → one JSON line). */
  async stats(): Promise<ForwarderStats> {
    if (this.exited) {
      if (this.lastStats?.final) return this.lastStats;
      throw new LinkError('E_LINK_FORWARDER', `forwarder exited${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
    }
    const next = this.nextStats();
    this.child.kill('SIGUSR1');
    return next;
  }

  /** SIGTERM, then SIGKILL after 2 s; resolves with the final counters when the forwarder wrote them. */
  async stop(): Promise<ForwarderStats | undefined> {
    if (!this.exited) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await this.exitedPromise;
      clearTimeout(timer);
    }
    return this.lastStats?.final ? this.lastStats : undefined;
  }

  /** For exit handlers: no waiting, the kernel removes the devices when the process is gone. */
  killSync(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
