/**
 * The pure half of rootless mode (see rootless.ts): the `unshare` command line, the shell script
 * that runs first inside the new namespaces, and the mount plan that script carries out. Nothing
 * here touches the system, so all of it is unit-tested.
 *
 * The wrapper is
 *
 *   unshare --user --map-current-user --keep-caps --mount --net --pid --fork --kill-child --mount-proc \
 *     -- sh -c SCRIPT getlist-rootless COMMAND...
 *
 * - `--user --map-current-user --keep-caps`: a user namespace in which this process keeps its own
 *   uid but holds every capability (as ambient capabilities, so `ip`, `sysctl`, the forwarder,
 *   nginx and node started below inherit them). The uid is deliberately not mapped to 0: without
 *   privilege only one uid can be mapped, so a process that is root inside cannot switch to another
 *   user, and nginx started as root there cannot start its workers (setgid(nobody) fails).
 *   `--map-current-user` needs util-linux 2.38 or later.
 * - `--mount`: a private mount namespace, so tmpfs mounts over /var/run/netns and /etc/netns give
 *   `ip netns` writable, private directories and leave the host's untouched.
 * - `--net`: `ip netns add` switches back to the caller's network namespace when it is done, which
 *   needs the caller's namespace to be owned by the new user namespace.
 * - `--pid --fork --kill-child --mount-proc`: the script runs as pid 1 of a new pid namespace. When
 *   it exits, or when `unshare` dies, the kernel kills every process left in the namespace (nginx,
 *   browsers, the forwarder), and with them the link's namespaces go away. So nothing outlives the
 *   run, even after SIGKILL; as root, `cleanupStale` has to do that after a crash.
 */
import { dirname } from 'node:path';

/** Set, to "1", in the environment of the command run inside the wrapper. */
export const ROOTLESS_ENV = 'GETLIST_LINK_ROOTLESS';
/** $0 of the script; also the source name of its mounts, so they are easy to spot in mountinfo. */
export const SCRIPT_NAME = 'getlist-rootless';
/** The script's exit status when one of its own steps fails (the message is on stderr). */
export const SCRIPT_FAILED = 97;

export const UNSHARE_FLAGS: readonly string[] = [
  '--user', '--map-current-user', '--keep-caps', '--mount', '--net', '--pid', '--fork', '--kill-child', '--mount-proc',
];

/**
 * How one directory is made private and writable inside the wrapper.
 * - tmpfs: the directory exists; a tmpfs is mounted over it.
 * - mirror: the directory is missing and its parent is not writable. The parent is bound
 *   (recursively) into the scratch directory, a tmpfs is mounted over the parent, and each entry of
 *   the original is recreated in it: directories and files are bind-mounted back from the copy,
 *   symlinks are copied. The parent then looks as before (submounts included) but is writable, and
 *   the directory is created in it. An overlay would be simpler, but the kernel refuses one whose
 *   lower layer has mounts inherited from another user namespace below it (/run/user/…, /run/lock).
 */
export type MountStep = { kind: 'tmpfs'; dir: string } | { kind: 'mirror'; dir: string; parent: string };

export interface MountPlan {
  steps: MountStep[];
  /**
   * An empty directory outside the parents of the mirror steps, on which the script mounts a
   * tmpfs; created and removed by the caller. Undefined when no step is a mirror.
   */
  scratch: string | undefined;
}

/**
 * The plan for `dirs` (real paths, no symlinks). `exists` tells which exist as directories;
 * `scratch` is used only if some directory is missing.
 */
export function planMounts(dirs: readonly string[], exists: (dir: string) => boolean, scratch: string): MountPlan {
  const steps: MountStep[] = dirs.map((dir) => (exists(dir) ? { kind: 'tmpfs', dir } : { kind: 'mirror', dir, parent: dirname(dir) }));
  return { steps, scratch: steps.some((s) => s.kind === 'mirror') ? scratch : undefined };
}

/** `s` as one word for sh: single-quoted, with embedded quotes closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * mirror FROM TO: recreates each entry of FROM (dotfiles included) in the new tmpfs TO. An entry may
 * exist already: mount(8) itself creates /run/mount for its utab once a tmpfs is on /run.
 */
const MIRROR_FUNCTION = [
  'mirror() {',
  '  for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do',
  '    t="$2/${e##*/}"',
  '    if [ -L "$e" ]; then ln -s "$(readlink "$e")" "$t"',
  '    elif [ -d "$e" ]; then { [ -d "$t" ] || mkdir "$t"; } && mount --rbind "$e" "$t"',
  '    elif [ -e "$e" ]; then { [ -e "$t" ] || : > "$t"; } && mount --bind "$e" "$t"',
  '    fi || return 1',
  '  done',
  '}',
];

