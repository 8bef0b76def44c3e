/**
 * h2o as Debian ships it (/etc/h2o/h2o.conf: one host with `file.dir`, the server's defaults for
 * keep-alive and HTTP/2). Changed: the listeners, the docroots, the log, the certificate, the CORS
 * header (zoo-types.ts).
 */
import { ZOO_CORS_HEADER, type ZooConfigInput, type ZooLaunch, type ZooListener } from './zoo-types';

export const H2O_ZOO_LOG = '%{sec}t.%{msec_frac}t %V %{local}p %{connection-id}x %H %s %b "%m %U"';

const q = (s: string): string => JSON.stringify(s);

function host(l: ZooListener, c: ZooConfigInput): string[] {
  return [
    `  ${q(`${l.origin}:${l.port}`)}:`,
    '    listen:',
    `      host: ${q(l.address)}`,
    `      port: ${l.port}`,
    ...(l.tls ? ['      ssl:', `        certificate-file: ${q(c.certPath)}`, `        key-file: ${q(c.keyPath)}`] : []),
    '    paths:',
    '      "/":',
    `        file.dir: ${q(l.root)}`,
    `        header.add: ${q(`${ZOO_CORS_HEADER.name}: ${ZOO_CORS_HEADER.value}`)}`,
  ];
}

export function h2oZooConfig(c: ZooConfigInput): string {
  return [
    'user: www-data',
    `pid-file: ${q(`${c.dir}/h2o.pid`)}`,
    `error-log: ${q(`${c.dir}/error.log`)}`,
    'access-log:',
    `  path: ${q(c.accessLogPath)}`,
    `  format: ${q(H2O_ZOO_LOG)}`,
    'hosts:',
    ...c.listeners.flatMap((l) => host(l, c)),
    '',
  ].join('\n');
}

export function h2oZooLaunch(_c: ZooConfigInput, confPath: string): ZooLaunch {
  return { command: '/usr/bin/h2o', args: ['-c', confPath] };
}
