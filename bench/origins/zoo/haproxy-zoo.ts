/**
 * HAProxy as Debian ships it (/etc/haproxy/haproxy.cfg: `mode http`, `option httplog`,
 * `option dontlognull`, its timeouts, HAProxy's default keep-alive on both sides), as a reverse
 * proxy in front of the zoo's nginx. Changed: a frontend per listener (TLS with h2 by ALPN on the
 * https ones), one backend each, the log on stdout.
 */
import type { ZooConfigInput, ZooLaunch, ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';

/** The body length comes from the response's own `Content-Length`, captured per frontend. */
export const HAPROXY_ZOO_LOG = '%Ts.%ms %f %fp %cp %HV %ST %[capture.res.hdr(0)] "%HM %HPO"';

function frontend(l: ZooListener, i: number, pemPath: string): string {
  return [
    `frontend f${i}`,
    `  bind ${listenAddress(l.address, l.port)}${l.tls ? ` ssl crt ${pemPath} alpn h2,http/1.1` : ''}`,
    `  log-format "${HAPROXY_ZOO_LOG.replace(/"/g, '\\"')}"`,
    '  declare capture response len 20',
    '  http-response capture res.hdr(content-length) id 0',
    `  default_backend b${i}`,
    `backend b${i}`,
    `  server s${i} ${listenAddress(l.address, l.backendPort ?? 0)}`,
  ].join('\n');
}

/** `pemPath`: certificate and key in one file, as HAProxy's `crt` takes them. */
export function haproxyZooConfig(c: ZooConfigInput, pemPath: string): string {
  return [
    'global',
    '  log stdout format raw local0',
    `  pidfile ${c.dir}/haproxy.pid`,
    'defaults',
    '  log global',
    '  mode http',
    '  option httplog',
    '  option dontlognull',
    '  timeout connect 5000',
    '  timeout client 50000',
    '  timeout server 50000',
    ...(c.keepaliveTimeoutMs === undefined ? [] : [`  timeout http-keep-alive ${c.keepaliveTimeoutMs}`]),
    ...c.listeners.map((l, i) => frontend(l, i, pemPath)),
    '',
  ].join('\n');
}

export function haproxyZooLaunch(c: ZooConfigInput, confPath: string): ZooLaunch {
  return { command: '/usr/sbin/haproxy', args: ['-db', '-f', confPath], stdoutPath: c.accessLogPath };
}
