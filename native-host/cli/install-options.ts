import { BROWSERS, isBrowser, type Browser } from '../install/browser-name';
import { isExtensionId } from '../install/extension-id';
import { readExtensionIdentity, type ExtensionIdentity } from '../install/extension-identity';
import { InstallError } from '../install/install-error';
import { findPackageRoot } from '../install/package-root';
import { realSystem, type InstallSystem } from '../install/system';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';

/** What install, uninstall and doctor run against; tests pass temp dirs and fakes. */
export interface InstallDeps {
  sys: InstallSystem;
  /** The getlist package root (holds manifest.json and bin/getlist.js); found from this file by default. */
  packageRoot?: string;
  /** Replaces `<node> <package>/bin/getlist.js host` in the launcher (tests run a fake host). */
  hostCommand?: readonly string[];
}

export function realInstallDeps(): InstallDeps {
  return { sys: realSystem() };
}

export const BROWSER_FLAG: FlagSpec = { type: 'string', value: 'B', description: `${BROWSERS.join(', ')} (comma-separated), or all` };
export const USER_DATA_DIR_FLAG: FlagSpec = {
  type: 'string',
  value: 'DIR',
  description: 'for a Chrome or Chromium started with --user-data-dir=DIR: the manifest in DIR/NativeMessagingHosts (Chromium unless --browser chrome; not on Windows)',
};
export const EXTENSION_ID_FLAG: FlagSpec = {
  type: 'string',
  value: 'ID',
  default: 'the id fixed by the "key" in manifest.json, which `getlist doctor` prints',
  description: 'the Chrome extension id to admit (32 letters a–p), e.g. a store copy\'s',
};

/**
 * `--browser`: a comma-separated list of browser names, `all`, or undefined when not given.
 * `all` and undefined are resolved by each command (found browsers, or every browser).
 */
export function browserFlag(args: ParsedArgs): Browser[] | 'all' | undefined {
  const raw = stringFlag(args, 'browser');
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 1 && names[0] === 'all') return 'all';
  const bad = names.filter((n) => !isBrowser(n));
  if (names.length === 0 || bad.length > 0) {
    throw new CliError('E_USAGE', `--browser: unknown browser ${bad.map((b) => JSON.stringify(b)).join(', ') || '""'}; expected ${BROWSERS.join(', ')} or all`);
  }
  return [...new Set(names as Browser[])];
}

/**
 * `--user-data-dir DIR` only makes sense for Chrome/Chromium on Linux and macOS: Windows browsers
 * find hosts through the registry, and Firefox profiles do not hold host manifests.
 */
export function userDataDirFlag(args: ParsedArgs, browsers: Browser[] | 'all' | undefined, sys: InstallSystem): string | undefined {
  const dir = stringFlag(args, 'user-data-dir');
  if (dir === undefined) return undefined;
  if (sys.platform === 'win32') throw new CliError('E_USAGE', '--user-data-dir: on Windows, Chrome and Chromium find hosts through the registry, not the user data dir');
  if (browsers === 'all' || browsers?.includes('firefox')) {
    throw new CliError('E_USAGE', '--user-data-dir applies to --browser chrome or chromium only (a Firefox profile does not hold host manifests)');
  }
  if (dir === '') throw new CliError('E_USAGE', '--user-data-dir needs a directory');
  return dir;
}

/** The extension ids to admit: `--extension-id` (validated) or manifest.json's key, plus the gecko id. */
export function extensionIds(args: ParsedArgs, deps: InstallDeps): ExtensionIdentity {
  const override = stringFlag(args, 'extension-id');
  if (override !== undefined && !isExtensionId(override)) {
    throw new CliError('E_USAGE', `--extension-id must be 32 letters from a to p (a Chrome extension id), got ${JSON.stringify(override)}`);
  }
  const fromManifest = readExtensionIdentity(packageRoot(deps), deps.sys);
  return override !== undefined ? { ...fromManifest, chromeId: override } : fromManifest;
}

export function packageRoot(deps: InstallDeps): string {
  return deps.packageRoot ?? findPackageRoot(__dirname, deps.sys.fs);
}

/** Runs an installer step, rethrowing its InstallError as a CliError, whose `exitCode` direct callers of the commands read. */
export async function asCliErrors<T>(f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof InstallError) throw new CliError(err.code, err.message);
    throw err;
  }
}
