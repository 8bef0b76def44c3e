// The documented way to put `getlist` on PATH (src/page/messages/install-hint.ts): pack it
// from the checkout and `npm install -g` the tarball. Installed here into a temp prefix, offline
// (the tarball carries its one native dependency), then used from another directory with a temp
// HOME: `getlist install` registers the host and `getlist doctor` gets a hello from it.
// Needs the build: `npm test` builds before Jest; run `npm run build` first when running it alone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

describe('npm run pack:cli → npm install -g', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'getlist-pack-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the tarball installs into a fresh prefix without the registry, and the installed command registers a host that answers', () => {
    const tarball = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'pack-cli.mjs'), '--out', dir], { encoding: 'utf8' }).trim();
    expect(path.basename(tarball)).toMatch(/^getlist-\d+\.\d+\.\d+\.tgz$/);
    const prefix = path.join(dir, 'prefix');
    const home = path.join(dir, 'home');
    execFileSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const bin = path.join(prefix, 'bin', 'getlist');
    expect(existsSync(bin)).toBe(true);
    // The installed copy, not the checkout.
    const installed = realpathSync(bin);
    expect(installed.startsWith(realpathSync(prefix))).toBe(true);
    const env = { ...process.env, HOME: home, PATH: `${path.join(prefix, 'bin')}:${process.env.PATH ?? ''}`, GETLIST_DATA_DIR: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, '.config') };
    const run = (...args: string[]) => execFileSync('getlist', args, { cwd: tmpdir(), env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run('--help')).toMatch(new RegExp(`^getlist ${pkg.version.replace(/\./g, '\\.')}`));
    run('install', '--browser', 'chromium');
    const report = run('doctor', '--browser', 'chromium', '--json');
    const { ok, checks } = JSON.parse(report) as { ok: boolean; checks: Array<{ check: string; status: string; detail: string }> };
    expect(checks.find((c) => c.check === 'host answers')).toMatchObject({ status: 'ok', detail: expect.stringContaining(`getlist ${pkg.version}`) });
    expect(ok).toBe(true);
    // The host the browser would start is the installed copy: its launcher runs the prefix's script.
    const launcher = checks.find((c) => c.check === 'launcher')?.detail as string;
    expect(readFileSync(launcher, 'utf8')).toContain(path.dirname(path.dirname(installed)));
  }, 120_000);
});
