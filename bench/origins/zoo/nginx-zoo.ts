/**
 * nginx as Debian ships it (/etc/nginx/nginx.conf: `worker_processes auto`, `sendfile on`,
 * `tcp_nopush on`, gzip on, default keep-alive), with only the zoo's changes: the listeners, the
 * docroots, the log, the certificate, `http2 on` for TLS, and the CORS header a site's fonts need
 * on another origin (zoo-types.ts `ZOO_CORS_HEADER`).
 */
import { supportsHttp2Directive } from '../nginx-config';
import { nginxVersion } from '../nginx-process';
import { ZOO_CORS_HEADER, type ZooConfigInput, type ZooLaunch, type ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';

export const NGINX_ZOO_LOG = '$msec $server_name $server_port $connection $server_protocol $status $body_bytes_sent "$request_method $uri"';

/** nginx ≥ 1.25.1 turns h2 on with `http2 on;`, older ones (Debian 12's) with `listen … http2`. */
function server(l: ZooListener, c: ZooConfigInput, h2Directive: boolean): string {
  return [
    '  server {',
    `    listen ${listenAddress(l.address, l.port)}${l.tls ? ` ssl${h2Directive ? '' : ' http2'}` : ''};`,
    ...(l.tls ? [...(h2Directive ? ['    http2 on;'] : []), `    ssl_certificate ${c.certPath};`, `    ssl_certificate_key ${c.keyPath};`] : []),
    `    server_name ${l.origin};`,
    `    root ${l.root};`,
    '  }',
  ].join('\n');
}

export function nginxZooConfig(c: ZooConfigInput, h2Directive = supportsHttp2Directive(nginxVersion('/usr/sbin/nginx'))): string {
  return [
    'user www-data;',
    'worker_processes auto;',
    `error_log ${c.dir}/error.log;`,
    'events { worker_connections 768; }',
    'http {',
    '  sendfile on;',
    `  tcp_nopush ${c.tcpNopush === false ? 'off' : 'on'};`,
    ...(c.keepaliveTimeoutMs === undefined ? [] : [`  keepalive_timeout ${c.keepaliveTimeoutMs}ms;`]),
    '  types_hash_max_size 2048;',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  ssl_protocols TLSv1.2 TLSv1.3;',
    '  ssl_prefer_server_ciphers on;',
    `  log_format zoo '${NGINX_ZOO_LOG}';`,
    `  access_log ${c.accessLogPath} zoo;`,
    '  gzip on;',
    `  add_header ${ZOO_CORS_HEADER.name} "${ZOO_CORS_HEADER.value}" always;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${c.dir}/${t}_temp;`),
    ...c.listeners.map((l) => server(l, c, h2Directive)),
    '}',
    '',
  ].join('\n');
}

export function nginxZooLaunch(c: ZooConfigInput, confPath: string): ZooLaunch {
  return { command: '/usr/sbin/nginx', args: ['-p', c.dir, '-e', `${c.dir}/error.log`, '-c', confPath, '-g', `daemon off; pid ${c.dir}/nginx.pid;`] };
}
