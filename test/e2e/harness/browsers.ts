import fs from 'node:fs';

/** The browsers the e2e suites drive, as Debian packages them. */
export const BROWSERS = {
  chromium: { executable: '/usr/bin/chromium', pkg: 'chromium' },
  firefox: { executable: '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
} as const;

export type BrowserName = keyof typeof BROWSERS;

/**
 * Why this run skips the e2e suites, or undefined when they run. Only an explicit
 * `GETLIST_E2E=0` skips them: a missing browser is a failure (see `requireBrowser`), so a
 * machine without browsers cannot pass `npm test` by accident.
 */
export function e2eSkipReason(): string | undefined {
  return process.env.GETLIST_E2E === '0' ? 'GETLIST_E2E=0 is set: end-to-end browser suites skipped' : undefined;
}

/** `describe`, or `describe.skip` with the reason printed once, per `e2eSkipReason`. */
export function describeE2e(name: string, body: () => void): void {
  const reason = e2eSkipReason();
  if (reason) {
    console.warn(`${name}: ${reason}`);
    describe.skip(name, body);
  } else {
    describe(name, body);
  }
}

/** The browser's executable path; throws the command that installs it when it is missing. */
export function requireBrowser(name: BrowserName): string {
  const { executable, pkg } = BROWSERS[name];
  try {
    fs.accessSync(executable, fs.constants.X_OK);
  } catch {
    throw new Error(
      `E2E_BROWSER_MISSING: ${executable} not found. The end-to-end suites need it: run ` +
        `\`apt-get install chromium firefox-esr\` (package ${pkg}), or set GETLIST_E2E=0 to skip them.`,
    );
  }
  return executable;
}
