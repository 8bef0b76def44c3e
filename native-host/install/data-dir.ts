import { dataDirPath } from '../store/data-dir';
import type { InstallSystem } from './system';

/**
 * getlist's per-user data dir for `sys`, by the store's rule (`GETLIST_DATA_DIR`, else
 * `$XDG_DATA_HOME/getlist` or `~/.local/share/getlist` on Linux, `~/Library/Application
 * Support/getlist` on macOS, `%APPDATA%\getlist` on Windows). The launcher lives there, and the
 * host it starts finds its store there with the same rule.
 */
export function resolveDataDir(sys: Pick<InstallSystem, 'platform' | 'env' | 'homedir'>): string {
  return dataDirPath({ env: sys.env, platform: sys.platform, homedir: () => sys.homedir });
}
