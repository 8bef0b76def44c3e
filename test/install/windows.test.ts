import fs from 'node:fs';
import path from 'node:path';
import { doctorCommand } from '../../native-host/cli/doctor-command';
import { installCommand } from '../../native-host/cli/install-command';
import { uninstallCommand } from '../../native-host/cli/uninstall-command';
import { readExtensionIdentity } from '../../native-host/install/extension-identity';
import type { InstallSystem } from '../../native-host/install/system';
import { capture, fakeReg, REPO, tempDir, windowsFs } from './support';

const ids = readExtensionIdentity(REPO, { fs, platform: 'linux' });
const APPDATA = 'C:\\Users\\u\\AppData\\Roaming';
const DATA = `${APPDATA}\\getlist`;
const KEY = {
  chrome: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.getlist.host',
  chromium: 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\dev.getlist.host',
  firefox: 'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.getlist.host',
};

function windows() {
  const root = tempDir();
  const reg = fakeReg();
  const sys: InstallSystem = {
    platform: 'win32',
    env: { APPDATA, LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', ProgramFiles: 'C:\\Program Files', SystemRoot: 'C:\\Windows' },
    homedir: 'C:\\Users\\u',
    fs: windowsFs(root),
    exec: reg.exec,
    nodePath: 'C:\\Program Files\\nodejs\\node.exe',
    systemRoot: 'C:\\',
  };
  fs.mkdirSync(path.join(root, 'C', 'src', 'getlist'), { recursive: true });
  fs.copyFileSync(path.join(REPO, 'manifest.json'), path.join(root, 'C', 'src', 'getlist', 'manifest.json'));
  const read = (winPath: string) => fs.readFileSync(path.join(root, 'C', ...winPath.slice(3).split('\\')), 'utf8');
  return { sys, reg, read, root };
}

describe('Windows install (injected platform, fake reg.exe)', () => {
  test('writes manifests and a .bat under %APPDATA%\\getlist and points each HKCU key at its manifest', async () => {
    const { sys, reg, read } = windows();
    const c = capture();
    expect(await installCommand(['--browser', 'all'], c.io, { sys, packageRoot: 'C:\\src\\getlist' })).toBe(0);
    expect(read(`${DATA}\\getlist-host.bat`)).toBe('@echo off\r\n"C:\\Program Files\\nodejs\\node.exe" "C:\\src\\getlist\\bin\\getlist.js" "host" %*\r\n');
    for (const b of ['chrome', 'chromium', 'firefox'] as const) {
      const manifest = `${DATA}\\${b}\\dev.getlist.host.json`;
      expect(JSON.parse(read(manifest))).toMatchObject({ name: 'dev.getlist.host', path: `${DATA}\\getlist-host.bat`, type: 'stdio' });
      expect(reg.values.get(KEY[b])).toBe(manifest);
    }
    expect(JSON.parse(read(`${DATA}\\chrome\\dev.getlist.host.json`)).allowed_origins).toEqual([`chrome-extension://${ids.chromeId}/`]);
    expect(JSON.parse(read(`${DATA}\\firefox\\dev.getlist.host.json`)).allowed_extensions).toEqual(['getlist@getlist.dev']);
    expect(reg.calls.filter((call) => call[1] === 'add')).toEqual([
      ['reg', 'add', KEY.chrome, '/ve', '/t', 'REG_SZ', '/d', `${DATA}\\chrome\\dev.getlist.host.json`, '/f'],
      ['reg', 'add', KEY.chromium, '/ve', '/t', 'REG_SZ', '/d', `${DATA}\\chromium\\dev.getlist.host.json`, '/f'],
      ['reg', 'add', KEY.firefox, '/ve', '/t', 'REG_SZ', '/d', `${DATA}\\firefox\\dev.getlist.host.json`, '/f'],
    ]);
    expect(c.out()).toContain(`(registry ${KEY.firefox})`);
  });

  test('a second install only queries the registry; a key pointing elsewhere is rewritten', async () => {
    const { sys, reg } = windows();
    await installCommand(['--browser', 'chrome'], capture().io, { sys, packageRoot: 'C:\\src\\getlist' });
    reg.calls.length = 0;
    await installCommand(['--browser', 'chrome'], capture().io, { sys, packageRoot: 'C:\\src\\getlist' });
    expect(reg.calls).toEqual([['reg', 'query', KEY.chrome, '/ve']]);
    reg.values.set(KEY.chrome, 'C:\\old\\host.json');
    const c = capture();
    await installCommand(['--browser', 'chrome', '--quiet'], c.io, { sys, packageRoot: 'C:\\src\\getlist' });
    expect(reg.values.get(KEY.chrome)).toBe(`${DATA}\\chrome\\dev.getlist.host.json`);
    expect(c.out()).toMatch(/chrome\s+updated/);
  });

  test('a failing reg.exe is E_REGISTRY with its message', async () => {
    const { sys } = windows();
    sys.exec = async (_file, args) => (args[0] === 'add' ? { code: 1, stdout: '', stderr: 'ERROR: Access is denied.' } : { code: 1, stdout: '', stderr: '' });
    await expect(installCommand(['--browser', 'firefox'], capture().io, { sys, packageRoot: 'C:\\src\\getlist' })).rejects.toMatchObject({
      code: 'E_REGISTRY',
      message: expect.stringContaining('ERROR: Access is denied.'),
    });
  });

  test('uninstall deletes the keys, the manifests and the .bat', async () => {
    const { sys, reg, root } = windows();
    await installCommand(['--browser', 'chrome,firefox'], capture().io, { sys, packageRoot: 'C:\\src\\getlist' });
    reg.calls.length = 0;
    const c = capture();
    await uninstallCommand([], c.io, { sys, packageRoot: 'C:\\src\\getlist' });
    expect(reg.calls.filter((call) => call[1] === 'delete')).toEqual([
      ['reg', 'delete', KEY.chrome, '/f'],
      ['reg', 'delete', KEY.firefox, '/f'],
    ]);
    expect(reg.values.size).toBe(0);
    expect(fs.readdirSync(path.join(root, 'C', 'Users', 'u', 'AppData', 'Roaming', 'getlist'), { recursive: true }).filter((f) => String(f).includes('.'))).toEqual([]);
    expect(c.out()).toContain(`removed launcher ${DATA}\\getlist-host.bat`);
  });

  test('doctor reads the manifest path from the registry and reports a missing key', async () => {
    const { sys } = windows();
    const c = capture();
    await expect(doctorCommand(['--browser', 'chrome'], c.io, { sys, packageRoot: 'C:\\src\\getlist' })).rejects.toMatchObject({ code: 'E_DOCTOR_FAILED' });
    expect(c.out()).toContain(`registry key ${KEY.chrome} is missing or has no default value`);
  });

  test('doctor follows the registry value to a broken manifest', async () => {
    const { sys, reg } = windows();
    await installCommand(['--browser', 'firefox'], capture().io, { sys, packageRoot: 'C:\\src\\getlist' });
    reg.values.set(KEY.firefox, `${DATA}\\chrome\\nothing-here.json`);
    const c = capture();
    await expect(doctorCommand(['--browser', 'firefox'], c.io, { sys, packageRoot: 'C:\\src\\getlist' })).rejects.toMatchObject({ code: 'E_DOCTOR_FAILED' });
    expect(c.out()).toContain(`no manifest at ${DATA}\\chrome\\nothing-here.json`);
  });

  test('--user-data-dir is refused on Windows', async () => {
    const { sys } = windows();
    await expect(installCommand(['--browser', 'chrome', '--user-data-dir', 'C:\\p'], capture().io, { sys, packageRoot: 'C:\\src\\getlist' })).rejects.toMatchObject({ code: 'E_USAGE' });
  });
});
