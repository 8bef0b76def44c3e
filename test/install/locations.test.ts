import { resolveDataDir } from '../../native-host/install/data-dir';
import { hostLocation } from '../../native-host/install/locations';
import type { Platform } from '../../native-host/install/system';

const sys = (platform: Platform, env: Record<string, string> = {}, homedir = platform === 'win32' ? 'C:\\Users\\u' : platform === 'darwin' ? '/Users/u' : '/home/u') => ({ platform, env, homedir });

describe('host manifest locations', () => {
  test.each([
    ['linux', 'chrome', '/home/u/.config/google-chrome/NativeMessagingHosts/dev.getlist.host.json'],
    ['linux', 'chromium', '/home/u/.config/chromium/NativeMessagingHosts/dev.getlist.host.json'],
    ['linux', 'firefox', '/home/u/.mozilla/native-messaging-hosts/dev.getlist.host.json'],
    ['darwin', 'chrome', '/Users/u/Library/Application Support/Google/Chrome/NativeMessagingHosts/dev.getlist.host.json'],
    ['darwin', 'chromium', '/Users/u/Library/Application Support/Chromium/NativeMessagingHosts/dev.getlist.host.json'],
    ['darwin', 'firefox', '/Users/u/Library/Application Support/Mozilla/NativeMessagingHosts/dev.getlist.host.json'],
  ] as const)('%s %s: %s', (platform, browser, want) => {
    const s = sys(platform);
    expect(hostLocation(browser, s, { dataDir: resolveDataDir(s) })).toEqual({ browser, manifestPath: want });
  });

  test.each([
    ['chrome', 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.getlist.host'],
    ['chromium', 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\dev.getlist.host'],
    ['firefox', 'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.getlist.host'],
  ] as const)('win32 %s: manifest under %%APPDATA%%\\getlist, registry key %s', (browser, key) => {
    const s = sys('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' });
    expect(hostLocation(browser, s, { dataDir: resolveDataDir(s) })).toEqual({
      browser,
      manifestPath: `C:\\Users\\u\\AppData\\Roaming\\getlist\\${browser}\\dev.getlist.host.json`,
      registryKey: key,
    });
  });

  test('Linux Chrome/Chromium follow CHROME_CONFIG_HOME, then an absolute XDG_CONFIG_HOME, like Chrome does', () => {
    const dataDir = '/unused';
    expect(hostLocation('chrome', sys('linux', { XDG_CONFIG_HOME: '/x/cfg' }), { dataDir }).manifestPath).toBe('/x/cfg/google-chrome/NativeMessagingHosts/dev.getlist.host.json');
    expect(hostLocation('chromium', sys('linux', { XDG_CONFIG_HOME: 'relative/cfg' }), { dataDir }).manifestPath).toBe('/home/u/.config/chromium/NativeMessagingHosts/dev.getlist.host.json');
    expect(hostLocation('chromium', sys('linux', { XDG_CONFIG_HOME: '/x/cfg', CHROME_CONFIG_HOME: '/y' }), { dataDir }).manifestPath).toBe('/y/chromium/NativeMessagingHosts/dev.getlist.host.json');
    expect(hostLocation('firefox', sys('linux', { XDG_CONFIG_HOME: '/x/cfg' }), { dataDir }).manifestPath).toBe('/home/u/.mozilla/native-messaging-hosts/dev.getlist.host.json');
  });

  test('--user-data-dir puts Chrome/Chromium manifests in DIR/NativeMessagingHosts (made absolute), never Firefox', () => {
    const opts = { dataDir: '/unused', userDataDir: '/tmp/profile' };
    expect(hostLocation('chromium', sys('linux'), opts).manifestPath).toBe('/tmp/profile/NativeMessagingHosts/dev.getlist.host.json');
    expect(hostLocation('chrome', sys('darwin'), opts).manifestPath).toBe('/tmp/profile/NativeMessagingHosts/dev.getlist.host.json');
    expect(hostLocation('chromium', sys('linux'), { dataDir: '/unused', userDataDir: 'rel/profile' }).manifestPath).toBe(`${process.cwd()}/rel/profile/NativeMessagingHosts/dev.getlist.host.json`);
    expect(hostLocation('firefox', sys('linux'), opts).manifestPath).toBe('/home/u/.mozilla/native-messaging-hosts/dev.getlist.host.json');
  });
});

describe('data dir', () => {
  test.each([
    ['linux', {}, '/home/u/.local/share/getlist'],
    ['linux', { XDG_DATA_HOME: '/d' }, '/d/getlist'],
    ['linux', { XDG_DATA_HOME: 'not/absolute' }, '/home/u/.local/share/getlist'],
    ['linux', { XDG_DATA_HOME: '/d', GETLIST_DATA_DIR: '/g' }, '/g'],
    ['darwin', { XDG_DATA_HOME: '/d' }, '/Users/u/Library/Application Support/getlist'],
    ['win32', { APPDATA: 'D:\\Roaming' }, 'D:\\Roaming\\getlist'],
    ['win32', {}, 'C:\\Users\\u\\AppData\\Roaming\\getlist'],
  ] as const)('%s with %j → %s', (platform, env, want) => {
    expect(resolveDataDir(sys(platform, { ...env }))).toBe(want);
  });
});
