import { chmodSync, mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataDirPath, ensurePrivateDir, privacyWarning, storeDirIn } from './data-dir';
import { StoreError } from './store-errors';

const home = () => '/home/ada';

describe('dataDirPath', () => {
  test.each([
    ['linux, XDG_DATA_HOME set', { platform: 'linux', env: { XDG_DATA_HOME: '/data/xdg' } }, '/data/xdg/getlist'],
    ['linux, XDG_DATA_HOME unset', { platform: 'linux', env: {} }, '/home/ada/.local/share/getlist'],
    ['linux, relative XDG_DATA_HOME is ignored (XDG spec)', { platform: 'linux', env: { XDG_DATA_HOME: 'rel/dir' } }, '/home/ada/.local/share/getlist'],
    ['freebsd follows XDG', { platform: 'freebsd', env: {} }, '/home/ada/.local/share/getlist'],
    ['macOS', { platform: 'darwin', env: { XDG_DATA_HOME: '/ignored' } }, '/home/ada/Library/Application Support/getlist'],
    ['Windows, APPDATA', { platform: 'win32', env: { APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming' } }, 'C:\\Users\\Ada\\AppData\\Roaming\\getlist'],
    ['GETLIST_DATA_DIR wins', { platform: 'darwin', env: { GETLIST_DATA_DIR: '/srv/getlist-data' } }, '/srv/getlist-data'],
  ] as const)('%s', (_name, ctx, expected) => {
    expect(dataDirPath({ ...ctx, homedir: home })).toBe(expected);
  });

  test('Windows without APPDATA falls back to the roaming profile under the home dir', () => {
    expect(dataDirPath({ platform: 'win32', env: {}, homedir: () => 'C:\\Users\\Ada' })).toBe('C:\\Users\\Ada\\AppData\\Roaming\\getlist');
  });

  test('the store lives in a subfolder of the data dir', () => {
    expect(storeDirIn('/d')).toBe(path.join('/d', 'handshakes'));
  });
});

describe('ensurePrivateDir', () => {
  let tmp: string;
  let umask: number;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-datadir-'));
    umask = process.umask(0); // The worst umask: mkdir's mode alone would give 0777.
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(tmp, { recursive: true, force: true });
  });

  test('creates missing parents and makes every folder it creates 0700 whatever the umask', () => {
    const dir = path.join(tmp, 'a', 'b', 'getlist');
    expect(ensurePrivateDir(dir)).toBe(dir);
    for (const d of [path.join(tmp, 'a'), path.join(tmp, 'a', 'b'), dir]) expect([d, statSync(d).mode & 0o777]).toEqual([d, 0o700]);
    expect(statSync(tmp).mode & 0o777).toBe(0o700); // mkdtemp's own mode, untouched.
    expect(privacyWarning(dir)).toBeUndefined();
  });

  test('never changes the mode of a folder that exists (GETLIST_DATA_DIR=/tmp must not lock others out); warns instead', () => {
    const shared = path.join(tmp, 'shared');
    mkdirSync(shared, { mode: 0o1777 });
    chmodSync(shared, 0o1777);
    ensurePrivateDir(shared);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(privacyWarning(shared)).toMatch(/shared has mode 0777: other users can look inside; `chmod 700 /);
    const inner = path.join(shared, 'getlist');
    ensurePrivateDir(inner);
    expect(statSync(inner).mode & 0o777).toBe(0o700);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
  });

  test('a file in the way is E_DATA_DIR naming the path', () => {
    const file = path.join(tmp, 'file');
    writeFileSync(file, 'x');
    let caught: unknown;
    try {
      ensurePrivateDir(path.join(file, 'getlist'));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect(caught).toMatchObject({ code: 'E_DATA_DIR', message: expect.stringContaining(file) });
    expect(() => ensurePrivateDir(file)).toThrow(expect.objectContaining({ code: 'E_DATA_DIR' }) as Error);
  });
});
