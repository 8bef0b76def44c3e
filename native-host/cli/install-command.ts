import { BROWSERS, type Browser } from '../install/browser-name';
import { detectBrowsers, foundBrowsers, type DetectedBrowser } from '../install/browsers';
import { HOST_NAME, chromeOrigin } from '../install/host-manifest';
import { install, type InstallResult } from '../install/install';
import { defaultHostCommand } from '../install/launcher';
import { boolFlag, noPositionals, parseArgs, type FlagSpec } from './args';
import { usageLine, type CommandHelp } from './command-help';
import { asCliErrors, BROWSER_FLAG, browserFlag, EXTENSION_ID_FLAG, extensionIds, packageRoot, realInstallDeps, USER_DATA_DIR_FLAG, userDataDirFlag, type InstallDeps } from './install-options';
import type { CliIo } from './io';

const FLAGS: Record<string, FlagSpec> = {
  browser: { ...BROWSER_FLAG, default: 'all: the browsers found here, or all three if none is found' },
  'extension-id': EXTENSION_ID_FLAG,
  'user-data-dir': USER_DATA_DIR_FLAG,
  'only-found': { type: 'boolean', description: 'install only for browsers found on this machine; none found means nothing to do' },
  quiet: { type: 'boolean', description: 'print only what changed (nothing when everything is already installed)' },
  json: { type: 'boolean', description: 'print one JSON object: the launcher, each manifest and whether it was created, updated or unchanged' },
};

export const INSTALL_HELP: CommandHelp = {
  synopsis: 'install',
  summary: 'install the native messaging host for Chrome, Chromium and Firefox',
  description:
    'Registers the native messaging host for the current user (no root): a launcher in the data dir and a host ' +
    'manifest per browser (registry keys on Windows). Safe to repeat: files that are already right are left ' +
    'alone. Run it again after moving node or this checkout. docs/native-host.md lists where each file goes.',
  flags: FLAGS,
};

export const INSTALL_USAGE = usageLine(INSTALL_HELP.synopsis, FLAGS);

/**
 * `getlist install`: writes the launcher and a host manifest per browser (and the registry keys on
 * Windows). Without --browser (or with `all`) it installs for the browsers found; if none is found
 * it installs for all three and says so, unless --only-found. Safe to repeat: files that are
 * already right are left alone, and --quiet then prints nothing.
 */
export async function installCommand(argv: readonly string[], io: CliIo, deps: InstallDeps = realInstallDeps()): Promise<number> {
  const args = parseArgs('install', argv, FLAGS);
  noPositionals(args, INSTALL_USAGE);
  const { sys } = deps;
  const json = boolFlag(args, 'json');
  const quiet = boolFlag(args, 'quiet');
  const chosen = browserFlag(args);
  const userDataDir = userDataDirFlag(args, chosen, sys);
  const ids = await asCliErrors(() => extensionIds(args, deps));
  const detected = detectBrowsers(sys);
  const notes: string[] = [];
  const browsers = pickBrowsers(chosen, userDataDir, detected, boolFlag(args, 'only-found'), notes);
  for (const d of detected) {
    if (d.sandbox && browsers.includes(d.browser)) notes.push(`${d.browser} at ${d.where} is a ${d.sandbox}: it may not be able to start the host; run \`getlist doctor --browser ${d.browser}\` for what it needs`);
  }
  if (browsers.length === 0) {
    if (json) io.out(`${JSON.stringify({ hostName: HOST_NAME, extensionId: ids.chromeId, geckoId: ids.geckoId, manifests: [], detected, notes })}\n`);
    else if (!quiet) for (const n of notes) io.err(`getlist install: ${n}\n`);
    return 0;
  }
  const hostCommand = deps.hostCommand ?? defaultHostCommand(sys.nodePath, await asCliErrors(() => packageRoot(deps)), sys.platform);
  const result = await asCliErrors(() => install({ browsers, ids, hostCommand, ...(userDataDir !== undefined ? { userDataDir } : {}) }, sys));
  if (json) {
    io.out(`${JSON.stringify({ hostName: HOST_NAME, extensionId: ids.chromeId, geckoId: ids.geckoId, ...result, detected, notes })}\n`);
    return 0;
  }
  if (!quiet) for (const n of notes) io.err(`getlist install: ${n}\n`);
  printResult(io, result, quiet, `${chromeOrigin(ids.chromeId)} and ${ids.geckoId}`);
  return 0;
}

function pickBrowsers(chosen: Browser[] | 'all' | undefined, userDataDir: string | undefined, detected: readonly DetectedBrowser[], onlyFound: boolean, notes: string[]): Browser[] {
  if (Array.isArray(chosen)) return chosen;
  if (userDataDir !== undefined) return ['chromium'];
  const found = foundBrowsers(detected);
  if (found.length > 0) return found;
  if (onlyFound) {
    notes.push('no Chrome, Chromium or Firefox found; nothing installed (run `getlist install --browser all` after installing one)');
    return [];
  }
  notes.push(`no Chrome, Chromium or Firefox found; installing for all of them (${BROWSERS.join(', ')})`);
  return [...BROWSERS];
}

function printResult(io: CliIo, r: InstallResult, quiet: boolean, admits: string): void {
  const rows: Array<[string, string, string]> = [
    ['launcher', r.launcher.change, r.launcher.path],
    ...r.manifests.map((m): [string, string, string] => [m.browser, m.change, m.manifestPath + (m.registryKey ? ` (registry ${m.registryKey})` : '')]),
  ];
  const shown = quiet ? rows.filter((row) => row[1] !== 'unchanged') : rows;
  if (shown.length === 0) return;
  io.out(`getlist install: native messaging host ${HOST_NAME} for ${admits}\n`);
  for (const [what, change, where] of shown) io.out(`  ${what.padEnd(9)} ${change.padEnd(9)} ${where}\n`);
}
