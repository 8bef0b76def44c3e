import { SITE_ORIGINS } from '../../src/page/model/site-rules';

/**
 * Site access (the manifest's `host_permissions`). Chromium grants it at install; Firefox MV3 may
 * not until the user allows it, and until then webRequest, webNavigation and the content script
 * see nothing of any page. DOM-free, with `browser.permissions` passed in, so it runs in Node too.
 */

/** The parts of `browser.permissions` used here. */
export interface PermissionsLike {
  contains(permissions: { origins: string[] }): Promise<boolean>;
  request(permissions: { origins: string[] }): Promise<boolean>;
}

/** `unknown`: the browser would not say; the pages then stay quiet rather than raise a false alarm. */
export type SiteAccess = 'granted' | 'missing' | 'unknown';

export type AccessRequestResult = { granted: true } | { granted: false; error?: string };

/** Whether the extension holds access to every http(s) site. Never rejects. */
export async function checkSiteAccess(permissions: PermissionsLike): Promise<SiteAccess> {
  try {
    return (await permissions.contains({ origins: [...SITE_ORIGINS] })) ? 'granted' : 'missing';
  } catch {
    return 'unknown';
  }
}

/**
 * Asks the user for site access. Call it synchronously from a click handler: browsers show the
 * prompt only during a user gesture, and an `await` before this call ends the gesture. Never rejects.
 */
export function requestSiteAccess(permissions: PermissionsLike): Promise<AccessRequestResult> {
  let asked: Promise<boolean>;
  try {
    asked = permissions.request({ origins: [...SITE_ORIGINS] });
  } catch (err) {
    return Promise.resolve({ granted: false, error: errorText(err) });
  }
  return asked.then(
    (granted): AccessRequestResult => (granted ? { granted: true } : { granted: false }),
    (err: unknown): AccessRequestResult => ({ granted: false, error: errorText(err) }),
  );
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
