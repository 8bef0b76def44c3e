/**
 * The parts of an absolute URL that pages, hints and figures group by, for URLs that come from
 * outside (a page's timeline, a stored record): a URL that does not parse yields `''`, never a throw.
 */

/** The URL's origin (`https://example.com:8443`), or `''` when it does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** The URL's path (`/a/b.css`, no query), or `''` when it does not parse. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
