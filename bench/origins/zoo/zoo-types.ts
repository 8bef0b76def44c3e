/** What every member of the server zoo is given and gives back. */

/** One socket a member listens on: an origin's address and port, one scheme's document tree. */
export interface ZooListener {
  readonly origin: string;
  readonly address: string;
  readonly port: number;
  readonly tls: boolean;
  /** The tree served on this socket (docroot.ts `docrootOf`). */
  readonly root: string;
  /** For a proxy: the plain-HTTP port of its backend serving the same tree on `address`. */
  readonly backendPort?: number;
}

/** Everything a member's configuration is rendered from; every path is inside `dir`. */
export interface ZooConfigInput {
  readonly dir: string;
  readonly listeners: readonly ZooListener[];
  readonly certPath: string;
  readonly keyPath: string;
  /** The access log the member writes (zoo-access-log.ts reads it in the member's dialect). */
  readonly accessLogPath: string;
  /**
   * nginx's `tcp_nopush` (corking with sendfile): on, as Debian ships it, unless `false`, the
   * control zoo-tail-trace.js runs (`--nginx-nopush-off`).
   */
  readonly tcpNopush?: boolean;
  /**
   * The keep-alive timeout in ms, when set (the member's default otherwise): nginx's
   * `keepalive_timeout`, Apache's `KeepAliveTimeout`, Caddy's idle timeout, HAProxy's
   * `timeout http-keep-alive`. A short
   * one makes the server's idle close race the client's next request on many reuses.
   */
  readonly keepaliveTimeoutMs?: number;
}

/** One process a member runs (varnish runs two: the cache and its log writer). */
export interface ZooLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The process's stdout goes to this file (a member that logs to stdout). */
  readonly stdoutPath?: string;
  /**
   * A log writer that reads the server's records as they happen (varnishncsa): started once a
   * request to this path, made through `listener`, shows in `logPath` (records before it attached
   * are never written).
   */
  readonly readyProbe?: { readonly listener: ZooListener; readonly path: string; readonly logPath: string };
}

/**
 * The one header every web-server member adds to Debian's configuration (the proxies pass the zoo
 * nginx's on): browsers fetch a web font in CORS mode (CSS Fonts 4, "Font fetching requirements"),
 * so a site that serves its fonts from another origin must allow it, or Chromium refuses the font
 * and never uses it. Without it the real-shaped pages' cross-origin fonts fail in Chromium.
 */
export const ZOO_CORS_HEADER = { name: 'Access-Control-Allow-Origin', value: '*' } as const;
