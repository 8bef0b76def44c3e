/**
 * CPU time of one browser's process tree, by role, from Linux `/proc` (every thread's
 * `schedstat`, nanoseconds). On a shared machine a page's wall-clock times swing by tens of per
 * cent from load to load, while the CPU a piece of the extension spends per load barely moves:
 * it is what attributes the extension's cost, piece by piece, and on a busy machine it is that
 * CPU which lengthens the page's load. Threads that end between two readings are missed (their
 * time is small: Chromium keeps its threads).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Where Chromium runs the work: `extension` is the renderer hosting the extension's service worker. */
export type ProcessRole = 'browser' | 'network' | 'page' | 'extension' | 'host' | 'other';

export const PROCESS_ROLES: readonly ProcessRole[] = ['browser', 'network', 'page', 'extension', 'host', 'other'];

export type CpuByRole = Record<ProcessRole, number>;

export function emptyCpu(): CpuByRole {
  return { browser: 0, network: 0, page: 0, extension: 0, host: 0, other: 0 };
}

/** ms of CPU used so far by `rootPid` and its descendants, by role (0s where /proc is absent). */
export function processTreeCpu(rootPid: number | undefined): CpuByRole {
  const out = emptyCpu();
  if (rootPid === undefined) return out;
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return out;
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    out[roleOf(pid, pid === rootPid)] += threadsCpuMs(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** b − a, role by role. */
export function cpuDelta(a: CpuByRole, b: CpuByRole): CpuByRole {
  const out = emptyCpu();
  for (const r of PROCESS_ROLES) out[r] = b[r] - a[r];
  return out;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function roleOf(pid: number, isRoot: boolean): ProcessRole {
  if (isRoot) return 'browser';
  let cmd: string;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'other';
  }
  if (cmd.includes('--extension-process')) return 'extension';
  if (cmd.includes('--type=renderer')) return 'page';
  if (cmd.includes('network.mojom.NetworkService')) return 'network';
  if (!cmd.includes('--type=') && /\bnode\b|getlist/.test(cmd)) return 'host';
  return 'other';
}

function threadsCpuMs(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    return 0;
  }
  return ns / 1e6;
}
