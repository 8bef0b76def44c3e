/**
 * Apache Traffic Server as Debian ships it (/etc/trafficserver/records.config: reverse proxy,
 * `remap_required`, the cache on, its keep-alive and HTTP/2 defaults), as a reverse proxy in
 * front of the zoo's nginx, in a run root of its own (runroot.yaml) so that nothing under /etc or
 * /var is touched. Changed: the ports, the remap rules, the certificate, a log in the zoo's format
 * flushed every second.
 */
import type { ZooConfigInput, ZooLaunch, ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';

export const TRAFFICSERVER_ZOO_LOG = '%<cqtq> %<{Host}cqh> - %<chp> %<cqpv> %<pssc> %<pscl> "%<cqhm> %<cqup>"';

/** The file name (without `.log`) under the run root's log dir. */
export const TRAFFICSERVER_LOG_NAME = 'zoo';

const defaultPort = (tls: boolean): number => (tls ? 443 : 80);

/** Both the origin's name and its address map to the backend that serves this listener's tree. */
function remaps(l: ZooListener): string[] {
  const scheme = l.tls ? 'https' : 'http';
  const port = l.port === defaultPort(l.tls) ? '' : `:${l.port}`;
  const to = `http://${listenAddress(l.address, l.backendPort ?? 0)}/`;
  return [...new Set([l.origin, listenAddress(l.address, l.port).replace(/:\d+$/, '')])].map((h) => `map ${scheme}://${h}${port}/ ${to}`);
}

export interface TrafficServerFiles {
  readonly [file: string]: string;
}

/** Every file of the run root's config dir, by name. */
export function trafficServerFiles(c: ZooConfigInput): TrafficServerFiles {
  const ports = c.listeners.map((l) => `${l.port}${l.tls ? ':ssl' : ''}:ip-in=${l.address}`).join(' ');
  return {
    'records.config': [
      'CONFIG proxy.config.exec_thread.autoconfig INT 1',
      'CONFIG proxy.config.exec_thread.autoconfig.scale FLOAT 1.0',
      'CONFIG proxy.config.exec_thread.limit INT 2',
      'CONFIG proxy.config.accept_threads INT 1',
      'CONFIG proxy.config.task_threads INT 2',
      `CONFIG proxy.config.http.server_ports STRING ${ports}`,
      'CONFIG proxy.config.http.insert_request_via_str INT 1',
      'CONFIG proxy.config.http.insert_response_via_str INT 0',
      'CONFIG proxy.config.http.keep_alive_no_activity_timeout_in INT 120',
      'CONFIG proxy.config.http.keep_alive_no_activity_timeout_out INT 120',
      'CONFIG proxy.config.http.transaction_no_activity_timeout_in INT 30',
      'CONFIG proxy.config.http.transaction_no_activity_timeout_out INT 30',
      'CONFIG proxy.config.http.cache.http INT 1',
      'CONFIG proxy.config.url_remap.remap_required INT 1',
      'CONFIG proxy.config.url_remap.pristine_host_hdr INT 0',
      'CONFIG proxy.config.reverse_proxy.enabled INT 1',
      'CONFIG proxy.config.log.logging_enabled INT 3',
      'CONFIG proxy.config.log.max_secs_per_buffer INT 1',
      'CONFIG proxy.config.log.periodic_tasks_interval INT 1',
      'CONFIG proxy.config.admin.user_id STRING trafficserver',
      `CONFIG proxy.config.ssl.server.cert.path STRING ${c.dir}`,
      `CONFIG proxy.config.ssl.server.private_key.path STRING ${c.dir}`,
      '',
    ].join('\n'),
    'remap.config': `${c.listeners.flatMap(remaps).join('\n')}\n`,
    'storage.config': `${c.dir}/ats-cache-dir 256M\n`,
    'ip_allow.yaml': "ip_allow:\n  - apply: in\n    ip_addrs: 0/0\n    action: allow\n  - apply: in\n    ip_addrs: ::/0\n    action: allow\n  - apply: out\n    ip_addrs: 0/0\n    action: allow\n",
    'ssl_multicert.config': `dest_ip=* ssl_cert_name=${c.certPath} ssl_key_name=${c.keyPath}\n`,
    'logging.yaml': [
      'logging:',
      '  formats:',
      `    - name: ${TRAFFICSERVER_LOG_NAME}`,
      `      format: '${TRAFFICSERVER_ZOO_LOG}'`,
      '  logs:',
      '    - mode: ascii',
      `      format: ${TRAFFICSERVER_LOG_NAME}`,
      `      filename: ${TRAFFICSERVER_LOG_NAME}`,
      '',
    ].join('\n'),
    'plugin.config': '',
    'sni.yaml': 'sni: []\n',
  };
}

/** The run root: binaries and libraries from the package, everything else in the run's dir. */
export function trafficServerRunroot(c: ZooConfigInput): string {
  return [
    'prefix: /usr',
    'exec_prefix: /usr',
    'bindir: /usr/bin',
    'sbindir: /usr/sbin',
    `sysconfdir: ${c.dir}/ats-etc`,
    `datadir: ${c.dir}/ats-data`,
    'includedir: /usr/include',
    'libdir: /usr/lib/trafficserver',
    'libexecdir: /usr/lib/trafficserver/modules',
    `localstatedir: ${c.dir}/ats-var`,
    `runtimedir: ${c.dir}/ats-run`,
    `logdir: ${c.dir}/ats-log`,
    `cachedir: ${c.dir}/ats-cache-dir`,
    '',
  ].join('\n');
}

export function trafficServerLaunch(c: ZooConfigInput, runrootPath: string): ZooLaunch {
  return { command: '/usr/bin/traffic_server', args: [`--run-root=${runrootPath}`] };
}
