/**
 * The server zoo: the HTTP servers and reverse proxies people run, each from its Debian package,
 * plus a bare origin written here. The proxies are the middleboxes that broke pipelining in
 * browsers; each stands in front of the zoo's nginx.
 */
export const ZOO_MEMBERS = ['nginx', 'apache', 'lighttpd', 'caddy', 'h2o', 'haproxy', 'varnish', 'trafficserver', 'plain'] as const;
export type ZooMember = (typeof ZOO_MEMBERS)[number];

export interface ZooMemberInfo {
  /** The binary the suite runs, and the Debian package that has it. */
  readonly binary: string;
  readonly debianPackage: string;
  /** It terminates TLS itself (with h2 by ALPN where `h2`). */
  readonly tls: boolean;
  readonly h2: boolean;
  /** A reverse proxy in front of the zoo's nginx. */
  readonly proxy: boolean;
  /** What sets it apart for a pipelining client, where something does. */
  readonly note?: string;
  /**
   * It writes its access log late, at most this long after the response: lighttpd flushes its
   * buffer on a periodic timer, Traffic Server every `periodic_tasks_interval`, varnishncsa as it
   * polls the shared-memory log.
   */
  readonly logFlushMs?: number;
}

export const ZOO_INFO: Readonly<Record<ZooMember, ZooMemberInfo>> = {
  nginx: {
    binary: '/usr/sbin/nginx', debianPackage: 'nginx', tls: true, h2: true, proxy: false,
    note: 'Debian\'s nginx.conf as shipped (`sendfile on`, `tcp_nopush on`, gzip on): the tail of a pipelined burst\'s last response arrives up to a round trip after its first byte: with `tcp_nopush on`, nginx on Linux never turns Nagle\'s algorithm off on a plain-HTTP connection (bench/README.md, "Why nginx holds a burst\'s tail"). A request sent alone (`browser`) pays nothing.',
  },
  apache: { binary: '/usr/sbin/apache2', debianPackage: 'apache2', tls: true, h2: true, proxy: false },
  lighttpd: {
    binary: '/usr/sbin/lighttpd', debianPackage: 'lighttpd', tls: true, h2: true, proxy: false, logFlushMs: 4_500,
    note: 'Its HTTP/1.1 responses carry no `Connection` header: persistence is HTTP/1.1\'s default (RFC 9112 §9.3), and getlist probes and proves its pipelining as on nginx (docs/scheduler.md). '
      + 'Over TLS it takes the client\'s first ALPN protocol (RFC 7301 §3.2); getlist offers `h2` first, as browsers do (native-host/transport/alpn-order.ts).',
  },
  caddy: {
    binary: '/usr/bin/caddy', debianPackage: 'caddy', tls: true, h2: true, proxy: false,
    note: 'Its HTTP/1.1 responses carry no `Connection` header: persistence is HTTP/1.1\'s default (RFC 9112 §9.3), and getlist probes and proves its pipelining as on nginx (docs/scheduler.md).',
  },
  h2o: { binary: '/usr/bin/h2o', debianPackage: 'h2o', tls: true, h2: true, proxy: false },
  haproxy: {
    binary: '/usr/sbin/haproxy', debianPackage: 'haproxy', tls: true, h2: true, proxy: true,
    note: 'It drops nginx\'s `Connection: keep-alive` from the responses it forwards; persistence is HTTP/1.1\'s default (RFC 9112 §9.3), and getlist probes and proves its pipelining as on nginx (docs/scheduler.md).',
  },
  // Varnish has no TLS of its own (Debian pairs it with hitch): plain HTTP only.
  varnish: { binary: '/usr/sbin/varnishd', debianPackage: 'varnish', tls: false, h2: false, proxy: true, logFlushMs: 500 },
  trafficserver: { binary: '/usr/bin/traffic_server', debianPackage: 'trafficserver', tls: true, h2: true, proxy: true, logFlushMs: 1_500 },
  // A Node `net` server: Content-Length and nothing else, no Connection header, no TLS.
  plain: {
    binary: process.execPath, debianPackage: 'nodejs', tls: false, h2: false, proxy: false,
    note: 'Its HTTP/1.1 responses carry no `Connection` header: persistence is HTTP/1.1\'s default (RFC 9112 §9.3), and getlist probes and proves its pipelining as on nginx (docs/scheduler.md). Like Node\'s `net` default it leaves Nagle\'s algorithm on.',
  },
};

export function isZooMember(name: string): name is ZooMember {
  return (ZOO_MEMBERS as readonly string[]).includes(name);
}
