import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../support/repo-root';

const BIN = path.join(repoRoot(__dirname), 'bin', 'getlist.js');

export interface HostRegistration {
  /** The launcher `install` wrote (in `dataDir`). */
  launcher: string;
  /** The host manifests it wrote. */
  manifests: string[];
}

export interface RegisterHostOptions {
  browser: 'chromium' | 'firefox';
  /** HOME for `install` (and for the browser later): Firefox reads `$HOME/.mozilla/native-messaging-hosts/`. */
  home: string;
  /** GETLIST_DATA_DIR: the launcher and, once the browser starts the host, its store and host.log. */
  dataDir: string;
  /** Chromium only: install into `<userDataDir>/NativeMessagingHosts/`. */
  userDataDir?: string;
}

/**
 * Registers the native host as a user would, with `getlist install`, but inside temp dirs: it
 * never touches the real HOME. Needs `npm run build` (bin/getlist.js runs dist/getlist.js).
 */
export async function registerHost(options: RegisterHostOptions): Promise<HostRegistration> {
  const args = [BIN, 'install', '--browser', options.browser, '--json'];
  if (options.browser === 'chromium') {
    if (!options.userDataDir) throw new Error('registerHost: Chromium needs userDataDir (the browser reads <userDataDir>/NativeMessagingHosts/)');
    args.push('--user-data-dir', options.userDataDir);
  }
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.home, GETLIST_DATA_DIR: options.dataDir };
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, args, { env, timeout: 15_000 }));
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`getlist install failed: ${e.stderr || e.message}`);
  }
  const report = JSON.parse(stdout) as { launcher: { path: string }; manifests: { manifestPath: string }[] };
  return { launcher: report.launcher.path, manifests: report.manifests.map((m) => m.manifestPath) };
}
