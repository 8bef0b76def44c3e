/**
 * Apache httpd as Debian ships it (/etc/apache2/apache2.conf with the event MPM and the modules a
 * fresh install enables: KeepAlive On, MaxKeepAliveRequests 100, KeepAliveTimeout 5), plus mod_ssl
 * and mod_http2 as `a2enmod ssl http2` turns them on, and mod_headers for the CORS header
 * (zoo-types.ts). Changed: the listeners, the docroots, the log, the certificate.
 */
import { ZOO_CORS_HEADER, type ZooConfigInput, type ZooLaunch, type ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';

const MODULES = ['mpm_event', 'authz_core', 'mime', 'dir', 'socache_shmcb', 'ssl', 'http2', 'headers'];

/** `%{remote}p`: the client's port names the connection; `%H` says HTTP/2.0 for h2. */
export const APACHE_ZOO_LOG = '%{sec}t.%{msec_frac}t %v %{local}p %{remote}p %H %>s %B \\"%m %U\\"';

function vhost(l: ZooListener, c: ZooConfigInput): string {
  return [
    `<VirtualHost ${listenAddress(l.address, l.port)}>`,
    `  ServerName ${l.origin}`,
    `  DocumentRoot ${l.root}`,
    ...(l.tls ? ['  SSLEngine on', `  SSLCertificateFile ${c.certPath}`, `  SSLCertificateKeyFile ${c.keyPath}`] : []),
    '</VirtualHost>',
  ].join('\n');
}

export function apacheZooConfig(c: ZooConfigInput): string {
  return [
    `DefaultRuntimeDir ${c.dir}`,
    `PidFile ${c.dir}/apache2.pid`,
    'Timeout 300',
    'KeepAlive On',
    'MaxKeepAliveRequests 100',
    c.keepaliveTimeoutMs === undefined ? 'KeepAliveTimeout 5' : `KeepAliveTimeout ${c.keepaliveTimeoutMs}ms`,
    'User www-data',
    'Group www-data',
    'HostnameLookups Off',
    `ErrorLog ${c.dir}/error.log`,
    'LogLevel warn',
    ...MODULES.map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`),
    'TypesConfig /etc/mime.types',
    'DirectoryIndex index.html',
    // Debian's mods-available/http2.conf.
    'Protocols h2 h2c http/1.1',
    `SSLSessionCache shmcb:${c.dir}/ssl_scache(512000)`,
    'SSLProtocol all -SSLv3',
    `LogFormat "${APACHE_ZOO_LOG}" zoo`,
    `CustomLog ${c.accessLogPath} zoo`,
    `Header always set ${ZOO_CORS_HEADER.name} "${ZOO_CORS_HEADER.value}"`,
    '<Directory />',
    '  Options FollowSymLinks',
    '  AllowOverride None',
    '  Require all granted',
    '</Directory>',
    ...c.listeners.map((l) => `Listen ${listenAddress(l.address, l.port)}`),
    ...c.listeners.map((l) => vhost(l, c)),
    '',
  ].join('\n');
}

export function apacheZooLaunch(c: ZooConfigInput, confPath: string): ZooLaunch {
  return { command: '/usr/sbin/apache2', args: ['-d', c.dir, '-f', confPath, '-DFOREGROUND'], env: { APACHE_RUN_DIR: c.dir, APACHE_LOCK_DIR: c.dir, APACHE_LOG_DIR: c.dir } };
}
