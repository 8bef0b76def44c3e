/**
 * Rootless mode for real: each test runs a built script as uid 65534 (setpriv, no groups, no
 * capabilities), which re-runs itself inside the user-namespace wrapper of bench/link/rootless.ts.
 * Needs root to switch users, and a kernel that lets that user create user namespaces; skipped
 * otherwise. The scripts are bundled from the sources into a temp dir, so dist/ is not involved,
 * except for the benchmark cell, whose getlist runs are dist/getlist.js through bin/getlist.js.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { planMounts, unshareArgs, wrapperScript } from '../../bench/link/rootless-script';
import { ROOTLESS_ENV } from '../../bench/link/rootless';
import { UNPRIVILEGED_UID, asUnprivileged, describeRootless } from './netns-gate';

const ROOT = join(__dirname, '..', '..');

interface Spawned {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  stderr: () => string;
  exit: Promise<number | null>;
  nextLine: () => Promise<Record<string, unknown>>;
}

/** Pids whose command line contains `needle` (and, if given, whose environment has `envEntry`). */
function pidsWith(needle: string, envEntry?: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(needle)) continue;
      if (envEntry !== undefined && !readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(envEntry)) continue;
      out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

describeRootless('rootless wrapper, as uid 65534', () => {
  let dir: string;
  let home: string;
  let childJs: string;
  let linkJs: string;
  let runLinkJs: string;
  const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });

  function start(args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Spawned {
    const child = spawn('setpriv', asUnprivileged(args), { cwd: ROOT, env: opts.env ?? env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: Array<Record<string, unknown>> = [];
    const waiting: Array<() => void> = [];
    let buf = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      buf += s;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
        buf = buf.slice(i + 1);
        for (const w of waiting.splice(0)) w();
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (s: string) => (err += s));
    const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let taken = 0;
    const nextLine = async (): Promise<Record<string, unknown>> => {
      while (lines.length <= taken) {
        const more = new Promise<void>((r) => waiting.push(r));
        const ended = exit.then(() => { throw new Error(`exited without a line; stderr: ${err}`); });
        await Promise.race([more, ended]);
      }
      return lines[taken++] as Record<string, unknown>;
    };
    return { child, lines, stderr: () => err, exit, nextLine };
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gl-rootless-test-'));
    chmodSync(dir, 0o755);
    home = join(dir, 'home');
    spawnSync('mkdir', [home]);
    chownSync(home, UNPRIVILEGED_UID, UNPRIVILEGED_UID);
    // As scripts/build.mjs bundles dist/bench/link.js.
    const common: BuildOptions = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', external: ['classic-level', 'lmdb'] };
    childJs = join(dir, 'rootless-child.js');
    linkJs = join(dir, 'link.js');
    runLinkJs = join(dir, 'rootless-run-link-child.js');
    buildSync({ ...common, entryPoints: [join(__dirname, 'rootless-child.ts')], outfile: childJs });
    buildSync({ ...common, entryPoints: [join(ROOT, 'bench', 'link', 'main.ts')], outfile: linkJs });
    buildSync({ ...common, entryPoints: [join(__dirname, 'rootless-run-link-child.ts')], outfile: runLinkJs });
    for (const f of [childJs, linkJs, runLinkJs]) chmodSync(f, 0o644);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the test user really is unprivileged', () => {
    const r = spawnSync('setpriv', asUnprivileged(['sh', '-c', 'id -u; id -G; grep -E "^Cap(Eff|Prm|Amb)" /proc/self/status']), { encoding: 'utf8' });
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([String(UNPRIVILEGED_UID), String(UNPRIVILEGED_UID), 'CapPrm:\t0000000000000000', 'CapEff:\t0000000000000000', 'CapAmb:\t0000000000000000']);
  });

  test('a script re-runs itself in the wrapper: same uid, stdin handed through, exit status kept, private netns dirs', async () => {
    const run = start([process.execPath, childJs, 'echo', '5']);
    run.child.stdin?.end('hello from the test\n');
    const line = await run.nextLine();
    expect(await run.exit).toBe(5);
    // init 'sh': the wrapper's script is pid 1 of a pid namespace of its own.
    expect(line).toEqual({ privilege: 'rootless', uid: UNPRIVILEGED_UID, init: 'sh', line: 'hello from the test', netns: [], etcWritable: true });
  }, 20_000);

  test('SIGTERM to the launcher reaches the script, and nothing it started outlives the wrapper', async () => {
    const run = start([process.execPath, childJs, 'hold']);
    expect(await run.nextLine()).toEqual({ ready: true, privilege: 'rootless' });
    expect(await until(() => pidsWith('599.25').length === 1, 2_000)).toBe(true);
    run.child.kill('SIGTERM'); // setpriv execs node: this is the launcher
    expect(await run.exit).toBe(43);
    expect(run.lines).toContainEqual({ signal: 'SIGTERM' });
    expect(await until(() => pidsWith('599.25').length === 0, 2_000)).toBe(true);
  }, 20_000);

  test('SIGKILL of the wrapped script takes everything it started down too', async () => {
    const run = start([process.execPath, childJs, 'hold']);
    await run.nextLine();
    const inner = pidsWith(childJs, `${ROOTLESS_ENV}=1`).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith(process.execPath));
    expect(inner).toHaveLength(1);
    process.kill(inner[0] as number, 'SIGKILL');
    expect(await run.exit).toBe(137);
    expect(await until(() => pidsWith('599.25').length === 0, 2_000)).toBe(true);
  }, 20_000);

  test('missing /run/netns and /etc/netns are made in a writable mirror of their parents, submounts kept', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'gl-rootless-scratch-'));
    try {
      const missing = [`/run/gl-missing-${process.pid}`, `/etc/gl-missing-${process.pid}`];
      const plan = planMounts(missing, () => false, scratch);
      const check = `set -e; touch ${missing[0]}/a ${missing[1]}/b; cat /run/lock/gl-marker; getent hosts localhost >/dev/null; test -s /etc/passwd; echo ok`;
      const args = unshareArgs(wrapperScript(plan, 'run'), ['sh', '-c', check]);
      // As root, in a private mount namespace: a tmpfs on /run/lock stands for the mounts (/run/user/…)
      // that a real /run has below it, which the kernel locks in the user's namespace.
      const outer = `mount -t tmpfs gl-test /run/lock && echo marker > /run/lock/gl-marker && exec setpriv ${asUnprivileged(['unshare']).join(' ')} "$@"`;
      const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', outer, 'sh', ...args], { encoding: 'utf8', timeout: 20_000, env: env() });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: 'marker\nok\n', stderr: '' });
      for (const m of missing) expect(existsSync(m)).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 30_000);

  test('without unshare: E_LINK_NEEDS_ROOT says so', () => {
    const empty = join(dir, 'empty-path');
    spawnSync('mkdir', [empty]);
    const r = spawnSync('setpriv', asUnprivileged(['env', `PATH=${empty}`, process.execPath, linkJs, 'selfcheck']), { cwd: ROOT, env: env(), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^link: E_LINK_NEEDS_ROOT: not root \(uid 65534\) and rootless mode is not available: unshare \(util-linux\) is not installed/);
  });

  test('when the kernel refuses user namespaces: E_LINK_NEEDS_ROOT with what was tried and why', () => {
    // user.max_user_namespaces is per user namespace: 0 in an outer one forbids any inside it.
    const outer = `echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --inh-caps=-all --ambient-caps=-all "$@"`;
    const r = spawnSync('setpriv', asUnprivileged(['unshare', '--user', '--map-current-user', '--keep-caps', 'sh', '-c', outer, 'sh', process.execPath, linkJs, 'selfcheck']), { cwd: ROOT, env: env(), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/E_LINK_NEEDS_ROOT: not root \(uid 65534\) and rootless mode is not available: tried `unshare --user --map-current-user --keep-caps --mount --net --pid --fork --kill-child --mount-proc`: unshare: unshare failed: No space left on device \(user.max_user_namespaces is 0\)/);
  });

  test('when /dev/net/tun is not accessible: E_LINK_NEEDS_ROOT names it', () => {
    const closed = join(dir, 'tun-closed');
    writeFileSync(closed, '');
    chmodSync(closed, 0o600);
    const outer = `mount --bind ${closed} /dev/net/tun && exec setpriv ${asUnprivileged([process.execPath, linkJs, 'selfcheck']).join(' ')}`;
    const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', outer], { cwd: ROOT, env: env(), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/E_LINK_NEEDS_ROOT: .*\/dev\/net\/tun is not readable and writable by this user \(EACCES\)/);
  });

  test('the link self-check passes as uid 65534, rootless', () => {
    const r = spawnSync('setpriv', asUnprivileged([process.execPath, linkJs, 'selfcheck', '--json']), { cwd: ROOT, env: env(), encoding: 'utf8', timeout: 110_000 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    const result = JSON.parse(r.stdout) as { passed: boolean; info: Record<string, unknown>; checks: Array<{ name: string; passed: boolean; measured: string }> };
    expect(result.info).toMatchObject({ privilege: 'rootless', congestionControl: 'reno', initCwnd: 10, mtu: 1500 });
    // Each check with its measured value, so a failure shows what was seen.
    expect(result.checks.map((c) => [c.name, c.passed, c.measured])).toEqual(
      ['connect time', 'tcp in use', 'throughput', 'loss'].map((name) => [name, true, result.checks.find((c) => c.name === name)?.measured]),
    );
    expect(result.passed).toBe(true);
  }, 120_000);

  const e2e = process.env.GETLIST_E2E === '0' ? 'GETLIST_E2E=0 (no browser)' : existsSync(join(ROOT, 'dist', 'getlist.js')) ? undefined : 'dist/getlist.js is not built (npm run build)';
  (e2e === undefined ? test : test.skip)(`a benchmark cell runs rootless: nginx in the server namespace, getlist and Chromium in the client namespace${e2e ? ` (skipped: ${e2e})` : ''}`, async () => {
    const run = start([process.execPath, runLinkJs, ROOT]);
    const code = await run.exit;
    expect({ code, stderr: code === 0 ? '' : run.stderr() }).toEqual({ code: 0, stderr: '' });
    type Run = { error?: unknown; errors: number; serverRequests: number };
    const out = run.lines[0] as { privilege: string; info: { privilege: string; congestionControl: string }; cells: Array<{ error?: unknown; contenders: Array<{ contender: string; runs: Run[] }> }> };
    expect(out.privilege).toBe('rootless');
    expect(out.info).toMatchObject({ privilege: 'rootless', congestionControl: 'reno' });
    const cell = out.cells[0];
    expect(cell?.error).toBeUndefined();
    // No errors, and nginx logged both requests of the page for each contender.
    const seen = (r: Run): unknown => r.error ?? { errors: r.errors, serverRequests: r.serverRequests };
    const ok = [{ errors: 0, serverRequests: 2 }];
    expect(cell?.contenders.map((c) => [c.contender, c.runs.map(seen)])).toEqual([['getlist', ok], ['getlist-tls', ok], ['chromium-h1', ok]]);
  }, 120_000);
});