function mountLines(plan: MountPlan): string[] {
  const q = shellQuote;
  const lines: string[] = [];
  if (plan.scratch !== undefined) {
    lines.push(...MIRROR_FUNCTION);
    lines.push(`mount -t tmpfs -o mode=0700 ${SCRIPT_NAME} ${q(plan.scratch)} || fail ${q(`mount a tmpfs on ${plan.scratch}`)}`);
  }
  plan.steps.forEach((step, i) => {
    if (step.kind === 'tmpfs') {
      lines.push(`mount -t tmpfs -o mode=0755,size=16m ${SCRIPT_NAME} ${q(step.dir)} || fail ${q(`mount a tmpfs on ${step.dir}`)}`);
      return;
    }
    const copy = `${plan.scratch ?? ''}/${i}`;
    const why = q(`${step.dir} does not exist; making ${step.parent} writable failed`);
    lines.push(
      `mkdir ${q(copy)} && mount --rbind ${q(step.parent)} ${q(copy)} || fail ${why}`,
      `mount -t tmpfs -o mode=0755 ${SCRIPT_NAME} ${q(step.parent)} || fail ${why}`,
      `mirror ${q(copy)} ${q(step.parent)} || fail ${why}`,
      `mkdir -m 0755 ${q(step.dir)} || fail ${why}`,
    );
  });
  return lines;
}

/** Extra checks of the probe: the steps a link takes, on throwaway names, in the probe's own namespaces. */
const PROBE_LINES = [
  `ip tuntap add dev glprobe0 mode tun || fail 'create a TUN device (ip tuntap add): /dev/net/tun or TUNSETIFF refused'`,
  `sysctl -q -w net.ipv4.tcp_congestion_control=reno || fail 'set net.ipv4.tcp_congestion_control=reno'`,
  `ip netns add glprobe || fail 'ip netns add'`,
  `mkdir /etc/netns/glprobe || fail 'write /etc/netns'`,
  `ip netns exec glprobe ip link set lo up || fail 'ip netns exec'`,
  `exit 0`,
];

/**
 * Runs "$@" as a child and waits for it: stdin is handed through on fd 3 (sh gives a background
 * job /dev/null otherwise), INT/TERM/HUP are passed on (pid 1 ignores signals it has no handler
 * for), and the loop waits again when a trapped signal interrupted `wait` (status > 128) while the
 * child still runs. If the child ended during the trap, the last `wait` returned the interruption,
 * not the child's status: one more `wait` asks for it (127 when the shell no longer knows it). The
 * script exits with the child's status.
 */
const RUN_LINES = [
  'exec 3<&0',
  '"$@" <&3 3<&- &',
  'child=$!',
  'exec 3<&-',
  'for sig in INT TERM HUP; do trap "kill -$sig $child 2>/dev/null" $sig; done',
  'while :; do',
  '  wait $child; status=$?',
  '  kill -0 $child 2>/dev/null || break',
  'done',
  'if [ $status -gt 128 ]; then wait $child; last=$?; [ $last -ne 127 ] && status=$last; fi',
  'exit $status',
];

/**
 * The script run by `sh -c` as pid 1 inside the wrapper. 'probe' sets up and tries each step of a
 * link, then exits 0; 'run' sets up and runs its arguments.
 */
export function wrapperScript(plan: MountPlan, mode: 'probe' | 'run'): string {
  return [
    `fail() { echo "${SCRIPT_NAME}: $1" >&2; exit ${SCRIPT_FAILED}; }`,
    ...mountLines(plan),
    `ip link set lo up || fail 'ip link set lo up'`,
    ...(mode === 'probe' ? PROBE_LINES : RUN_LINES),
  ].join('\n');
}

/** The `unshare` argument list running `command` (empty for a probe) under `script`. */
export function unshareArgs(script: string, command: readonly string[] = []): string[] {
  return [...UNSHARE_FLAGS, '--', 'sh', '-c', script, SCRIPT_NAME, ...command];
}

/** Capability bits checked inside the wrapper (linux/capability.h). */
export const CAP_NET_ADMIN = 12;
export const CAP_SYS_ADMIN = 21;

/** The effective capability set from /proc/<pid>/status ("CapEff:\t000001ffffffffff"). */
export function effectiveCaps(status: string): bigint | undefined {
  const hex = /^CapEff:\s*([0-9a-f]+)$/im.exec(status)?.[1];
  return hex === undefined ? undefined : BigInt(`0x${hex}`);
}

export function hasCap(caps: bigint | undefined, cap: number): boolean {
  return caps !== undefined && (caps & (1n << BigInt(cap))) !== 0n;
}

/** True for the initial user namespace's map ("0 0 4294967295"), false inside any other. */
export function isInitialUserNs(uidMap: string): boolean {
  return /^\s*0\s+0\s+4294967295\s*$/.test(uidMap.trim());
}
