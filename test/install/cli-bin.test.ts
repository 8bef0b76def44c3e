import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, tempDir } from './support';

// Runs the built CLI (npm test builds before Jest) in a temp HOME, so the bundle's own package-root
// lookup (from dist/) and manifest.json reading are what is tested.
const bin = path.join(REPO, 'bin', 'getlist.js');

function run(args: string[], home: string, data: string) {
  return spawnSync(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GETLIST_DATA_DIR: data }, encoding: 'utf8' });
}

describe('bin/getlist.js install / uninstall', () => {
  test('installs a launcher that runs this node on this checkout, into a --user-data-dir, touching nothing else but its code cache', () => {
    const base = tempDir();
    const home = path.join(base, 'home');
    const data = path.join(base, 'data');
    const profile = path.join(base, 'profile');
    fs.mkdirSync(home);
    const r = run(['install', '--browser', 'chromium', '--user-data-dir', profile, '--json'], home, data);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.extensionId).toBe('kelbbeopokdfcgnhndalcnpcofnpkfln');
    const manifest = JSON.parse(fs.readFileSync(path.join(profile, 'NativeMessagingHosts', 'dev.getlist.host.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'dev.getlist.host', path: path.join(data, 'getlist-host'), type: 'stdio', allowed_origins: ['chrome-extension://kelbbeopokdfcgnhndalcnpcofnpkfln/'] });
    const launcher = fs.readFileSync(manifest.path, 'utf8');
    expect(launcher).toContain(`exec '${process.execPath}' '${bin}' 'host' "$@"`);
    expect(fs.statSync(manifest.path).mode & 0o777).toBe(0o755);
    // Nothing in HOME but the launcher's own code cache (docs/cli.md, "What a start costs").
    expect(fs.readdirSync(home)).toEqual(['.cache']);
    expect(fs.readdirSync(path.join(home, '.cache'))).toEqual(['getlist']);
    expect(fs.readdirSync(path.join(home, '.cache', 'getlist'))).toEqual(['code']);
    expect(fs.readdirSync(path.join(home, '.cache', 'getlist', 'code'))).toEqual([expect.stringMatching(/^getlist-[0-9a-f]{16}-[0-9a-f]{16}-install\.bin$/)]);

    const u = run(['uninstall', '--browser', 'chromium', '--user-data-dir', profile], home, data);
    expect(u.status).toBe(0);
    expect(u.stdout).toContain(`removed launcher ${manifest.path}`);
    expect(fs.existsSync(manifest.path)).toBe(false);
  });

  test('doctor passes against the real `getlist host` started through the installed launcher', () => {
    const base = tempDir();
    const home = path.join(base, 'home');
    const data = path.join(base, 'data');
    const profile = path.join(base, 'profile');
    fs.mkdirSync(home);
    expect(run(['install', '--user-data-dir', profile, '--quiet'], home, data).status).toBe(0);
    const d = run(['doctor', '--user-data-dir', profile, '--json'], home, data);
    const report = JSON.parse(d.stdout);
    // A failing check shows its detail in the diff.
    expect(report.checks.map((c: { check: string; status: string; detail: string }) => `${c.check}: ${c.status}${c.status === 'ok' ? '' : ` (${c.detail})`}`)).toEqual([
      'manifest found: ok',
      'manifest valid: ok',
      'extension allowed: ok',
      'launcher: ok',
      'host answers: ok',
    ]);
    expect(report.checks[4].detail).toMatch(/\(getlist 0\.1\.0, protocol 3\)$/);
    expect(d.status).toBe(0);
  });

  test('help lists install, uninstall and doctor; a bad id is E_USAGE with exit 2', () => {
    const base = tempDir();
    const h = run(['help'], base, base);
    for (const c of ['install', 'uninstall', 'doctor']) expect(h.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    const bad = run(['install', '--extension-id', 'nope'], base, base);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^getlist: E_USAGE: --extension-id must be 32 letters from a to p/);
  });
});
