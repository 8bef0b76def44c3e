import { spawn } from 'node:child_process';
import type { Link } from '../link/link-emulator';
import { childOutput } from '../run/child-output';

/** libpcap's block timeout as tcpdump sets it (its `-w` without `--immediate-mode`). */
const BLOCK_TIMEOUT_MS = 1000;

/**
 * tcpdump on the link's device (`gl0`) in one namespace, every TCP packet as that side's kernel sent
 * or received it, written to `file` as a pcap. libpcap's ring hands packets to tcpdump in blocks,
 * a block at the latest when its timeout (1 s) ends, and a block still filling when tcpdump is
 * stopped is lost: so a large ring (no drops in a burst at link rate, as immediate mode or a pipe
 * to this process had) and a stop that first waits out the block timeout. Needs tcpdump.
 */
export function startCapture(exec: Link['execInClient'], file: string) {
  const child = exec('tcpdump', ['-i', 'gl0', '-B', '32768', '-U', '-n', '-s', '0', '-Z', 'root', '-w', file, 'tcp'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let ready = false;
  const started = new Promise<void>((res) => child.stderr?.on('data', (b: Buffer) => { if (!ready && String(b).includes('listening')) { ready = true; res(); } }));
  return {
    started: Promise.race([started, new Promise<void>((r) => setTimeout(r, 2000))]),
    stop: async () => {
      await new Promise((r) => setTimeout(r, BLOCK_TIMEOUT_MS + 300));
      const closed = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('close', r));
      child.kill('SIGINT');
      await closed;
    },
  };
}

/**
 * A capture's packets as tcpdump prints them (`-n -tt -S`: numeric, epoch seconds, absolute
 * sequence numbers), for tail-packets.ts `parseTcpdump`. A capture cut short by its stop still
 * prints what it holds (tcpdump then exits non-zero): its lines are kept.
 */
export async function readCapture(file: string): Promise<string> {
  const out = await childOutput(spawn('tcpdump', ['-r', file, '-n', '-tt', '-S'], { stdio: ['ignore', 'pipe', 'pipe'] }), 60_000, 'tcpdump -r');
  return out.stdout;
}
