import { BROWSERS } from '../install/browser-name';
import { uninstall } from '../install/uninstall';
import { boolFlag, noPositionals, parseArgs, type FlagSpec } from './args';
import { usageLine, type CommandHelp } from './command-help';
import { asCliErrors, BROWSER_FLAG, browserFlag, realInstallDeps, USER_DATA_DIR_FLAG, userDataDirFlag, type InstallDeps } from './install-options';
import type { CliIo } from './io';

const FLAGS: Record<string, FlagSpec> = {
  browser: { ...BROWSER_FLAG, default: 'all: every browser' },
  'user-data-dir': USER_DATA_DIR_FLAG,
  json: { type: 'boolean', description: 'print one JSON object: what was removed, and the browsers still using the launcher' },
};

export const UNINSTALL_HELP: CommandHelp = {
  synopsis: 'uninstall',
  summary: 'remove the native messaging host manifests and launcher',
  description: 'Removes getlist\'s host manifests (and registry keys), then the launcher once no manifest uses it. The data dir and the store in it are kept.',
  flags: FLAGS,
};

export const UNINSTALL_USAGE = usageLine(UNINSTALL_HELP.synopsis, FLAGS);

/**
 * `getlist uninstall`: removes getlist's host manifests (every browser unless --browser says
 * otherwise; registry keys on Windows) and then the launcher, once no manifest uses it. The data
 * dir and the store in it are kept.
 */
export async function uninstallCommand(argv: readonly string[], io: CliIo, deps: InstallDeps = realInstallDeps()): Promise<number> {
  const args = parseArgs('uninstall', argv, FLAGS);
  noPositionals(args, UNINSTALL_USAGE);
  const chosen = browserFlag(args);
  const userDataDir = userDataDirFlag(args, chosen, deps.sys);
  const browsers = Array.isArray(chosen) ? chosen : userDataDir !== undefined ? (['chromium'] as const) : BROWSERS;
  const r = await asCliErrors(() => uninstall({ browsers, ...(userDataDir !== undefined ? { userDataDir } : {}) }, deps.sys));
  if (boolFlag(args, 'json')) {
    io.out(`${JSON.stringify(r)}\n`);
    return 0;
  }
  for (const x of r.removed) io.out(`removed ${x.browser} ${[x.manifestPath, x.registryKey && `registry ${x.registryKey}`].filter(Boolean).join(', ')}\n`);
  if (r.launcherRemoved) io.out(`removed launcher ${r.launcherRemoved}\n`);
  if (r.removed.length === 0 && !r.launcherRemoved) io.out('nothing to remove: no getlist host manifest found\n');
  if (r.launcherKeptFor.length > 0) io.err(`getlist uninstall: kept the launcher, still used by ${r.launcherKeptFor.join(', ')}\n`);
  return 0;
}
