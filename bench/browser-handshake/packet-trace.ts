/**
 * The independent observer of the browser's connects: tcpdump on the client namespace's end of the
 * link (its TUN device) sees each SYN as the client's kernel sends it and each SYN-ACK as it
 * arrives, timed on the machine's real-time clock — the clock `Date.now()` reads in the page.
 */
import type { ChildProcess } from 'node:child_process';
import { BenchRunError } from '../cli/bench-run-error';
import type { Link } from '../link/link-emulator';
import { TUN_DEV } from '../link/link-addresses';

/** One TCP connection the client opened, as the packets on the link show it. */
export interface TracedConnect {
  /** The client's port: the connection's name. */
  port: number;
  /** Epoch ms the first SYN left the client. */
  synAt: number;
  /** Epoch ms the first SYN-ACK reached the client; undefined if none came. */
  synAckAt: number | undefined;
}

const LINE = /^(\d+\.\d+) IP (\d+\.\d+\.\d+\.\d+)\.(\d+) > (\d+\.\d+\.\d+\.\d+)\.(\d+): Flags \[(S\.?)\]/;

/** tcpdump's `-tt -n` lines (SYN-flagged packets only) → one record per client port, in SYN order. */
export function parseSynTrace(text: string, clientAddr: string): TracedConnect[] {
  const byPort = new Map<number, TracedConnect>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const at = Math.round(Number(m[1]) * 1e6) / 1e3;
    if (m[6] === 'S' && m[2] === clientAddr) {
      const port = Number(m[3]);
      if (!byPort.has(port)) byPort.set(port, { port, synAt: at, synAckAt: undefined });
    } else if (m[6] === 'S.' && m[4] === clientAddr) {
      const c = byPort.get(Number(m[5]));
      if (c && c.synAckAt === undefined) c.synAckAt = at;
    }
  }
  return [...byPort.values()].sort((a, b) => a.synAt - b.synAt);
}

export interface PacketTrace {
  /** Stops the capture and returns the connections it saw. */
  stop(): Promise<TracedConnect[]>;
}

/** Starts tcpdump in the client namespace; resolves once it is capturing. */
export async function startPacketTrace(link: Link): Promise<PacketTrace> {
  const child: ChildProcess = link.execInClient('tcpdump', ['-i', TUN_DEV, '-n', '-tt', '-l', '-p', '--time-stamp-precision=micro', 'tcp[tcpflags] & tcp-syn != 0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchRunError('E_RUN_FAILED', `tcpdump did not start capturing within 5 s: ${err.trim()}`)), 5000);
    child.stderr?.setEncoding('utf8').on('data', (s: string) => {
      err += s;
      if (/listening on/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new BenchRunError('E_RUN_FAILED', `tcpdump exited (${code}) before capturing: ${err.trim()}`));
    });
  });
  return {
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      return parseSynTrace(out, link.clientAddr);
    },
  };
}
