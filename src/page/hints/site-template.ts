/**
 * Page keys and site templates. A template is the origin plus the path's shape: the first segment
 * literally (a site's section: `/news`, `/blog`), every later one by class — all digits `{n}`,
 * anything else `{s}` — and the last one's extension kept. So `/news/2024/05/a-new-article` and
 * `/news/2023/11/an-older-one` share `https://site/news/{n}/{n}/{s}`: a new article benefits from
 * what the site's other articles needed. The query never enters a template.
 */

const NUMERIC = /^\d+$/;
const EXTENSION = /\.[a-z0-9]{1,5}$/i;

/** The page key: the URL without its fragment (fragments never reach the server). */
export function pageKey(url: string): string | undefined {
  const u = parse(url);
  if (!u) return undefined;
  u.hash = '';
  return u.href;
}

/** The template key of an http(s) URL, or undefined. */
export function templateKey(url: string): string | undefined {
  const u = parse(url);
  if (!u) return undefined;
  const segments = u.pathname.split('/').slice(1);
  const shaped = segments.map((s, i) => {
    if (i === 0 || s === '') return s;
    const ext = i === segments.length - 1 ? (EXTENSION.exec(s)?.[0] ?? '') : '';
    return `${NUMERIC.test(s) ? '{n}' : '{s}'}${ext.toLowerCase()}`;
  });
  return `${u.origin}/${shaped.join('/')}`;
}

/**
 * An RE2 / JavaScript regular expression matching exactly the URLs of a template (any query, no
 * fragment), for a declarativeNetRequest `regexFilter`.
 */
export function templateRegex(key: string): string {
  const slash = key.indexOf('/', key.indexOf('//') + 2);
  const origin = key.slice(0, slash);
  const path = key.slice(slash + 1).split('/');
  const parts = path.map((s, i) => {
    if (i === 0 || s === '') return escapeRegex(s);
    const m = /^\{([ns])\}(.*)$/.exec(s);
    if (!m) return escapeRegex(s);
    const ext = m[2] ?? '';
    const cls = m[1] === 'n' ? '[0-9]+' : '[^/?#]+';
    return ext ? `${cls}${escapeRegex(ext)}` : cls;
  });
  return `^${escapeRegex(origin)}/${parts.join('/')}(\\?[^#]*)?$`;
}

/** The hostname of an http(s) URL or key, lower-case; '' when it does not parse. */
export function hostOf(url: string): string {
  return parse(url)?.hostname.toLowerCase() ?? '';
}

function parse(url: string): URL | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
