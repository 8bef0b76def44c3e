import { describe, type Checker, type Fields } from './check';
import { MAX_URL_LENGTH } from './version';

/**
 * An absolute http(s) URL without credentials. URLs with a user name or password are refused
 * outright: the host never sends credentials (docs/architecture.md, "Privacy").
 */
export function checkUrl(c: Checker, raw: unknown, path: string): string {
  if (typeof raw !== 'string') c.invalid(path, 'an absolute URL string', raw);
  if (raw.length > MAX_URL_LENGTH) c.fail('E_INVALID_URL', `${path}: a URL may have at most ${MAX_URL_LENGTH} characters, got ${raw.length}`);
  const url = parseUrl(raw);
  if (!url) c.fail('E_INVALID_URL', `${path}: expected an absolute URL, got ${describe(raw)}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    c.fail('E_UNSUPPORTED_SCHEME', `${path}: only http: and https: URLs can be scheduled, got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    c.fail('E_INVALID_URL', `${path}: URLs with a user name or password are refused (getlist never sends credentials)`);
  }
  return raw;
}

export function optionalOrigin(c: Checker, value: Fields): string | undefined {
  return value.origin === undefined ? undefined : checkOrigin(c, value.origin, 'origin');
}

/** An http(s) origin, normalised (`https://Example.com:443` → `https://example.com`). */
export function checkOrigin(c: Checker, raw: unknown, path: string): string {
  const expected = 'an origin such as "https://example.com" or "http://127.0.0.1:8080"';
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) c.invalid(path, expected, raw);
  const url = parseUrl(raw);
  if (!url || url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    c.invalid(path, expected, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') c.fail('E_UNSUPPORTED_SCHEME', `${path}: only http: and https: origins exist here, got ${url.protocol}`);
  return url.origin;
}

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}
