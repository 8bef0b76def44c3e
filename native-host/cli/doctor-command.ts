import { BROWSERS, type Browser } from '../install/browser-name';
import { detectBrowsers, foundBrowsers } from '../install/browsers';
import { doctor, type DoctorCheck } from '../install/doctor';
import { HOST_NAME, chromeOrigin } from '../install/host-manifest';
import { browsersWithManifest } from '../install/installed';
import { boolFlag, intFlag, noPositionals, parseArgs, stringFlag, type FlagSpec } from './args';
import { CliError } from './cli-error';
import { usageLine, type CommandHelp } from './command-help';
import { asCliErrors, BROWSER_FLAG, browserFlag, EXTENSION_ID_FLAG, extensionIds, realInstallDeps, USER_DATA_DIR_FLAG, userDataDirFlag, type InstallDeps } from './install-options';
import type { CliIo } from './io';

const FLAGS: Record<string, FlagSpec> = {
  browser: { ...BROWSER_FLAG, default: 'the browsers found here or with a getlist manifest' },
  'extension-id': { ...EXTENSION_ID_FLAG, description: 'the Chrome extension id the manifest must admit (32 letters a–p)' },
  'user-data-dir': USER_DATA_DIR_FLAG,
  timeout: { type: 'string', value: 'MS', default: '5000', description: 'how long the host may take to answer hello' },
  json: { type: 'boolean', description: 'print one JSON object: {ok, hostName, extensionId, geckoId, checks: [{browser, check, status, detail, fix}]}' },
};

export const DOCTOR_HELP: CommandHelp = {
  synopsis: 'doctor',
  summary: 'check the host installation end to end, with fixes',
  description:
    'Does for each browser what the browser will do: finds and parses the host manifest, checks that it admits ' +
    'the extension and that the launcher is executable, then starts the launcher with the browser\'s arguments ' +
    'and a minimal PATH and waits for the answer to a hello frame. Each check prints ok, warn, FAIL or skip; a ' +
    'FAIL comes with the command that fixes it, and makes the exit status 1 (E_DOCTOR_FAILED). Snap and Flatpak ' +
    'browsers get what they need spelled out.',
  flags: FLAGS,
};

export const DOCTOR_USAGE = usageLine(DOCTOR_HELP.synopsis, FLAGS);

const STATUS_LABEL = { ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

/**
 * `getlist doctor`: for each browser found (or installed for, or named by --browser), checks the
 * host manifest, the launcher, and that the host answers a hello frame the way the browser would
 * start it. Prints each check as ok/FAIL with the reason and a fix; exits 1 if any check failed.
 */
export async function doctorCommand(argv: readonly string[], io: CliIo, deps: InstallDeps = realInstallDeps()): Promise<number> {
  const args = parseArgs('doctor', argv, FLAGS);
  noPositionals(args, DOCTOR_USAGE);
  const { sys } = deps;
  const chosen = browserFlag(args);
  const userDataDir = userDataDirFlag(args, chosen, sys);
  const helloTimeoutMs = intFlag(args, 'timeout', 5000, 100, 600_000);
  const ids = await asCliErrors(() => extensionIds(args, deps));
  const detected = detectBrowsers(sys);
  let browsers: Browser[];
  if (Array.isArray(chosen)) browsers = chosen;
  else if (userDataDir !== undefined) browsers = ['chromium'];
  else {
    const installed = await browsersWithManifest(sys);
    browsers = BROWSERS.filter((b) => foundBrowsers(detected).includes(b) || installed.includes(b));
  }
  if (browsers.length === 0) {
    throw new CliError('E_NO_BROWSER', 'no Chrome, Chromium or Firefox found and no getlist host manifest installed; install a browser, or check one anyway with --browser');
  }
  const override = stringFlag(args, 'extension-id');
  const report = await asCliErrors(() =>
    doctor({ browsers, ids, detected, helloTimeoutMs, ...(userDataDir !== undefined ? { userDataDir } : {}), ...(override !== undefined ? { installArgs: ['--extension-id', override] } : {}) }, sys),
  );
  if (boolFlag(args, 'json')) {
    io.out(`${JSON.stringify({ ok: report.ok, hostName: HOST_NAME, extensionId: ids.chromeId, geckoId: ids.geckoId, checks: report.checks })}\n`);
  } else {
    io.out(`getlist doctor: host ${HOST_NAME} for ${chromeOrigin(ids.chromeId)} and ${ids.geckoId}\n`);
    for (const b of browsers) printBrowser(io, b, report.checks.filter((c) => c.browser === b));
  }
  const failed = report.checks.filter((c) => c.status === 'fail');
  if (failed.length > 0) {
    throw new CliError('E_DOCTOR_FAILED', `${failed.length} check(s) failed: ${failed.map((c) => `${c.browser} ${c.check}`).join(', ')}`);
  }
  return 0;
}

function printBrowser(io: CliIo, browser: Browser, checks: readonly DoctorCheck[]): void {
  io.out(`\n${browser}\n`);
  const width = Math.max(...checks.map((c) => c.check.length));
  for (const c of checks) {
    io.out(`  ${STATUS_LABEL[c.status].padEnd(4)}  ${c.check.padEnd(width)}  ${c.detail}\n`);
    if (c.fix && c.status !== 'ok') io.out(`  ${''.padEnd(4)}  ${'fix:'.padEnd(width)}  ${c.fix}\n`);
  }
}
