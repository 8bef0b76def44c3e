import type { Browser } from './browser-name';
import { HOST_NAME } from './host-manifest';
import { pathFor, type InstallSystem } from './system';

/** Where one browser looks for getlist's host manifest. */
export interface HostLocation {
  browser: Browser;
  /** Absolute path of `dev.getlist.host.json`. */
  manifestPath: string;
  /**
   * Windows only: the HKCU key whose default value must be `manifestPath`. Windows browsers find
   * hosts through the registry, not through a directory.
   */
  registryKey?: string;
}

export interface LocationOptions {
  /**
   * A Chrome/Chromium `--user-data-dir`: that browser instance also reads
   * `<dir>/NativeMessagingHosts/` (Chromium `chrome::DIR_USER_NATIVE_MESSAGING` hangs off the user
   * data dir). Not meaningful for Firefox or on Windows.
   */
  userDataDir?: string;
  /** getlist's data dir; on Windows the manifests live there (see `resolveDataDir`). */
  dataDir: string;
}

const REGISTRY_PARENT: Record<Browser, string> = {
  chrome: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts',
  chromium: 'HKCU\\Software\\Chromium\\NativeMessagingHosts',
  firefox: 'HKCU\\Software\\Mozilla\\NativeMessagingHosts',
};

/** The registry key (Windows) a browser reads for getlist's host. */
export function registryKey(browser: Browser): string {
  return `${REGISTRY_PARENT[browser]}\\${HOST_NAME}`;
}

/**
 * Per-user manifest location for `browser` on `sys.platform`:
 *
 * | | Linux | macOS |
 * |---|---|---|
 * | chrome | `~/.config/google-chrome/NativeMessagingHosts/` | `~/Library/Application Support/Google/Chrome/NativeMessagingHosts/` |
 * | chromium | `~/.config/chromium/NativeMessagingHosts/` | `~/Library/Application Support/Chromium/NativeMessagingHosts/` |
 * | firefox | `~/.mozilla/native-messaging-hosts/` | `~/Library/Application Support/Mozilla/NativeMessagingHosts/` |
 *
 * On Linux, `~/.config` is `$CHROME_CONFIG_HOME` or `$XDG_CONFIG_HOME` when set and absolute, as
 * Chrome itself resolves it. On Windows the manifest is `<dataDir>\<browser>\dev.getlist.host.json`
 * and the registry key points at it.
 */
export function hostLocation(browser: Browser, sys: Pick<InstallSystem, 'platform' | 'env' | 'homedir'>, opts: LocationOptions): HostLocation {
  const p = pathFor(sys.platform);
  const file = `${HOST_NAME}.json`;
  if (sys.platform === 'win32') {
    return { browser, manifestPath: p.join(opts.dataDir, browser, file), registryKey: registryKey(browser) };
  }
  if (opts.userDataDir !== undefined && browser !== 'firefox') {
    return { browser, manifestPath: p.join(p.resolve(opts.userDataDir), 'NativeMessagingHosts', file) };
  }
  return { browser, manifestPath: p.join(manifestDir(browser, sys), file) };
}

function manifestDir(browser: Browser, sys: Pick<InstallSystem, 'platform' | 'env' | 'homedir'>): string {
  const p = pathFor(sys.platform);
  const home = sys.homedir;
  if (sys.platform === 'darwin') {
    const support = p.join(home, 'Library', 'Application Support');
    if (browser === 'chrome') return p.join(support, 'Google', 'Chrome', 'NativeMessagingHosts');
    if (browser === 'chromium') return p.join(support, 'Chromium', 'NativeMessagingHosts');
    return p.join(support, 'Mozilla', 'NativeMessagingHosts');
  }
  if (browser === 'firefox') return p.join(home, '.mozilla', 'native-messaging-hosts');
  const config = absoluteEnv(sys, 'CHROME_CONFIG_HOME') ?? absoluteEnv(sys, 'XDG_CONFIG_HOME') ?? p.join(home, '.config');
  return p.join(config, browser === 'chrome' ? 'google-chrome' : 'chromium', 'NativeMessagingHosts');
}

function absoluteEnv(sys: Pick<InstallSystem, 'platform' | 'env'>, name: string): string | undefined {
  const v = sys.env[name];
  return v && pathFor(sys.platform).isAbsolute(v) ? v : undefined;
}
