/**
 * Everything a live link owns, so that it is removed on `close()`, on process exit, on
 * SIGINT/SIGTERM/SIGHUP, and (for a process that died too hard for any of those) by `cleanupStale`.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { atExit } from '../cli/exit-actions';
import type { ForwarderProcess } from './forwarder-process';
import { NAMESPACE_PATTERN } from './link-addresses';
import { deleteNamespace, deleteNamespaceSync, listNamespaces, namespacePids } from './netns';

/** `ip netns exec` bind-mounts the files in this directory over /etc (hosts, resolv.conf). */
export const NETNS_ETC = '/etc/netns';

export interface LinkResources {
  namespaces: string[];
  forwarder: ForwarderProcess | undefined;
  /** Processes started in the namespaces through `execInClient` / `execInServer`. */
  children: Set<ChildProcess>;
}

const live = new Set<LinkResources>();
let handlersInstalled = false;

export function removeEtcDir(ns: string): void {
  rmSync(join(NETNS_ETC, ns), { recursive: true, force: true });
}

/** Best-effort, synchronous, idempotent: safe from an 'exit' handler. */
export function releaseSync(res: LinkResources): void {
  for (const child of res.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  res.forwarder?.killSync();
  for (const ns of res.namespaces) {
    deleteNamespaceSync(ns);
    removeEtcDir(ns);
  }
  live.delete(res);
}

function releaseAllSync(): void {
  for (const res of [...live]) releaseSync(res);
}

/** Starts tracking `res`; released at exit or on a stopping signal (exit-actions.ts), registered once per process. */
export function track(res: LinkResources): void {
  live.add(res);
  if (handlersInstalled) return;
  handlersInstalled = true;
  atExit(releaseAllSync);
}

export function untrack(res: LinkResources): void {
  live.delete(res);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes `gl-*` namespaces left by processes that are no longer running (their pid is in the
 * name), together with their /etc/netns files and anything still running inside them.
 * Returns the names removed.
 */
export async function cleanupStale(): Promise<string[]> {
  const removed: string[] = [];
  for (const ns of await listNamespaces()) {
    const owner = NAMESPACE_PATTERN.exec(ns)?.[1];
    if (owner === undefined || Number(owner) === process.pid || pidAlive(Number(owner))) continue;
    for (const pid of await namespacePids(ns)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await deleteNamespace(ns);
    removeEtcDir(ns);
    removed.push(ns);
  }
  return removed;
}
