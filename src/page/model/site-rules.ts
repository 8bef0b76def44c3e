/**
 * Which pages the extension may report on and which the user excluded. Pure, so the popup, the
 * options page and the background agree on one answer.
 */

/**
 * The site access the extension asks for: the manifest's `host_permissions` and its content
 * script's `matches` (test/extension/site-access.test.ts keeps the three equal).
 */
export const SITE_ORIGINS: readonly string[] = ['http://*/*', 'https://*/*'];

/**
 * Whether newly granted `origins` (a `permissions.onAdded` event) include any http(s) site access:
 * `<all_urls>`, a `*://` scheme wildcard or an http(s) pattern, a single host's included.
 */
export function grantsSiteAccess(origins: readonly string[] | undefined): boolean {
  return (origins ?? []).some((o) => o === '<all_urls>' || /^(\*|https?):\/\//.test(o));
}

/** `http:` or `https:` URLs only; the host refuses every other scheme (`E_UNSUPPORTED_SCHEME`). */
export function isHttpUrl(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The URL without its `#fragment` (fragments never reach the server, so they never make a request distinct). */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/**
 * Whether `url`'s host matches one of the user's excluded sites. An entry is a hostname
 * (`example.com`, matching exactly that host) or `*.suffix` (`*.example.com`, matching
 * `example.com` and every subdomain). Case-insensitive; a trailing dot is ignored.
 */
export function isExcludedSite(url: string, excludedSites: readonly string[]): boolean {
  let host: string;
  try {
    host = normaliseHost(new URL(url).hostname);
  } catch {
    return false;
  }
  return excludedSites.some((raw) => {
    const entry = normaliseHost(raw.trim());
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(2);
      return suffix !== '' && (host === suffix || host.endsWith(`.${suffix}`));
    }
    return entry !== '' && host === entry;
  });
}

function normaliseHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}
