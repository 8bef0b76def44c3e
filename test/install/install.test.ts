import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { installCommand } from '../../native-host/cli/install-command';
import { uninstallCommand } from '../../native-host/cli/uninstall-command';
import { readExtensionIdentity } from '../../native-host/install/extension-identity';
import { capture, REPO, tempDir, tempSystem, writeExecutable } from './support';

const ids = readExtensionIdentity(REPO, { fs, platform: 'linux' });

function paths(home: string, userDataDir?: string) {
  return {
    launcher: path.join(home, '.local', 'share', 'getlist', 'getlist-host'),
    chrome: path.join(home, '.config', 'google-chrome', 'NativeMessagingHosts', 'dev.getlist.host.json'),
    chromium: path.join(home, '.config', 'chromium', 'NativeMessagingHosts', 'dev.getlist.host.json'),
    firefox: path.join(home, '.mozilla', 'native-messaging-hosts', 'dev.getlist.host.json'),
    userDataDir: userDataDir && path.join(userDataDir, 'NativeMessagingHosts', 'dev.getlist.host.json'),
  };
}

const json = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('getlist install', () => {
  test('writes a manifest per browser at exactly the right path and an executable launcher for node + bin/getlist.js host', async () => {
    const sys = tempSystem();
    const c = capture();
    expect(await installCommand(['--browser', 'chrome,chromium,firefox'], c.io, { sys })).toBe(0);
    const p = paths(sys.home);
    const launcherText = `#!/bin/sh\n# getlist native messaging host launcher, written by \`getlist install\`.\nexec '${process.execPath}' '${REPO}/bin/getlist.js' 'host' "$@"\n`;
    expect(fs.readFileSync(p.launcher, 'utf8')).toBe(launcherText);
    expect(mode(p.launcher)).toBe(0o755);
    expect(mode(path.dirname(p.launcher))).toBe(0o700);
    for (const b of ['chrome', 'chromium'] as const) {
      expect(json(p[b])).toEqual({ name: 'dev.getlist.host', description: expect.any(String), path: p.launcher, type: 'stdio', allowed_origins: [`chrome-extension://${ids.chromeId}/`] });
      expect(mode(p[b])).toBe(0o644);
    }
    expect(json(p.firefox)).toEqual({ name: 'dev.getlist.host', description: expect.any(String), path: p.launcher, type: 'stdio', allowed_extensions: ['getlist@getlist.dev'] });
    expect(c.out()).toContain(`chrome-extension://${ids.chromeId}/ and getlist@getlist.dev`);
    for (const f of [p.launcher, p.chrome, p.chromium, p.firefox]) expect(c.out()).toMatch(new RegExp(`created\\s+${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('is idempotent: a second run changes nothing, and with --quiet prints nothing', async () => {
    const sys = tempSystem();
    await installCommand(['--browser', 'firefox'], capture().io, { sys });
    const before = fs.statSync(paths(sys.home).firefox).mtimeMs;
    const again = capture();
    expect(await installCommand(['--browser', 'firefox'], again.io, { sys })).toBe(0);
    expect(again.out()).toMatch(/launcher\s+unchanged/);
    expect(again.out()).toMatch(/firefox\s+unchanged/);
    const quiet = capture();
    expect(await installCommand(['--browser', 'firefox', '--quiet'], quiet.io, { sys })).toBe(0);
    expect(quiet.out() + quiet.err()).toBe('');
    expect(fs.statSync(paths(sys.home).firefox).mtimeMs).toBe(before);
  });

  test('repairs a manifest and a launcher that were changed or lost their mode', async () => {
    const sys = tempSystem();
    const p = paths(sys.home);
    await installCommand(['--browser', 'chrome'], capture().io, { sys });
    fs.writeFileSync(p.chrome, '{"broken": true}');
    fs.chmodSync(p.launcher, 0o644);
    const c = capture();
    await installCommand(['--browser', 'chrome', '--quiet'], c.io, { sys });
    expect(c.out()).toMatch(/launcher\s+updated/);
    expect(c.out()).toMatch(/chrome\s+updated/);
    expect(mode(p.launcher)).toBe(0o755);
    expect(json(p.chrome).allowed_origins).toEqual([`chrome-extension://${ids.chromeId}/`]);
  });

  test('--user-data-dir installs into DIR/NativeMessagingHosts for chromium only', async () => {
    const sys = tempSystem();
    const profile = path.join(tempDir(), 'chromium profile');
    const c = capture();
    expect(await installCommand(['--user-data-dir', profile, '--json'], c.io, { sys })).toBe(0);
    const p = paths(sys.home, profile);
    const out = JSON.parse(c.out());
    expect(out.manifests).toEqual([{ browser: 'chromium', manifestPath: p.userDataDir, change: 'created' }]);
    expect(out.extensionId).toBe(ids.chromeId);
    expect(json(p.userDataDir as string).path).toBe(p.launcher);
    expect(fs.existsSync(p.chromium)).toBe(false);
  });

  test('a FIFO where the --user-data-dir manifest goes is E_INSTALL_WRITE, not a hang, and stays a FIFO', async () => {
    const sys = tempSystem();
    const profile = tempDir();
    const manifest = paths(sys.home, profile).userDataDir as string;
    fs.mkdirSync(path.dirname(manifest), { recursive: true });
    execFileSync('mkfifo', [manifest]);
    const c = capture();
    await expect(installCommand(['--user-data-dir', profile], c.io, { sys })).rejects.toMatchObject({
      code: 'E_INSTALL_WRITE',
      message: `cannot write ${manifest}: it is a FIFO (named pipe), not a regular file; remove it, or install elsewhere`,
    });
    expect(fs.statSync(manifest).isFIFO()).toBe(true);
  });

  test('--extension-id overrides the id; GETLIST_DATA_DIR moves the launcher', async () => {
    const data = path.join(tempDir(), 'data');
    const sys = tempSystem();
    sys.env = { ...sys.env, GETLIST_DATA_DIR: data };
    await installCommand(['--browser', 'chromium', '--extension-id', 'pppppppppppppppppppppppppppppppp'], capture().io, { sys });
    const m = json(paths(sys.home).chromium);
    expect(m.allowed_origins).toEqual(['chrome-extension://pppppppppppppppppppppppppppppppp/']);
    expect(m.path).toBe(path.join(data, 'getlist-host'));
    expect(fs.existsSync(m.path)).toBe(true);
  });

  test('without --browser, installs for the browsers found on PATH only', async () => {
    const sys = tempSystem();
    writeExecutable(path.join(sys.bin, 'firefox'));
    fs.writeFileSync(path.join(sys.bin, 'google-chrome'), 'not executable');
    const c = capture();
    expect(await installCommand([], c.io, { sys })).toBe(0);
    const p = paths(sys.home);
    expect(fs.existsSync(p.firefox)).toBe(true);
    expect(fs.existsSync(p.chrome)).toBe(false);
    expect(fs.existsSync(p.chromium)).toBe(false);
    expect(c.err()).toBe('');
  });

  test('when no browser is found it installs for all three and says so; --only-found installs nothing', async () => {
    const sys = tempSystem();
    const only = capture();
    expect(await installCommand(['--only-found'], only.io, { sys })).toBe(0);
    expect(only.err()).toMatch(/no Chrome, Chromium or Firefox found; nothing installed/);
    expect(only.out()).toBe('');
    expect(fs.existsSync(path.join(sys.home, '.local'))).toBe(false);
    const c = capture();
    expect(await installCommand(['--browser', 'all'], c.io, { sys })).toBe(0);
    expect(c.err()).toMatch(/no Chrome, Chromium or Firefox found; installing for all of them \(chrome, chromium, firefox\)/);
    const p = paths(sys.home);
    for (const f of [p.chrome, p.chromium, p.firefox, p.launcher]) expect(fs.existsSync(f)).toBe(true);
  });

  test.each([
    [['--extension-id', 'abc'], /--extension-id must be 32 letters from a to p/],
    [['--extension-id', 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'], /--extension-id must be 32 letters/],
    [['--browser', 'safari'], /--browser: unknown browser "safari"/],
    [['--browser', 'firefox', '--user-data-dir', '/tmp/x'], /--user-data-dir applies to --browser chrome or chromium only/],
    [['--browser', 'all', '--user-data-dir', '/tmp/x'], /--user-data-dir applies to/],
    [['extra'], /unexpected argument "extra"/],
  ])('%j is a usage error (exit 2) that writes nothing', async (argv, message) => {
    const sys = tempSystem();
    await expect(installCommand(argv, capture().io, { sys })).rejects.toMatchObject({ code: 'E_USAGE', exitCode: 2, message: expect.stringMatching(message) });
    expect(fs.readdirSync(sys.home)).toEqual([]);
  });

  test('a manifest.json without a key is E_EXTENSION_MANIFEST, not a crash', async () => {
    const sys = tempSystem();
    const pkg = tempDir();
    fs.writeFileSync(path.join(pkg, 'manifest.json'), '{"name": "getlist"}');
    await expect(installCommand(['--browser', 'chrome'], capture().io, { sys, packageRoot: pkg })).rejects.toMatchObject({ code: 'E_EXTENSION_MANIFEST' });
  });
});

describe('getlist uninstall', () => {
  test('removes every manifest and then the launcher; the data dir stays', async () => {
    const sys = tempSystem();
    const p = paths(sys.home);
    await installCommand(['--browser', 'chrome,chromium,firefox'], capture().io, { sys });
    const c = capture();
    expect(await uninstallCommand([], c.io, { sys })).toBe(0);
    for (const f of [p.chrome, p.chromium, p.firefox, p.launcher]) expect(fs.existsSync(f)).toBe(false);
    expect(fs.existsSync(path.dirname(p.launcher))).toBe(true);
    expect(c.out()).toContain(`removed firefox ${p.firefox}`);
    expect(c.out()).toContain(`removed launcher ${p.launcher}`);
    const again = capture();
    await uninstallCommand([], again.io, { sys });
    expect(again.out()).toBe('nothing to remove: no getlist host manifest found\n');
  });

  test('removing one browser keeps the launcher the others still use', async () => {
    const sys = tempSystem();
    const p = paths(sys.home);
    await installCommand(['--browser', 'chrome,firefox'], capture().io, { sys });
    const c = capture();
    await uninstallCommand(['--browser', 'firefox'], c.io, { sys });
    expect(fs.existsSync(p.firefox)).toBe(false);
    expect(fs.existsSync(p.chrome)).toBe(true);
    expect(fs.existsSync(p.launcher)).toBe(true);
    expect(c.err()).toContain('kept the launcher, still used by chrome');
  });

  test('--user-data-dir removes the manifest there', async () => {
    const sys = tempSystem();
    const profile = tempDir();
    await installCommand(['--user-data-dir', profile], capture().io, { sys });
    const c = capture();
    await uninstallCommand(['--user-data-dir', profile, '--json'], c.io, { sys });
    const p = paths(sys.home, profile);
    expect(JSON.parse(c.out())).toEqual({ removed: [{ browser: 'chromium', manifestPath: p.userDataDir }], launcherRemoved: p.launcher, launcherKeptFor: [] });
    expect(fs.existsSync(p.userDataDir as string)).toBe(false);
  });
});
