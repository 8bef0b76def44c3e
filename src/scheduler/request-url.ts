/** A request URL as the scheduler keeps it. */
export interface SplitUrl {
  /** The URL without its fragment, serialised as WHATWG `URL` serialises it. */
  href: string;
  /** `scheme://host[:port]`, as `URL.origin`. */
  origin: string;
  /** Path plus query: the request target. */
  path: string;
  /** The port connected to (the scheme's default when the URL names none). */
  port: number;
}

/** Origins remembered at most; past this the memory starts again (a page names a few dozen). */
const MAX_ORIGINS = 1024;

/**
 * Request URLs split without a parse. Parsing a URL (`new URL`) is most of what enqueueing a
 * request costs, and a page or a request list names the same few origins thousands of times; so
 * a URL is split without a parse when it is already in the form `URL` would serialise it: it
 * starts with an origin a parse produced before (`remember`), followed by `/`, and its target holds
 * only characters `URL` keeps as they are in a path or query (RFC 3986 unreserved and
 * sub-delimiters, `:`, `@`, `/`; `?` after the first; no `'` in a query), no `%`, and no `.` or
 * `..` segment — so nothing in it could be percent-encoded, decoded or resolved. Anything else (a
 * fragment, an upper-case host, a default port written out, credentials, `%20`) is left to the
 * full parse. The property test (request-url.test.ts) holds this to the parse's result.
 *
 * Invariant: `lookup(raw)`, when not undefined, is exactly what the full parse of `raw` gives.
 */
export class RequestUrls {
  /** Origins (as `URL.origin` serialised them) and their ports. */
  private readonly known = new Map<string, number>();

  /** A parse of an http(s) URL gave `origin` (in `URL.origin`'s form) connecting to `port`. */
  remember(origin: string, port: number): void {
    if (this.known.has(origin)) return;
    if (this.known.size >= MAX_ORIGINS) this.known.clear();
    this.known.set(origin, port);
  }

  /** `raw` split without a parse, or undefined when it needs one. */
  lookup(raw: string): SplitUrl | undefined {
    if (this.known.size === 0) return undefined;
    const after = raw.startsWith('http://') ? 7 : raw.startsWith('https://') ? 8 : -1;
    if (after < 0) return undefined;
    const slash = raw.indexOf('/', after);
    if (slash < 0) return undefined;
    const origin = raw.slice(0, slash);
    const port = this.known.get(origin);
    if (port === undefined || !plainTarget(raw, slash)) return undefined;
    return { href: raw, origin, path: raw.slice(slash), port };
  }
}

const SLASH = 0x2f;
const DOT = 0x2e;
const QUESTION = 0x3f;

/**
 * Characters kept as they are in a path by `URL` (no percent-encoding, no special meaning):
 * ALPHA DIGIT `-._~` `!$&'()*+,;=` `:@` `/`. In a query the same except `'` (which special
 * schemes percent-encode there), plus `?`.
 */
const PATH_CHARS = new Uint8Array(128);
const QUERY_CHARS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&\'()*+,;=:@/') PATH_CHARS[c.charCodeAt(0)] = 1;
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/?') QUERY_CHARS[c.charCodeAt(0)] = 1;

/** The target from `from` (a `/`) is in the form `URL` serialises: see `RequestUrls`. */
function plainTarget(raw: string, from: number): boolean {
  const n = raw.length;
  let i = from;
  /** Where the current path segment starts (just after its `/`). */
  let segment = from + 1;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === QUESTION) break;
    if (c >= 128 || PATH_CHARS[c] !== 1) return false;
    if (c === SLASH && i > from) {
      if (dotSegment(raw, segment, i)) return false;
      segment = i + 1;
    }
  }
  if (dotSegment(raw, segment, i)) return false;
  for (i += 1; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128 || QUERY_CHARS[c] !== 1) return false;
  }
  return true;
}

/** `raw[from, to)` is `.` or `..`. */
function dotSegment(raw: string, from: number, to: number): boolean {
  const len = to - from;
  if (len === 1) return raw.charCodeAt(from) === DOT;
  if (len === 2) return raw.charCodeAt(from) === DOT && raw.charCodeAt(from + 1) === DOT;
  return false;
}
