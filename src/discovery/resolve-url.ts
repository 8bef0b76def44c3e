import { isAsciiWhitespace } from './ascii';

/**
 * Turns a URL as written in markup or CSS into the absolute form the scheduler fetches, or
 * `undefined` when it must not be fetched: empty, unparsable, or any scheme but http(s)
 * (`data:`, `javascript:`, `about:`, `blob:`… carry no network request).
 *
 * The fragment is dropped because it never reaches the server, so `a.svg#x` and `a.svg#y` are one
 * fetch. The URL parser itself strips the leading/trailing whitespace HTML allows around URLs.
 */
export function resolveHttpUrl(raw: string, base: string): string | undefined {
  if (isBlank(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href;
}

/** Whether `value` parses as an absolute URL on its own. */
export function isAbsoluteUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** True when `value` holds only ASCII whitespace (HTML's notion of an empty URL attribute). */
function isBlank(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    if (!isAsciiWhitespace(value.charCodeAt(i))) return false;
  }
  return true;
}
