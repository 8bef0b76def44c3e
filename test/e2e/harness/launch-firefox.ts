import crypto from 'node:crypto';
import puppeteer, { type Browser } from 'puppeteer-core';
import { requireBrowser } from './browsers';

/** `browser_specific_settings.gecko.id` in manifest.json. */
export const GECKO_ID = 'getlist@getlist.dev';

export interface LaunchedFirefox {
  browser: Browser;
  /** The id `installExtension` returned (the gecko id). */
  extensionId: string;
  /** `moz-extension://<uuid>`: the uuid is chosen here and preset by pref (see below). */
  extensionOrigin: string;
  close(): Promise<void>;
}

export interface LaunchFirefoxOptions {
  extensionDir: string;
  /**
   * HOME of the browser: Firefox reads native host manifests from
   * `$HOME/.mozilla/native-messaging-hosts/`, and the host it starts inherits this environment.
   */
  home: string;
  /** The profile dir (a fresh temp dir). */
  profileDir: string;
  /** More environment for the browser and so the host (GETLIST_DATA_DIR). */
  env?: Record<string, string>;
  /** The executable puppeteer starts (firefox-in-namespace.ts's bridge). @default Firefox ESR */
  executablePath?: string;
  /** More prefs for the profile (a fault a test injects, such as a shorter connection-retry timeout). */
  prefs?: Record<string, string | number | boolean>;
}

/**
 * Headless Firefox ESR over WebDriver BiDi, with the extension installed temporarily (as
 * about:debugging does) by `browser.installExtension`.
 *
 * The moz-extension:// uuid is random per profile unless the `extensions.webextensions.uuids`
 * pref already maps the add-on id to one; presetting it makes the extension's pages addressable
 * without asking the browser.
 */
export async function launchFirefox(options: LaunchFirefoxOptions): Promise<LaunchedFirefox> {
  const uuid = crypto.randomUUID();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: options.executablePath ?? requireBrowser('firefox'),
    headless: true,
    userDataDir: options.profileDir,
    // The h2 test site's certificate is self-signed; WebDriver's acceptInsecureCerts trusts it for the session.
    acceptInsecureCerts: true,
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      // Optional permissions (Detailed capture) granted on a trusted click without the doorhanger.
      'extensions.webextOptionalPermissionPrompts': false,
      ...options.prefs,
    },
    // Lets BiDi navigate a tab to moz-extension:// (otherwise "not allowed in this context").
    env: { ...process.env, HOME: options.home, MOZ_REMOTE_ALLOW_SYSTEM_ACCESS: '1', ...options.env },
    timeout: 30_000,
    protocolTimeout: 20_000,
  });
  try {
    const extensionId = await browser.installExtension(options.extensionDir);
    return {
      browser,
      extensionId,
      extensionOrigin: `moz-extension://${uuid}`,
      close: async () => {
        await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
      },
    };
  } catch (err) {
    await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
    throw err;
  }
}
