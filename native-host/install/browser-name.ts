/** The browsers getlist installs a native messaging host for. */
export const BROWSERS = ['chrome', 'chromium', 'firefox'] as const;
export type Browser = (typeof BROWSERS)[number];

export function isBrowser(s: string): s is Browser {
  return (BROWSERS as readonly string[]).includes(s);
}

/** Chrome and Chromium share the manifest format (`allowed_origins`); Firefox uses `allowed_extensions`. */
export function isChromiumFamily(b: Browser): b is 'chrome' | 'chromium' {
  return b !== 'firefox';
}

/** Display names for messages. */
export const BROWSER_LABEL: Record<Browser, string> = { chrome: 'Google Chrome', chromium: 'Chromium', firefox: 'Firefox' };
