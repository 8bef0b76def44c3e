/**
 * lighttpd as Debian ships it (/etc/lighttpd/lighttpd.conf: mod_indexfile, mod_access, mod_alias,
 * mod_redirect, run as www-data; the server's own defaults for keep-alive and HTTP/2), plus
 * mod_openssl for TLS (`lighty-enable-mod ssl`) and mod_setenv for the CORS header (zoo-types.ts).
 * Changed: the listeners, the docroots, the log, the certificate.
 */
import { ZOO_CORS_HEADER, type ZooConfigInput, type ZooLaunch, type ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';

export const LIGHTTPD_ZOO_LOG = '%{sec}t.%{msec_frac}t %V %{local}p %{remote}p %H %s %b \\"%m %U\\"';

function socket(l: ZooListener, c: ZooConfigInput): string {
  return [
    `$SERVER["socket"] == "${listenAddress(l.address, l.port)}" {`,
    `  server.document-root = "${l.root}"`,
    ...(l.tls ? ['  ssl.engine = "enable"', `  ssl.pemfile = "${c.certPath}"`, `  ssl.privkey = "${c.keyPath}"`] : []),
    '}',
  ].join('\n');
}

export function lighttpdZooConfig(c: ZooConfigInput): string {
  const [first, ...rest] = c.listeners;
  return [
    'server.modules = ("mod_indexfile", "mod_access", "mod_alias", "mod_redirect", "mod_openssl", "mod_accesslog", "mod_setenv")',
    `server.document-root = "${first?.root ?? c.dir}"`,
    `server.errorlog = "${c.dir}/error.log"`,
    `server.pid-file = "${c.dir}/lighttpd.pid"`,
    'server.username = "www-data"',
    'server.groupname = "www-data"',
    `server.bind = "${first?.address ?? '127.0.0.1'}"`,
    `server.port = ${first?.port ?? 80}`,
    'index-file.names = ("index.html")',
    'include_shell "/usr/share/lighttpd/create-mime.conf.pl"',
    `accesslog.filename = "${c.accessLogPath}"`,
    `accesslog.format = "${LIGHTTPD_ZOO_LOG}"`,
    `setenv.add-response-header = ("${ZOO_CORS_HEADER.name}" => "${ZOO_CORS_HEADER.value}")`,
    ...(first ? [socket(first, c)] : []),
    ...rest.map((l) => socket(l, c)),
    '',
  ].join('\n');
}

export function lighttpdZooLaunch(_c: ZooConfigInput, confPath: string): ZooLaunch {
  return { command: '/usr/sbin/lighttpd', args: ['-D', '-f', confPath] };
}
