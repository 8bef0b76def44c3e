/**
 * Rootless mode: building links without root, where the kernel lets unprivileged users create user
 * namespaces. A process that is not root re-runs itself inside a wrapper (`unshare`; see
 * rootless-script.ts for the flags and why each is there) in which it keeps its uid but holds all
 * capabilities over its own user, mount, network and pid namespaces. /var/run/netns and
 * /etc/netns are private tmpfs mounts there (made in a writable copy of /run or /etc when they do
 * not exist), so `startLink` takes its root code path unchanged: `ip netns add`, TUN devices,
 * sysctls, hosts files and `ip netns exec` children all work, and the host sees none of it. When
 * the wrapped process exits, everything it started dies with it.
 *
 * How an entry point uses it: call `ensureLinkPrivileges()` once, after parsing its arguments and
 * before any `startLink`.
 * - As root it resolves 'root' at once and nothing changes.
 * - Inside the wrapper it resolves 'rootless'.
 * - Otherwise it probes the wrapper (one short `unshare` run that tries every step a link takes),
 *   then runs the same script with the same arguments inside the wrapper, with stdio inherited and
 *   INT/TERM/HUP passed on (a second one kills the wrapped run outright), and exits this process
 *   with the wrapped run's status; the promise never settles. If the probe fails it rejects with
 *   `E_LINK_NEEDS_ROOT`, saying what was tried and what failed.
 *
 *   import { ensureLinkPrivileges } from './link/rootless';
 *   async function main(argv: readonly string[]): Promise<number> {
 *     const plan = planFrom(argv);           // usage errors first: no re-run for those
 *     await ensureLinkPrivileges();
 *     …
 *
 * Everything the wrapped run writes outside /var/run/netns and /etc/netns (results, temp dirs) goes
 * to the real file system, owned by the invoking user.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { NETNS_ETC } from './cleanup-registry';
import { LinkError } from './link-error';
import {
  CAP_NET_ADMIN, CAP_SYS_ADMIN, ROOTLESS_ENV, SCRIPT_FAILED, UNSHARE_FLAGS, effectiveCaps, hasCap, isInitialUserNs, planMounts, unshareArgs,
  wrapperScript, type MountPlan,
} from './rootless-script';

export { ROOTLESS_ENV } from './rootless-script';

/** How this process can build links: as real root, or as an unprivileged user inside the wrapper. */
export type LinkPrivilege = 'root' | 'rootless';

/** iproute2's NETNS_RUN_DIR (also where forwarder.c opens namespaces) and NETNS_ETC_DIR. */
export const NETNS_RUN = '/var/run/netns';
const NETNS_DIRS = [NETNS_RUN, NETNS_ETC];
const TUN = '/dev/net/tun';
const PROBE_TIMEOUT_MS = 15_000;
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

/**
 * True inside the wrapper: the marker is set, this is not the initial user namespace, and
 * CAP_NET_ADMIN and CAP_SYS_ADMIN are effective.
 */
export function inRootlessWrapper(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[ROOTLESS_ENV] !== '1') return false;
  const caps = effectiveCaps(readOr('/proc/self/status', ''));
  return !isInitialUserNs(readOr('/proc/self/uid_map', '0 0 4294967295')) && hasCap(caps, CAP_NET_ADMIN) && hasCap(caps, CAP_SYS_ADMIN);
}

