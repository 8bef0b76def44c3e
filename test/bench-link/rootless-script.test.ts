import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDirs, ensureForwarder } from '../../bench/link/forwarder-build';
import {
  CAP_NET_ADMIN, CAP_SYS_ADMIN, effectiveCaps, hasCap, isInitialUserNs, planMounts, shellQuote, unshareArgs, wrapperScript, type MountPlan,
} from '../../bench/link/rootless-script';

describe('rootless wrapper command line', () => {
  test('unshare gets a user, mount, net and pid namespace, keeps the uid and the capabilities, then runs sh -c', () => {
    expect(unshareArgs('SCRIPT', ['node', 'x.js', 'selfcheck'])).toEqual([
      '--user', '--map-current-user', '--keep-caps', '--mount', '--net', '--pid', '--fork', '--kill-child', '--mount-proc',
      '--', 'sh', '-c', 'SCRIPT', 'getlist-rootless', 'node', 'x.js', 'selfcheck',
    ]);
  });

  test('a probe has no command', () => {
    expect(unshareArgs('S').slice(-4)).toEqual(['sh', '-c', 'S', 'getlist-rootless']);
  });
});

describe('rootless mount plan', () => {
  test('existing directories get a tmpfs; a missing one a mirror of its parent', () => {
    const plan = planMounts(['/run/netns', '/etc/netns'], (d) => d === '/etc/netns', '/tmp/s');
    expect(plan).toEqual({ scratch: '/tmp/s', steps: [{ kind: 'mirror', dir: '/run/netns', parent: '/run' }, { kind: 'tmpfs', dir: '/etc/netns' }] });
    expect(planMounts(['/run/netns'], () => true, '/tmp/s').scratch).toBeUndefined();
  });

  test('the script mounts, checks each step of a link when probing, and runs "$@" otherwise', () => {
    const plan: MountPlan = { scratch: undefined, steps: [{ kind: 'tmpfs', dir: '/run/netns' }, { kind: 'tmpfs', dir: '/etc/netns' }] };
    const probe = wrapperScript(plan, 'probe');
    expect(probe).toContain("mount -t tmpfs -o mode=0755,size=16m getlist-rootless '/run/netns' || fail");
    expect(probe).toContain("mount -t tmpfs -o mode=0755,size=16m getlist-rootless '/etc/netns' || fail");
    expect(probe).toMatch(/ip tuntap add dev glprobe0 mode tun[^\n]*\n.*tcp_congestion_control=reno[^\n]*\nip netns add glprobe[^\n]*\n/);
    expect(probe).not.toContain('"$@"');
    expect(probe).not.toContain('mirror');
    const run = wrapperScript(plan, 'run');
    expect(run).toContain('"$@" <&3 3<&- &');
    expect(run).not.toContain('tuntap');
  });

  test('a mirror step copies the parent aside, covers it with a tmpfs, mirrors it back, then creates the directory', () => {
    const plan: MountPlan = { scratch: "/tmp/it's", steps: [{ kind: 'mirror', dir: '/run/netns', parent: '/run' }] };
    const lines = wrapperScript(plan, 'run').split('\n');
    const at = (prefix: string): number => lines.findIndex((l) => l.startsWith(prefix));
    expect(lines[at('mount -t tmpfs -o mode=0700')]).toContain(`'/tmp/it'\\''s'`);
    expect(lines[at('mkdir ')]).toContain(`mount --rbind '/run' '/tmp/it'\\''s/0'`);
    expect(at("mount -t tmpfs -o mode=0755 getlist-rootless '/run'")).toBeGreaterThan(at('mkdir '));
    expect(at("mirror '/tmp/it'\\''s/0' '/run'")).toBeGreaterThan(at("mount -t tmpfs -o mode=0755 getlist-rootless '/run'"));
    expect(at("mkdir -m 0755 '/run/netns'")).toBeGreaterThan(at("mirror '"));
    expect(at('mirror() {')).toBeLessThan(at("mirror '"));
  });

  test('shellQuote survives sh', () => {
    const nasty = `a 'b' "c" $d \`e\` \\f`;
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(nasty)}`], { encoding: 'utf8' })).toBe(nasty);
  });
});

describe('privilege detection', () => {
  test('reads CapEff and tells the initial user namespace apart', () => {
    const caps = effectiveCaps('Name:\tnode\nCapInh:\t0\nCapEff:\t000001ffffffffff\n');
    expect(hasCap(caps, CAP_NET_ADMIN) && hasCap(caps, CAP_SYS_ADMIN)).toBe(true);
    expect(hasCap(effectiveCaps('CapEff:\t0000000000001000\n'), CAP_SYS_ADMIN)).toBe(false);
    expect(hasCap(effectiveCaps('no caps here'), CAP_NET_ADMIN)).toBe(false);
    expect(isInitialUserNs('         0          0 4294967295\n')).toBe(true);
    expect(isInitialUserNs('     65534      65534          1\n')).toBe(false);
  });
});

describe('forwarder build directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gl-fwd-build-'));
    mkdirSync(join(dir, 'repo', 'bench', 'link'), { recursive: true });
    writeFileSync(join(dir, 'repo', 'bench', 'link', 'forwarder.c'), 'int main(void) { return 0; }\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the checkout first, then the user cache, then a per-uid temp dir', () => {
    expect(buildDirs('/r', { HOME: '/home/u' }, 1000, '/tmp')).toEqual([
      { path: '/r/bench/.build', shared: false },
      { path: '/home/u/.cache/getlist', shared: false },
      { path: '/tmp/getlist-forwarder-1000', shared: true },
    ]);
    expect(buildDirs('/r', { HOME: '/home/u', XDG_CACHE_HOME: '/c' }, 1000, '/tmp')[1]?.path).toBe('/c/getlist');
    expect(buildDirs('/r', {}, 1000, '/tmp').map((d) => d.path)).toEqual(['/r/bench/.build', '/tmp/getlist-forwarder-1000']);
  });

  test('builds into the first writable directory and finds the binary there next time', async () => {
    const dirs = [{ path: '/dev/null/cannot', shared: false }, { path: join(dir, 'cache'), shared: false }];
    const binary = await ensureForwarder(join(dir, 'repo'), dirs);
    expect(binary.startsWith(join(dir, 'cache', 'forwarder-'))).toBe(true);
    expect(execFileSync(binary, { encoding: 'utf8' })).toBe('');
    await expect(ensureForwarder(join(dir, 'repo'), dirs)).resolves.toBe(binary);
  }, 30_000);

  test('links started at once share one build (bench --jobs): both get the same, complete binary', async () => {
    const dirs = [{ path: join(dir, 'cache-concurrent'), shared: false }];
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => ensureForwarder(join(dir, 'repo'), dirs)));
    expect(new Set([a, b, c]).size).toBe(1);
    expect(execFileSync(a as string, { encoding: 'utf8' })).toBe('');
    expect(readdirSync(join(dir, 'cache-concurrent')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 30_000);

  test('a shared temp dir that others can write is never used', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    await expect(ensureForwarder(join(dir, 'repo'), [{ path: '/dev/null/cannot', shared: false }, { path: shared, shared: true }]))
      .rejects.toMatchObject({ code: 'E_LINK_BUILD' });
  });
});
