/**
 * A benchmark stopped by a signal exits at once and leaves nothing behind: no namespaces of its
 * pid, no process still running in them, no Chromium. Root only; needs the built dist/bench/bench.js.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeNetns } from '../bench-link/netns-gate';

const root = join(__dirname, '..', '..');
const benchJs = join(root, 'dist', 'bench', 'bench.js');

const namespacesOf = (pid: number): string[] =>
  spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.split('\n').map((l) => l.split(' ')[0] ?? '').filter((n) => n.startsWith(`gl-c-${pid}-`) || n.startsWith(`gl-s-${pid}-`));

const chromiumsOf = (marker: string): string[] =>
  spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

describeNetns('bench: stopping on a signal', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('%s while Chromium loads: exit 128+n, namespaces and browsers gone', async (signal) => {
    if (!existsSync(benchJs)) throw new Error('dist/bench/bench.js is not built (npm run build)');
    const out = join(root, 'bench', 'results', 'tmp', `signal-test-${process.pid}-${signal}.json`);
    // Its own TMPDIR, so its Chromium profiles (and only those) carry a path we can look for.
    const tmp = mkdtempSync(join(tmpdir(), 'gl-signal-test-'));
    const child = spawn(process.execPath, [benchJs, '--quick', '--links', 'pm95', '--pages', 'pm95-2544-1', '--runs', '1', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Contenders run in a fixed order on run 1; stop while the first Chromium one is loading.
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/run 1\/1 getlist: /.test(stderr)) resolve();
      });
      void exited.then(() => reject(new Error(`bench exited before the first getlist load:\n${stderr}`)));
    });
    await new Promise((r) => setTimeout(r, 300)); // chromium-h1 is next: let it start
    const pid = child.pid as number;
    expect(namespacesOf(pid).length).toBeGreaterThan(0);
    child.kill(signal);
    const code = await exited;
    expect(code).toBe(signal === 'SIGTERM' ? 143 : 130);
    expect(stderr).toContain(`bench: ${signal}: stopping`);
    expect(namespacesOf(pid)).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(chromiumsOf(tmp)).toEqual([]);
    rmSync(tmp, { recursive: true, force: true });
  }, 60_000);
});