/** 'rootless' inside the wrapper, 'root' for uid 0 outside it, else undefined. */
export function currentLinkPrivilege(): LinkPrivilege | undefined {
  if (inRootlessWrapper()) return 'rootless';
  return process.getuid?.() === 0 ? 'root' : undefined;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `path` with symlinks resolved (only its parent's, when it does not exist): /var/run/netns → /run/netns. */
function realDir(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return join(realpathSync(dirname(path)), basename(path));
  }
}

/**
 * The mount plan for this machine. A scratch directory is created only when a directory is
 * missing; the caller removes it with `removeScratch`.
 */
function currentMountPlan(): MountPlan {
  const dirs = NETNS_DIRS.map(realDir);
  const missing = dirs.filter((d) => !isDir(d));
  const parents = missing.map(dirname);
  // The scratch tmpfs must not sit under a directory that a mirror step covers.
  const base = [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'].map((d) => realDir(d)).find((d) => isDir(d) && !parents.some((p) => d === p || d.startsWith(`${p}/`)));
  if (missing.length > 0 && base === undefined) {
    throw new LinkError('E_LINK_NEEDS_ROOT', `rootless mode: ${missing.join(' and ')} do not exist and there is no temp directory outside ${parents.join(', ')} to build them in`);
  }
  const scratch = missing.length > 0 && base !== undefined ? mkdtempSync(join(base, 'getlist-rootless-')) : '';
  return planMounts(dirs, isDir, scratch);
}

function removeScratch(plan: MountPlan): void {
  if (plan.scratch !== undefined) rmSync(plan.scratch, { recursive: true, force: true });
}

/** Why user namespaces may be refused, from the sysctls that control them (only the ones that forbid). */
function userNamespaceHints(): string[] {
  const hints: string[] = [];
  const read = (path: string): string | undefined => readOr(path, '').trim() || undefined;
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') hints.push('kernel.unprivileged_userns_clone is 0');
  if (read('/proc/sys/user/max_user_namespaces') === '0') hints.push('user.max_user_namespaces is 0');
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') hints.push('kernel.apparmor_restrict_unprivileged_userns is 1');
  return hints;
}

function needsRoot(what: string): LinkError {
  const uid = process.getuid?.() ?? -1;
  return new LinkError('E_LINK_NEEDS_ROOT', `not root (uid ${uid}) and rootless mode is not available: ${what}. Run as root, or allow unprivileged user namespaces`);
}

/**
 * Tries the wrapper once without running anything in it: user namespace, mounts, a TUN device, the
 * reno sysctl, `ip netns add` and `exec`. Throws `E_LINK_NEEDS_ROOT` naming the step that failed.
 */
export function probeRootless(): void {
  if (process.platform !== 'linux') throw needsRoot(`network namespaces need Linux, this is ${process.platform}`);
  try {
    accessSync(TUN, constants.R_OK | constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw needsRoot(code === 'ENOENT' ? `${TUN} does not exist (modprobe tun)` : `${TUN} is not readable and writable by this user (${code ?? 'error'}); the forwarder opens it inside the wrapper`);
  }
  const plan = currentMountPlan();
  try {
    const r = spawnSync('unshare', unshareArgs(wrapperScript(plan, 'probe')), { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.error) {
      const code = (r.error as NodeJS.ErrnoException).code;
      throw needsRoot(code === 'ENOENT' ? 'unshare (util-linux) is not installed' : `\`unshare\` could not run: ${r.error.message}`);
    }
    if (r.status === 0) return;
    const stderr = r.stderr.trim().replace(/\s*\n\s*/g, '; ') || `exit status ${r.status ?? r.signal}`;
    const tried = `tried \`unshare ${UNSHARE_FLAGS.join(' ')}\``;
    if (r.status === SCRIPT_FAILED) throw needsRoot(`${tried}: the user namespace works, but a step inside failed: ${stderr}`);
    if (/unrecognized option|invalid option/.test(stderr)) throw needsRoot(`${tried}: ${stderr} (util-linux 2.38 or later is needed for --map-current-user)`);
    const hints = userNamespaceHints();
    throw needsRoot(`${tried}: ${stderr}${hints.length ? ` (${hints.join(', ')})` : ''}`);
  } finally {
    removeScratch(plan);
  }
}

/** The wrapper's pid 1 (the `sh` that `unshare --fork` started), seen from here. */
function initPid(unsharePid: number): number | undefined {
  const first = Number(readOr(`/proc/${unsharePid}/task/${unsharePid}/children`, '').trim().split(/\s+/)[0]);
  return Number.isInteger(first) && first > 0 ? first : undefined;
}

/**
 * Runs `command` (argv, program first) inside the wrapper with stdio inherited and resolves with its
 * exit status (128 + n when it died of signal n). The first INT, TERM or HUP sent to this process
 * is passed on to the wrapped command (`unshare` itself blocks INT and TERM while it waits); a
 * second one kills the whole wrapper.
 */
export function runRootless(command: readonly string[]): Promise<number> {
  const plan = currentMountPlan();
  const child = spawn('unshare', unshareArgs(wrapperScript(plan, 'run'), command), { stdio: 'inherit', env: { ...process.env, [ROOTLESS_ENV]: '1' } });
  let signalled = 0;
  const forward = (signal: NodeJS.Signals): void => {
    const init = child.pid === undefined ? undefined : initPid(child.pid);
    try {
      // A second signal, or no pid 1 to pass it to: SIGKILL to unshare, and --kill-child then
      // takes everything inside down.
      if (++signalled > 1 || init === undefined) child.kill('SIGKILL');
      else process.kill(init, signal);
    } catch {
      // already gone
    }
  };
  for (const s of FORWARDED_SIGNALS) process.on(s, forward);
  return new Promise((resolve, reject) => {
    const done = (): void => {
      for (const s of FORWARDED_SIGNALS) process.off(s, forward);
      removeScratch(plan);
    };
    child.once('error', (err) => {
      done();
      reject(needsRoot(`\`unshare\` could not run: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      done();
      resolve(code ?? 128 + (signal ? osConstants.signals[signal] : 0));
    });
  });
}

/**
 * Makes sure this process can build links; see the header for how entry points call it. Re-runs
 * `process.execPath` with this process's exec arguments, script and arguments.
 */
export async function ensureLinkPrivileges(): Promise<LinkPrivilege> {
  if (process.env[ROOTLESS_ENV] === '1') {
    if (inRootlessWrapper()) return 'rootless';
    throw new LinkError('E_LINK_NEEDS_ROOT', `${ROOTLESS_ENV}=1 is set, but this process is not inside the rootless wrapper (it lacks CAP_NET_ADMIN and CAP_SYS_ADMIN in a user namespace of its own); unset ${ROOTLESS_ENV}`);
  }
  if (process.getuid?.() === 0) return 'root';
  probeRootless();
  const status = await runRootless([process.execPath, ...process.execArgv, ...process.argv.slice(1)]);
  return process.exit(status);
}
