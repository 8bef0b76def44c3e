import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Why the namespace tests cannot run here, or undefined when they can (root, and not GETLIST_NETNS=0). */
export function netnsSkipReason(): string | undefined {
  if (process.env.GETLIST_NETNS === '0') return 'GETLIST_NETNS=0';
  if (process.platform !== 'linux') return `network namespaces need Linux, this is ${process.platform}`;
  if (process.getuid?.() !== 0) return 'not root (the link emulator needs root for namespaces and TUN devices)';
  return undefined;
}

/** `describe`, or `describe.skip` with the reason printed once. */
export function describeNetns(name: string, body: () => void): void {
  describeUnless(netnsSkipReason(), name, body);
}

/**
 * Why a benchmark cell that loads pages with the built CLI and a real browser on the link cannot
 * run here: the namespace reasons, GETLIST_E2E=0, or no `npm run build` under `root`.
 */
function browserCellSkipReason(root: string): string | undefined {
  const netns = netnsSkipReason();
  if (netns !== undefined) return netns;
  if (process.env.GETLIST_E2E === '0') return 'GETLIST_E2E=0 (no browser)';
  if (!existsSync(join(root, 'dist', 'getlist.js'))) return 'dist/getlist.js is not built (npm run build)';
  return undefined;
}

/** `describe` for such a cell, or `describe.skip` with the reason printed once. */
export function describeBrowserCell(root: string, name: string, body: () => void): void {
  describeUnless(browserCellSkipReason(root), name, body);
}

/** The uid the rootless tests run as: a real, unprivileged process (nobody). */
export const UNPRIVILEGED_UID = 65534;

/** `setpriv` arguments that run the rest of the command line as UNPRIVILEGED_UID with no groups and no capabilities. */
export function asUnprivileged(command: readonly string[]): string[] {
  return [`--reuid=${UNPRIVILEGED_UID}`, `--regid=${UNPRIVILEGED_UID}`, '--clear-groups', ...command];
}

/**
 * Why the rootless tests cannot run here: they need root (to become uid 65534 with setpriv) and a
 * kernel that lets that user create a user namespace with a network namespace in it.
 */
export function rootlessSkipReason(): string | undefined {
  const base = netnsSkipReason();
  if (base) return base;
  const r = spawnSync('setpriv', asUnprivileged(['unshare', '--user', '--map-root-user', '--net', 'true']), { encoding: 'utf8', timeout: 10_000 });
  if (r.error) return `setpriv could not run (${r.error.message})`;
  if (r.status !== 0) return `unprivileged user namespaces are not available here: ${r.stderr.trim() || `status ${r.status}`}`;
  return undefined;
}

export function describeRootless(name: string, body: () => void): void {
  describeUnless(rootlessSkipReason(), name, body);
}

function describeUnless(reason: string | undefined, name: string, body: () => void): void {
  if (reason) {
    process.stdout.write(`skipping "${name}": ${reason}\n`);
    describe.skip(name, body);
  } else describe(name, body);
}
