import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import path from 'node:path';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore } from '../../native-host/store/lmdb-store';
import type { HostMessage } from '../../src/protocol';
import { FrameReader } from './frame-reader';
import { startTestOrigin, type TestOrigin } from './test-origin';

const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A 4-byte length prefix in native byte order, as browsers write it. */
export function lengthPrefix(length: number): Buffer {
  const head = Buffer.alloc(4);
  if (endianness() === 'LE') head.writeUInt32LE(length, 0);
  else head.writeUInt32BE(length, 0);
  return head;
}

/** One frame as a browser writes it: native-endian length, then the bytes. */
export function frame(payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([lengthPrefix(body.length), body]);
}

/**
 * `getlist host` started as Chrome starts a native host: `bin/getlist.js host <caller origin>`
 * with pipes on stdio and a minimal environment (a private HOME and GETLIST_DATA_DIR). Needs
 * `npm run build` first.
 */
export class SpawnedHost {
  readonly child: ChildProcessWithoutNullStreams;
  readonly reader = new FrameReader();
  readonly dataDir: string;
  readonly exited: Promise<Exit>;
  /** Resolves once the process has exited and its stdout has been read to the end. */
  readonly closed: Promise<void>;
  private stderrText = '';
  private exitedAt: number | undefined;

  constructor(
    options: {
      /** What the browser appends. @default Chrome's: the caller's origin */
      args?: readonly string[];
      /** Overrides of the minimal environment, given the fresh data dir. */
      env?: (dataDir: string) => Record<string, string>;
    } = {},
  ) {
    this.dataDir = mkdtempSync(path.join(tmpdir(), 'getlist-host-'));
    const args = options.args ?? ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'];
    this.child = spawn(process.execPath, [BIN, 'host', ...args], {
      stdio: 'pipe',
      env: { PATH: '/usr/bin:/bin', HOME: this.dataDir, GETLIST_DATA_DIR: this.dataDir, ...options.env?.(this.dataDir) },
    });
    this.child.stdout.on('data', (d: Buffer) => this.reader.push(d));
    this.child.stderr.on('data', (d: Buffer) => (this.stderrText += d.toString('utf8')));
    this.child.stdin.on('error', () => undefined); // EPIPE once the host has exited on its own
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitedAt = performance.now();
        resolve({ code, signal });
      });
    });
    // 'close' comes after stdout has been read to its end.
    this.closed = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        this.reader.end(`the host exited (code ${code}, signal ${signal})\nstderr:\n${this.stderrText}`);
        resolve();
      });
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  send(message: unknown): void {
    this.child.stdin.write(frame(JSON.stringify(message)));
  }

  sendRaw(bytes: Buffer): void {
    this.child.stdin.write(bytes);
  }

  /** Sends a request and waits for the first message carrying its id. */
  async ask(message: { id: string | number } & Record<string, unknown>): Promise<HostMessage> {
    this.send(message);
    return this.reader.waitFor((m) => m.id === message.id, `a reply to ${JSON.stringify(message.id)}`);
  }

  /** Sends a ping and expects its pong: the host is alive and still reading frames in order. */
  async expectAlive(id: string): Promise<void> {
    const reply = await this.ask({ type: 'ping', id });
    if (reply.type !== 'pong') throw new Error(`ping ${id} got ${JSON.stringify(reply)}`);
  }

  /** Closes stdin (the browser closed the port) and returns the exit with the ms it took. */
  async endInput(): Promise<Exit & { ms: number }> {
    const t0 = performance.now();
    this.child.stdin.end();
    return this.exitSince(t0);
  }

  async terminate(): Promise<Exit & { ms: number }> {
    const t0 = performance.now();
    this.child.kill('SIGTERM');
    return this.exitSince(t0);
  }

  /** The exit, with the ms from `t0` (a `performance.now()`) to it. */
  async exitSince(t0: number): Promise<Exit & { ms: number }> {
    const exit = await this.exited;
    return { ...exit, ms: (this.exitedAt as number) - t0 };
  }

  /** Closes this side's end of the host's stdout, as a browser that has gone does: the host's next frame meets EPIPE. */
  closeStdoutReader(): void {
    this.child.stdout.destroy();
  }

  /** Closes this side's end of the host's stderr: the host's next log line meets EPIPE. */
  closeStderrReader(): void {
    this.child.stderr.destroy();
  }

  /** The page URL of every handshake in the host's store, read by a fresh reader (after the host has gone). */
  async storedPages(): Promise<string[]> {
    const store = await openStore({ dir: storeDirIn(this.dataDir), readOnly: true });
    try {
      const pages: string[] = [];
      for await (const h of store.handshakes()) if (h.pageUrl) pages.push(h.pageUrl);
      return pages;
    } finally {
      await store.close();
    }
  }

  /** `host.log.1` and `host.log` that exist: their text, older first, and each one's size. */
  logFiles(): { text: string; sizes: number[] } {
    const files = ['host.log.1', 'host.log'].map((f) => path.join(this.dataDir, f)).filter((f) => existsSync(f));
    return { text: files.map((f) => readFileSync(f, 'utf8')).join(''), sizes: files.map((f) => statSync(f).size) };
  }

  /** Kills the process if it still runs, waits for stdout to end, and removes the data dir. */
  async dispose(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.closed;
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * For each test of the file: a fresh test origin on port 0 and a spawned host, handed to `use`;
 * afterwards both are closed and the host must not have written anything but well-formed frames.
 */
export function eachWithHostAndOrigin(use: (host: SpawnedHost, origin: TestOrigin) => void): void {
  let host: SpawnedHost | undefined;
  let origin: TestOrigin | undefined;
  beforeEach(async () => {
    origin = await startTestOrigin();
    host = new SpawnedHost();
    use(host, origin);
  });
  afterEach(async () => {
    await host?.dispose();
    await origin?.close();
    expect(host?.reader.violations).toEqual([]);
  });
}
