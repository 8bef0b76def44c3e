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

/**
 * ms of CPU used so far by `rootPid` and its descendants, by role (0s where /proc is absent).
 * `procRoot` is where /proc is mounted (a test points it at a tree of its own).
 */
export function processTreeCpu(rootPid: number | undefined, procRoot = '/proc'): CpuByRole {
  const out = emptyCpu();
  if (rootPid === undefined) return out;
  let pids: number[];
  try {
    pids = readdirSync(procRoot).filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return out;
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = readOr(`${procRoot}/${pid}/stat`, parentPidOfStat);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const seen = new Set<number>();
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    // A pid reused while we read could make a cycle; each process counts once.
    if (seen.has(pid)) continue;
    seen.add(pid);
    const cmdline = pid === rootPid ? undefined : readOr(`${procRoot}/${pid}/cmdline`, (t) => t);
    // Firefox's children all run as `-contentproc … tab|socket|…`: their names tell them apart.
    const role = pid === rootPid ? 'browser'
      : cmdline === undefined ? 'other'
        : isFirefoxChild(cmdline) ? (readOr(`${procRoot}/${pid}/comm`, roleOfComm) ?? 'other')
          : roleOfCmdline(cmdline);
    out[role] += processCpuMs(pid, procRoot);
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

/**
 * The parent pid in a `/proc/PID/stat` line (its 4th field), undefined if the line is not one.
 * The command name (2nd field, in parentheses) may hold spaces and parentheses: fields resume
 * after the last ')'.
 */
export function parentPidOfStat(stat: string): number | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = stat.slice(close + 2).split(' ');
  const ppid = fields[1];
  return ppid !== undefined && /^\d+$/.test(ppid) ? Number(ppid) : undefined;
}

/** Nanoseconds a thread has run on a CPU: the first of `/proc/…/schedstat`'s three fields (run, wait, slices); NaN if malformed. */
export function runNsOfSchedstat(schedstat: string): number {
  const fields = schedstat.trim().split(/\s+/);
  return fields.length === 3 && fields.every((f) => /^\d+$/.test(f)) ? Number(fields[0]) : Number.NaN;
}

/**
 * The role of a non-root process of the browser's tree, from its `/proc/PID/cmdline`: arguments
 * NUL-separated (node, sh), or one space-joined string where the process rewrote its title
 * (Chromium's children do), so an argument holding a space reads as two words.
 */
export function roleOfCmdline(cmdline: string): ProcessRole {
  const args = cmdline.split(/[\0 ]+/).filter(Boolean);
  if (args.includes('--extension-process')) return 'extension';
  if (args.includes('--type=renderer')) return 'page';
  if (args.some((a) => a.startsWith('--utility-sub-type=network.mojom.NetworkService'))) return 'network';
  // The native host: Chromium starts the launcher `getlist install` wrote, which execs node on bin/getlist.js.
  const child = !args.some((a) => a.startsWith('--type='));
  if (child && (/(^|\/)node$/.test(args[0] ?? '') || args.some((a) => /(^|\/)getlist(\.js)?$/.test(a)))) return 'host';
  return 'other';
}

/** A Firefox child process (content, socket, RDD, utility): started as `firefox -contentproc …`. */
export function isFirefoxChild(cmdline: string): boolean {
  return cmdline.split(/[\0 ]+/).includes('-contentproc');
}

/**
 * The role of a Firefox child from its process name (`/proc/PID/comm`, which Firefox sets per
 * content-process type; its arguments say only `tab`): `WebExtensions` hosts the extension's
 * background page (content scripts run in the page's process, as in Chromium); web content
 * (`Isolated Web Co`, one per site with Fission, or a preallocated `Web Content`) is the page;
 * `Socket Process` is the network. Chromium's children never carry these names.
 */
export function roleOfComm(comm: string): ProcessRole {
  const name = comm.trim();
  if (name === 'WebExtensions') return 'extension';
  if (name === 'Isolated Web Co' || name === 'Web Content') return 'page';
  if (name === 'Socket Process') return 'network';
  return 'other';
}

/** ms of CPU all threads of `pid` have used so far (threads that ended are not counted); 0 if it is gone. */
export function processCpuMs(pid: number, procRoot = '/proc'): number {
  let ns = 0;
  let tids: string[];
  try {
    tids = readdirSync(`${procRoot}/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tids) {
    // A thread that ended between the listing and the read counts 0.
    const run = readOr(`${procRoot}/${pid}/task/${tid}/schedstat`, runNsOfSchedstat);
    if (run !== undefined && Number.isFinite(run)) ns += run;
  }
  return ns / 1e6;
}

function readOr<T>(path: string, parse: (text: string) => T): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return parse(text);
}
