/**
 * Caddy as Debian ships it (/etc/caddy/Caddyfile: a `file_server` site), with automatic HTTPS off
 * and the run's certificate in its place; Caddy offers h2 (and h3) on TLS by default. Changed: the
 * sites' addresses, the roots, the log, the certificate, the CORS header (zoo-types.ts); the admin
 * endpoint is off so that several Caddys can run at once.
 */
import { ZOO_CORS_HEADER, type ZooConfigInput, type ZooLaunch, type ZooListener } from './zoo-types';

/** A site answers its origin's name and its address, so both name- and address-linked pages work. */
function site(l: ZooListener, c: ZooConfigInput): string {
  const scheme = l.tls ? 'https' : 'http';
  return [
    `${scheme}://${l.origin}:${l.port}, ${scheme}://${l.address}:${l.port} {`,
    `  bind ${l.address}`,
    `  root * ${l.root}`,
    '  file_server',
    `  header ${ZOO_CORS_HEADER.name} "${ZOO_CORS_HEADER.value}"`,
    ...(l.tls ? [`  tls ${c.certPath} ${c.keyPath}`] : []),
    `  log {\n    output file ${c.accessLogPath} {\n      roll_disabled\n    }\n    format json\n  }`,
    '}',
  ].join('\n');
}

export function caddyZooConfig(c: ZooConfigInput): string {
  return [
    '{',
    '  admin off',
    '  auto_https off',
    `  storage file_system ${c.dir}/caddy-data`,
    ...(c.keepaliveTimeoutMs === undefined ? [] : [`  servers {\n    timeouts {\n      idle ${c.keepaliveTimeoutMs}ms\n    }\n  }`]),
    '}',
    ...c.listeners.map((l) => site(l, c)),
    '',
  ].join('\n');
}

export function caddyZooLaunch(c: ZooConfigInput, confPath: string): ZooLaunch {
  return { command: '/usr/bin/caddy', args: ['run', '--config', confPath, '--adapter', 'caddyfile'], env: { HOME: c.dir, XDG_DATA_HOME: c.dir, XDG_CONFIG_HOME: c.dir } };
}
